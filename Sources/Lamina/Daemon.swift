import LaminaSystem
import FoundationEssentials
import LaminaDisplay
import LaminaGeometry
import LaminaInput
import Logging

/// The daemon's options after the command line has overridden the config file.
public struct DaemonOptions {
    /// The config file to read; nil searches `configSearchPaths`.
    public var configPath: String?
    /// Where the config is looked for when none is named, first match wins (an app's own
    /// paths; Lamina's are `Daemon.defaultConfigPaths`). None found: built-in defaults.
    public var configSearchPaths: [String] = Daemon.defaultConfigPaths

    /// The config file these options read: `configPath`, else the first of
    /// `configSearchPaths` that exists, else none (built-in defaults).
    public var configFile: String? {
        configPath ?? configSearchPaths.first { FileManager.default.fileExists(atPath: $0) }
    }
    /// Overrides the configuration's backend.
    public var backend: BackendChoice?
    /// Overrides the configuration's clock.
    public var clock: ClockChoice?
    /// Overrides the configuration's scene.
    public var scene: String?
    /// A touch script to replay, overriding the configuration's.
    public var touchScript: String?
    /// A directory to write every frame into as PNG, with a contact sheet at the end.
    public var framesOut: String?
    /// With `framesOut`: false writes only the contact sheet (a test of a run's motion).
    public var writesEveryFrame = true
    /// Stop after this many seconds (on the run's clock).
    public var exitAfter: Double?
    /// Write the run's stats as JSON here at exit.
    public var statsJSON: String?
    /// Run the touch calibration wizard into this session instead of the scene (`lamina
    /// calibrate`): touches are read through the identity matrix, nothing dims, blanks or
    /// listens on the control socket, and the run ends when the session has its outcome.
    public var calibration: CalibrationSession?

    /// No overrides: everything as the configuration says.
    public init() {}
}

/// What a run did.
public struct RunSummary: Sendable {
    /// Why the run ended.
    public var stopReason: Runtime.StopReason
    /// Frames drawn and handed to the display.
    public var frames: Int
    /// Vblanks that passed without a new frame while one was due.
    public var missedVBlanks: Int
    /// Page flips the device refused (logged and retried).
    public var failedFlips: Int
    /// The contact sheet's path, when frames were written.
    public var contactSheet: String?
    /// The run's measurements.
    public var stats: RunStats
}

/// `lamina run`: config → backend → display → scene → event loop.
public enum Daemon {
    /// Where `lamina` looks for its config when none is named.
    public static let defaultConfigPaths = ["configs/lamina.toml", "/etc/lamina/lamina.toml"]

    /// Loads the configuration: the named file, else the first default that exists, else
    /// built-in defaults.
    public static func loadConfig(_ options: DaemonOptions, catalog: SceneRegistry) throws(ConfigError) -> LaminaConfig {
        var config = LaminaConfig()
        config.scene = catalog.defaultScene
        if let path = options.configFile { config = try LaminaConfig.load(path: path, sceneNames: catalog.sceneNames) }
        if let backend = options.backend { config.backend = backend }
        if let clock = options.clock { config.clock = clock }
        if let scene = options.scene, SceneFiles.isFile(scene) {
            config.sceneFile = scene
            config.scene = SceneFiles.sceneName
        } else if let scene = options.scene {
            guard catalog.sceneNames.contains(scene) else {
                throw ConfigError(file: "command line", field: "--scene",
                                  reason: "'\(Escaped(scene))' is not a scene (known: \(catalog.sceneNames.joined(separator: ", ")); a scene file ends in .yaml)")
            }
            config.scene = scene
            config.sceneFile = nil
        }
        config.touchScript = config.touchScript(forScene: config.sceneStem)
        // A scene file has a demo script only if one was written for it.
        if config.sceneFile != nil, let script = config.touchScript, (try? Paths.regularFileSize(script)) == nil {
            config.touchScript = nil
        }
        if let script = options.touchScript { config.touchScript = script }
        if options.calibration != nil {
            config.calibration = CalibrationMatrix.identity.values
            config.touchScript = options.touchScript
            config.blankAfter = nil
            config.power = PowerSettings()
            config.screensaver = nil
            config.controlSocket = "none"
            // The wizard is for the touchscreen: read it even where the config turned input off.
            if config.inputSource == "none" { config.inputSource = "auto" }
        }
        if let exitAfter = options.exitAfter { config.exitAfter = exitAfter > 0 ? exitAfter : nil }
        return config
    }

