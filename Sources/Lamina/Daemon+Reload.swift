import Logging

/// Checking a configuration (`lamina check-config`) and reloading it into a running daemon
/// (SIGHUP, the control socket's `reload`): the check reads every file the configuration
/// names, off the loop through the scene loader in the daemon; the loop applies the result.
extension Daemon {
    /// Validates a config file completely without opening any device: every table and key,
    /// the scene's settings and the touch script (`lamina check-config`). Returns the config.
    public static func check(path: String, catalog: SceneRegistry) throws(ConfigError) -> LaminaConfig {
        try checked(path: path, catalog: catalog).config
    }

    /// `check`, also returning the scene file the config names as compiled, so a reload shows
    /// that document rather than running the helper for the file a second time.
    static func checked(path: String, catalog: SceneRegistry) throws(ConfigError) -> (config: LaminaConfig, document: SceneDocument?) {
        let config = try LaminaConfig.load(path: path, sceneNames: catalog.sceneNames)
        for scene in catalog.sceneNames { try catalog.validate(scene: scene, settings: config.settings(forScene: scene)) }
        if let saver = config.screensaver, SceneFiles.isFile(saver) { _ = try SceneFiles.load(path: saver) }
        var document: SceneDocument?
        if let file = config.sceneFile {
            document = try SceneFiles.load(path: file, overrides: config.bindings)
        } else if let bindings = config.bindings, let key = bindings.keys.first {
            throw ConfigError(file: path, field: "bindings.\(key)", reason: "[bindings] set a scene file's bindings, and [run] scene names no scene file")
        }
        // A script path naming `{scene}` must exist for every scene the file could run.
        let scripts = Set(catalog.sceneNames.compactMap { config.touchScript(forScene: $0) })
        for script in scripts.sorted() { _ = try loadTouchScript(path: script) }
        return (config, document)
    }

    /// SIGHUP: reads `path` again and applies it to the running daemon between two frames —
    /// the scene and its settings, background, rotation, blanking, repaint window, keyboard
    /// layout and repeat. Keys that choose devices (backend, card, connector, mode, format,
    /// console, input devices, calibration) take effect at the next start, and the log says
    /// so. A file that does not check out is logged and the running configuration kept.
    /// Returns the configuration now in force.
    /// With `keepsScene` (a scene named on the command line) the running scene stays whatever
    /// the file names.
    public static func reload(path: String, running: LaminaConfig, runtime: Runtime, catalog: SceneRegistry,
                              keepsScene: Bool = false, logger: Logger) -> LaminaConfig {
        let result = Result { () throws(ConfigError) in try checked(path: path, catalog: catalog) }
        return applyReload(result, path: path, running: running, runtime: runtime, catalog: catalog,
                           keepsScene: keepsScene, logger: logger).config
    }

    /// The loop's half of a reload: applies what `checked(path:catalog:)` read (off the loop,
    /// through the scene loader, in the daemon) to the running daemon. Returns the
    /// configuration now in force and why the file was rejected (nil: applied).
    static func applyReload(_ result: Result<(config: LaminaConfig, document: SceneDocument?), ConfigError>, path: String,
                            running: LaminaConfig, runtime: Runtime, catalog: SceneRegistry,
                            keepsScene: Bool, logger: Logger) -> (config: LaminaConfig, rejection: String?) {
        var next: LaminaConfig
        var document: SceneDocument?
        switch result {
        case .success(let checked): (next, document) = checked
        case .failure(let error):
            logger.error("reload rejected, keeping the running configuration: \(error)")
            runtime.notifier?.notify("STATUS=reload rejected: \(error)")
            return (running, "\(error)")
        }
        // What needs a restart stays as it runs now, so the next reload compares with it.
        var deferred: [String] = []
        func keep<T: Equatable>(_ key: String, _ field: WritableKeyPath<LaminaConfig, T>) {
            if next[keyPath: field] != running[keyPath: field] { deferred.append(key) }
            next[keyPath: field] = running[keyPath: field]
        }
        keep("display.backend", \.backend)
        keep("display.connector", \.connector)
        keep("display.mode", \.mode)
        keep("display.format", \.format)
        keep("display.console", \.console)
        keep("display.fbdev", \.fbdevPath)
        keep("display.page_flips", \.legacyPageFlips)
        keep("display.clock", \.clock)
        keep("display.dummy_mode", \.dummyMode)
        keep("input.source", \.inputSource)
        keep("input.seat", \.inputSeat)
        keep("input.devices", \.inputDevices)
        keep("input.calibration", \.calibration)
        next.touchScript = running.touchScript
        next.exitAfter = running.exitAfter
        if keepsScene {
            next.scene = running.scene
            next.sceneFile = running.sceneFile
            document = nil                                  // not the file the command line named
        }

        runtime.background = next.background
        runtime.rotation = Runtime.effectiveRotation(configured: next.rotation, panel: runtime.display.connector.panelOrientation)
        runtime.blankAfter = next.blankAfter
        runtime.power = next.power
        runtime.setBrightness(next.power.brightness)
        runtime.repaintWindow = next.repaintWindow ?? runtime.loop.isRealTime
        runtime.usesOverlayPlanes = next.overlayPlanes
        AudioDevice.default = next.audioDevice                  // players made by the reload on (one handed on keeps its device)
        if (next.keyboardLayout, next.keyboardVariant, next.keyboardOptions)
            != (running.keyboardLayout, running.keyboardVariant, running.keyboardOptions) {
            runtime.keyboard = try? makeKeyboard(next)
            runtime.relabelOnScreenKeyboard()                     // relabelled from the new layout when next shown
        }
        if (next.language, next.translations) != (running.language, running.translations) {
            applyLanguage(next, to: runtime, logger: runtime.logger)
        }
        runtime.keyboard?.repeatDelay = next.repeatDelay
        runtime.keyboard?.repeatRate = next.repeatRate
        runtime.showsOnScreenKeyboard = next.onScreenKeyboard
        runtime.setCursorMode(next.cursor, hideAfter: next.cursorHideAfter)
        // A scene file's bindings keep their running values, except those `[bindings]` sets.
        var kept = (runtime.scene as? any ControllableScene)?.bindingValues ?? [:]
        for key in next.bindings?.keys ?? [] { kept[key] = nil }
        do {
            if let document {
                try SceneFiles.install(document, keeping: kept, in: runtime)
            } else {
                try installScene(next, catalog: catalog, keeping: kept, in: runtime)
            }
        } catch {
            logger.error("the reloaded scene could not be built: \(error)")
        }
        watchSceneFile(next, runtime: runtime, logger: logger)
        let later = deferred.isEmpty ? "" : "; \(deferred.joined(separator: ", ")) take effect at the next start"
        logger.notice("configuration reloaded from \(path): scene \(next.sceneDescription)\(later)")
        runtime.notifier?.notify("STATUS=reloaded \(path): scene \(next.sceneDescription)")
        return (next, nil)
    }
}
