import Logging
import LaminaSystem
import SystemPackage

extension Daemon {
    /// Installs the scene `config` names: a scene file (read and compiled now) or a built-in
    /// scene of `catalog`. A file scene keeps the binding values in `kept` (the running file
    /// scene's, so a reload does not reset them).
    public static func installScene(_ config: LaminaConfig, catalog: SceneRegistry, keeping kept: [String: BindingValue] = [:],
                             in runtime: Runtime) throws {
        try installLoaded(loadSceneFile(config), config: config, catalog: catalog, keeping: kept, in: runtime)
    }

    /// The scene file `config` names, read and compiled (nil for a built-in scene): the half
    /// of `installScene` that may take long, run off the loop by the scene loader.
    static func loadSceneFile(_ config: LaminaConfig) throws(ConfigError) -> SceneDocument? {
        guard let file = config.sceneFile else { return nil }
        return try SceneFiles.load(path: file, overrides: config.bindings)
    }

    /// What the scene loader runs to show `config`'s scene: the file read and compiled off the
    /// loop, then installed on it keeping `kept` binding values; `installed` runs after a
    /// successful install. The result is why it was not shown (nil: it is).
    static func sceneLoad(_ config: LaminaConfig, catalog: SceneRegistry, keeping kept: [String: BindingValue] = [:],
                          in runtime: Runtime, installed: @escaping () -> Void = {}) -> SceneLoader.Load {
        {
            let loaded = Result { () throws(ConfigError) in try loadSceneFile(config) }
            return {
                do {
                    try installLoaded(loaded.get(), config: config, catalog: catalog, keeping: kept, in: runtime)
                } catch {
                    return "\(error)"
                }
                installed()
                return nil
            }
        }
    }

    /// The loop's half of `installScene`: `document` (the file `config` names, compiled) or
    /// `config`'s built-in scene.
    static func installLoaded(_ document: SceneDocument?, config: LaminaConfig, catalog: SceneRegistry,
                              keeping kept: [String: BindingValue] = [:], in runtime: Runtime) throws {
        if let document {
            try installFileScene(document, keeping: kept, in: runtime)
        } else {
            try catalog.install(scene: config.scene, settings: config.settings(forScene: config.scene), in: runtime)
        }
    }

    /// Installs the scene `document` describes, with `kept` binding values where it still
    /// declares them; its background, when it sets one, replaces the configured one.
    public static func installFileScene(_ document: SceneDocument, keeping kept: [String: BindingValue] = [:],
                                 in runtime: Runtime) throws {
        try runtime.install(FileScene.self, settings: FileScene.Settings(document: document, bindingValues: kept))
        if let background = document.background { runtime.background = background }
    }

    /// Live reload: watches the scene file's folder; a write to the file (or a rename over
    /// it) reads it again and shows the new scene at the next frame with the bindings'
    /// values kept. A file that does not check out is logged with its `file:line:column` and
    /// the running scene stays. Without inotify the log says so and SIGHUP still reloads.
    public static func watchSceneFile(_ config: LaminaConfig, runtime: Runtime, logger: Logger) {
        guard let file = config.sceneFile else {
            runtime.setLoopSource(nil, forKey: SceneFileWatch.key)
            return
        }
        let folder = Paths.directory(of: file).isEmpty ? "." : Paths.directory(of: file)
        let name = file.split(separator: "/").last.map(String.init) ?? file
        let watcher: FolderWatcher
        do {
            watcher = try FolderWatcher(folder: folder)
        } catch {
            logger.warning("cannot watch \(folder) for edits (\(error)): live reload is off (SIGHUP reloads)")
            runtime.setLoopSource(nil, forKey: SceneFileWatch.key)
            return
        }
        runtime.setLoopSource(SceneFileWatch(watcher: watcher) { [unowned runtime] names in
            guard names.contains(name) else { return }
            reloadSceneFile(config, runtime: runtime, logger: logger)
        }, forKey: SceneFileWatch.key)
        logger.info("watching \(file) for edits")
    }

    /// Reads the running scene file again (off the loop, through the scene loader) and swaps
    /// the scene, keeping binding values; `done` gets why the edit was rejected (nil: shown).
    public static func reloadSceneFile(_ config: LaminaConfig, runtime: Runtime, logger: Logger,
                                       done: @escaping (String?) -> Void = { _ in }) {
        guard let file = config.sceneFile else { return done(nil) }
        runtime.sceneLoader.request("scene-file \(file)", prepare: {
            {
                let loaded = Result { () throws(ConfigError) in try SceneFiles.load(path: file, overrides: config.bindings) }
                return { [unowned runtime] in
                    let document: SceneDocument
                    switch loaded {
                    case .success(let d): document = d
                    case .failure(let error):
                        logger.error("scene file edit rejected, keeping the running scene: \(error)")
                        runtime.notifier?.notify("STATUS=scene file edit rejected: \(error)")
                        return "\(error)"
                    }
                    let kept = (runtime.scene as? FileScene)?.bindingValues ?? [:]
                    do {
                        try installFileScene(document, keeping: kept, in: runtime)
                    } catch {
                        logger.error("the edited scene could not be built: \(error)")
                        return "\(error)"
                    }
                    logger.notice("scene file reloaded: \(file) (\(document.layerCount) layers)")
                    runtime.notifier?.notify("STATUS=scene file reloaded: \(file)")
                    return nil
                }
            }
        }, done: done)
    }
}

/// The running scene file's folder on the loop: the names of files written or renamed in
/// are read right after the wait and handed to `changed` (live reload).
final class SceneFileWatch: LoopSource {
    /// The key it is registered under (one scene file is watched at a time).
    static let key = "scene-file-watch"
    private let watcher: FolderWatcher
    private let changed: (Set<String>) -> Void

    init(watcher: FolderWatcher, changed: @escaping (Set<String>) -> Void) {
        self.watcher = watcher
        self.changed = changed
    }

    let phase = LoopPhase.woken
    var wakeDescriptors: [FileDescriptor] { [watcher.descriptor] }
    func nextDeadline(now: Double) -> Double? { nil }

    func service(now: Double) -> Bool {
        let names = watcher.drain()
        if !names.isEmpty { changed(names) }
        return false
    }
}