    /// Reads and parses a touch script; a bad one is a `ConfigError` naming the line.
    public static func loadTouchScript(path: String) throws(ConfigError) -> TouchScript {
        let text: String
        do {
            text = try InputFile.text(atPath: path)
        } catch {
            throw ConfigError(file: path, reason: "cannot be read: \(error)")
        }
        do {
            return try TouchScript(parsing: text)
        } catch {
            throw ConfigError(file: path, field: "line \(error.line)", line: error.line, reason: error.reason)
        }
    }

    /// The backlight `[power] backlight` names: `auto` is the preferred device on a real
    /// display (none on the dummy, whose host's light is not the kiosk's). A device that
    /// cannot be used is logged; the display runs without brightness control.
    static func openBacklight(_ choice: String, onDummy: Bool, logger: Logger) -> Backlight? {
        do {
            let light: Backlight?
            switch choice {
            case "none": return nil
            case "auto": light = onDummy ? nil : try Backlight.find()
            default: light = choice.hasPrefix("/") ? try Backlight(path: choice) : try Backlight.find(name: choice)
            }
            if let light { logger.info("backlight \(light.path) (max \(light.maxBrightness))") }
            return light
        } catch {
            logger.warning("no backlight control: \(error)")
            return nil
        }
    }

    /// Mutes the configured VT; a console that cannot be muted is logged, never fatal.
    static func muteConsole(_ setting: String, logger: Logger) -> ConsoleMute? {
        guard setting != "none" else { return nil }
        let path = setting == "auto" ? "/proc/self/fd/0" : setting
        switch ConsoleMute.mute(path: path) {
        case .success(let mute):
            logger.info("console \(setting == "auto" ? "on standard input" : setting) muted (graphics mode, keyboard off)")
            return mute
        case .failure(let error):
            if setting != "auto" { logger.warning("cannot mute the console: \(error)") }
            return nil
        }
    }

    /// Follows VT switches on the muted VT (`VT_PROCESS`); failing that is logged, not fatal:
    /// a lost master is then noticed on the next flip and retried once a second.
    static func takeVTSwitching(path: String, logger: Logger) -> VTSwitching? {
        switch VTSwitching.take(path: path) {
        case .success(let switching):
            logger.info("VT switches on \(path == "/proc/self/fd/0" ? "standard input" : path) drop and retake DRM master")
            return switching
        case .failure(let error):
            logger.warning("cannot follow VT switches: \(error)")
            return nil
        }
    }

    /// Reads touches, the mouse and keys through libinput; without it (no permission, no
    /// udev) the display still runs, and the log says why there is no touch.
    static func openInput(_ config: LaminaConfig, runtime: Runtime, logger: Logger) {
        let backend: LibinputSource.Backend = config.inputDevices.isEmpty ? .seat(config.inputSeat) : .devices(config.inputDevices)
        do {
            let source = try LibinputSource(backend: backend, panelSize: Size(width: Double(runtime.display.width),
                                                                               height: Double(runtime.display.height)),
                                            calibration: config.calibration, log: { logger.info("\($0)") })
            runtime.addTouchSource(source)
            let origin = config.inputDevices.isEmpty ? "seat \(config.inputSeat)" : config.inputDevices.joined(separator: ", ")
            logger.info("input: libinput on \(origin), \(source.devices.count) devices")
        } catch {
            logger.warning("no touch input: \(error)")
        }
    }

    /// `[run] language` and `[run] translations` (checked when the configuration was read; a
    /// catalog that went bad since is logged and the strings shown as written).
    static func applyLanguage(_ config: LaminaConfig, to runtime: Runtime, logger: Logger) {
        runtime.translations = config.translations.map { Translations(folder: $0, logger: logger) }
        do { try runtime.setLanguage(config.language) } catch {
            logger.warning("language: \(error); strings shown as written")
        }
    }

    /// The configured xkb keymap: it turns keys into text and labels the on-screen keyboard.
    static func makeKeyboard(_ config: LaminaConfig) throws -> Keyboard {
        let keyboard = try Keyboard(layout: config.keyboardLayout, variant: config.keyboardVariant, options: config.keyboardOptions)
        keyboard.repeatDelay = config.repeatDelay
        keyboard.repeatRate = config.repeatRate
        return keyboard
    }

    /// What the configuration says about drawing and power: timing, the repaint window,
    /// blanking, dimming, the backlight and the rotation (the panel's own orientation added).
    static func applyDisplaySettings(_ config: LaminaConfig, to runtime: Runtime, onDummy: Bool, logger: Logger) {
        runtime.timingClock = SystemClock()                    // drawing time is CPU time, even on a virtual clock
        // In real time, frames start as late before the vblank as drawing allows; a virtual
        // clock keeps them at the vblank, so its runs do not depend on the host's speed.
        runtime.repaintWindow = config.repaintWindow ?? runtime.loop.isRealTime
        runtime.usesOverlayPlanes = config.overlayPlanes
        AudioDevice.default = config.audioDevice                // players made from here on
        runtime.blankAfter = config.blankAfter
        runtime.power = config.power
        runtime.backlight = openBacklight(config.backlight, onDummy: onDummy, logger: logger)
        runtime.setBrightness(config.power.brightness)
        runtime.rotation = Runtime.effectiveRotation(configured: config.rotation, panel: runtime.display.connector.panelOrientation)
        if let panel = runtime.display.connector.panelOrientation, panel != .normal {
            logger.info("panel orientation \(panel.rawValue): drawing at \(runtime.rotation)° (configured \(config.rotation)°)")
        }
    }

    /// Runs the daemon until its stop condition. Config and script errors throw before
    /// anything is opened.
    public static func run(_ options: DaemonOptions, catalog: SceneRegistry, logger: Logger) throws -> RunSummary {
        ProcessResources.returnLargeBuffersToTheSystem()
        let config = try loadConfig(options, catalog: catalog)
        if let path = options.configFile {
            logger.info("config \(path)")
        } else {
            logger.warning("no config file found (searched \(options.configSearchPaths.joined(separator: ", "))): running on built-in defaults")
        }
        let script = try config.touchScript.map { path throws(ConfigError) in try loadTouchScript(path: path) }
        let recorder = try options.framesOut.map { dir throws(ConfigError) in try FrameRecorder(directory: dir, writesFrames: options.writesEveryFrame) }

        let backend = try Backends.open(config.backend, config: config,
                                        deviceWait: config.deviceWaitSeconds(environment: ProcessInfo.processInfo.environment),
                                        logger: logger)
        let display: Display
        do {
            // No connector is not fatal: run dark on a virtual output and light up on hotplug.
            display = try Display(device: backend.device, connectorName: config.connector, mode: config.mode,
                                  format: backend.format ?? config.format, virtualMode: config.dummyMode, clock: backend.clock)
        } catch {
            throw BackendError(reason: "cannot bring up the display: \(error)")
        }
        defer { display.close() }
        let console = backend.isDummy ? nil : muteConsole(config.console, logger: logger)
        defer { console?.restore() }
        if !display.isLit {
            logger.warning("no display connected\(config.connector.map { " on \($0)" } ?? ""): running on a virtual \(display.mode.width)x\(display.mode.height) output until one is plugged in")
        }
        logger.info("output \(display.connector.name) \(display.mode.width)x\(display.mode.height) at \(String(cFormat: "%.3f", display.refreshRate)) Hz\(display.isLit ? ", " + backend.device.pageFlipMethod(crtc: display.crtc) : "")")

        let runtime = Runtime(display: display, clock: backend.clock, background: config.background, logger: logger)
        runtime.recorder = recorder
        applyDisplaySettings(config, to: runtime, onDummy: backend.isDummy, logger: logger)
        applyLanguage(config, to: runtime, logger: logger)
        let notifier = SystemdNotifier(environment: ProcessInfo.processInfo.environment)
        runtime.notifier = notifier
        if let session = options.calibration {
            _ = try runtime.install(CalibrationScene.self, settings: CalibrationScene.Settings(session: session))
        } else {
            try installScene(config, catalog: catalog, in: runtime)
            watchSceneFile(config, runtime: runtime, logger: logger)
        }
        if config.inputSource == "libinput" || (config.inputSource == "auto" && !backend.isDummy) {
            openInput(config, runtime: runtime, logger: logger)
        }
        do {
            runtime.keyboard = try makeKeyboard(config)
        } catch {
            logger.warning("no text entry from keys: \(error)")
        }
        runtime.showsOnScreenKeyboard = config.onScreenKeyboard
        if options.calibration == nil { runtime.setCursorMode(config.cursor, hideAfter: config.cursorHideAfter) }
        // The config's script drives the dummy display; one named on the command line is
        // replayed on any backend (a scripted check of a real panel without a finger).
        if let script, backend.isDummy || options.touchScript != nil {
            runtime.addTouchSource(ScriptedTouchSource(script: script, start: backend.clock.now))
            logger.info("replaying \(script.steps.count) scripted touch actions from \(config.touchScript ?? "")")
        }
        // VT_PROCESS after SIGUSR2 is blocked for the signal descriptor (its default kills).
        var vtSwitching: VTSwitching?
        defer { vtSwitching?.restore() }
        do {
            try runtime.watchSignals()                         // on a virtual clock too: a stop is a clean stop
        } catch {
            logger.critical("cannot watch signals (\(error)): stopping, as SIGTERM could not stop the display cleanly")
            throw error
        }
        // Reloads, scene switches and the screensaver: the session keeps what they change.
        let session = DaemonSession(runtime: runtime, config: config, keepsScene: options.scene != nil,
                                    catalog: catalog, logger: logger)
        session.attach(calibrating: options.calibration != nil)
        if let socket = config.controlSocketPath(environment: ProcessInfo.processInfo.environment) {
            let group = UnixSocket.groupID(named: config.controlGroup)
            if group == nil { logger.info("control socket: no group '\(config.controlGroup)': only root and this user may connect") }
            do {
                try runtime.openControlSocket(path: socket, group: group)
            } catch {
                logger.warning("no control socket at \(socket): \(error)")
            }
        }
        defer { runtime.closeControlSocket() }
        if runtime.loop.isRealTime {
            vtSwitching = console.flatMap { takeVTSwitching(path: $0.path, logger: logger) }
            runtime.vtSwitch = vtSwitching
            if recorder != nil {
                logger.notice("recording in real time: PNG encoding shares the CPU with rendering and some vblanks may be missed; --clock virtual records every frame")
            }
        }

        // The dummy display ends when its script is done and the scene has settled; a real
        // display runs until stopped (or `exit_after`). A script's `at TIME end` ends the run
        // then, unless `exit_after` says otherwise (a scene that never settles).
        let exitAfter = config.exitAfter ?? script?.endTime
        let reason = runtime.run(exitAfter: exitAfter, untilSettled: backend.isDummy && exitAfter == nil)
        notifier.notify("STOPPING=1")
        return try summarize(reason, runtime: runtime, recorder: recorder, statsJSON: options.statsJSON, logger: logger)
    }

    /// The run's summary, logged; the stats written where `--stats-json` says; the recorder's
    /// contact sheet finished.
    static func summarize(_ reason: Runtime.StopReason, runtime: Runtime, recorder: FrameRecorder?, statsJSON: String?,
                          logger: Logger) throws -> RunSummary {
        let sheet = try recorder?.finish()
        let stats = runtime.stats
        let summary = RunSummary(stopReason: reason, frames: runtime.renderedFrames, missedVBlanks: runtime.display.missedVBlanks,
                                 failedFlips: runtime.failedFlips, contactSheet: sheet, stats: stats)
        logger.info("stopped (\(reason.rawValue)): \(stats.summary)")
        if let path = statsJSON {
            do {
                try stats.json().write(to: URL(fileURLWithPath: path))
            } catch {
                logger.error("cannot write the stats to \(path): \(error)")
            }
        }
        if let recorder, let sheet { logger.info("wrote \(recorder.frameCount) frames and \(sheet)") }
        return summary
    }
}
