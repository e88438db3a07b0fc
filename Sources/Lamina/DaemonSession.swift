import LaminaSystem
import Logging

/// What one run of the daemon keeps between its requests: the configuration in force, whether
/// the scene was chosen over the file's (on the command line or by `switch-scene`), and the
/// bindings put aside while the screensaver shows. Reloads, scene switches and the
/// screensaver are its methods, run on the loop; the runtime calls them through its hooks.
final class DaemonSession {
    private unowned let runtime: Runtime
    private let catalog: SceneRegistry
    private let logger: Logger
    /// The config file, nil when the daemon runs on built-in defaults.
    private let configPath: String?
    /// The configuration in force (reloads and switches replace it).
    private(set) var running: LaminaConfig
    /// The scene stays whatever the file names (`--scene`, or a `switch-scene`).
    private(set) var keepsScene: Bool
    /// A file scene's bindings while the screensaver replaces it.
    private var savedBindings: [String: BindingValue] = [:]

    init(runtime: Runtime, config: LaminaConfig, keepsScene: Bool, catalog: SceneRegistry, logger: Logger) {
        self.runtime = runtime
        self.catalog = catalog
        self.logger = logger
        configPath = config.path
        running = config
        self.keepsScene = keepsScene
    }

    /// Sets the runtime's hooks to this session's methods: reload (when there is a file to
    /// read again), scene switches and the screensaver. A calibration run gets no reload:
    /// SIGHUP would install the configured scene over the wizard's.
    func attach(calibrating: Bool) {
        if !calibrating, configPath != nil || running.sceneFile != nil {
            runtime.onReload = { [self] done in reload(done: done) }
        }
        runtime.onSwitchScene = { [self] name, done in switchScene(to: name, done: done) }
        runtime.onScreensaver = { [self] show in screensaver(show) }
    }

    /// Reads the config file again off the loop and applies it on the loop (SIGHUP, the
    /// control socket's `reload`); without a config file, the scene file is read again.
    /// `done` gets why it was rejected (nil: applied).
    func reload(done: @escaping (String?) -> Void) {
        guard let path = configPath else {
            return Daemon.reloadSceneFile(running, runtime: runtime, logger: logger, done: done)
        }
        let catalog = catalog
        runtime.sceneLoader.request("reload", prepare: { [self] in
            {
                let result = Result { () throws(ConfigError) in try Daemon.checked(path: path, catalog: catalog) }
                return { [self] in
                    let outcome = Daemon.applyReload(result, path: path, running: running, runtime: runtime, catalog: catalog,
                                                     keepsScene: keepsScene, logger: logger)
                    running = outcome.config
                    return outcome.rejection
                }
            }
        }, done: done)
    }

    /// The control socket's `switch-scene`: a scene's name or a scene file's path (relative
    /// to the config file's folder); like `--scene`, it stays the scene across reloads.
    func switchScene(to name: String, done: @escaping (String?) -> Void) {
        var next = running
        if SceneFiles.isFile(name) {
            let folder = configPath.map(Paths.directory(of:)) ?? ""
            next.sceneFile = name.hasPrefix("/") || folder.isEmpty ? name : Paths.joined(folder, name)
            next.scene = SceneFiles.sceneName
        } else {
            guard catalog.sceneNames.contains(name) else {
                return done("'\(Escaped(name))' is not a scene (known: \(catalog.sceneNames.joined(separator: ", "))); a scene file ends in .yaml")
            }
            next.scene = name
            next.sceneFile = nil
        }
        // A scene file is read and compiled off the loop; the switch happens when it is ready.
        let target = next
        runtime.sceneLoader.request("switch-scene \(target.sceneDescription)", prepare: { [self] in
            Daemon.sceneLoad(target, catalog: catalog, in: runtime) { [self] in
                Daemon.watchSceneFile(target, runtime: runtime, logger: logger)
                running = target
                keepsScene = true
                logger.notice("scene switched to \(target.sceneDescription) over the control socket")
            }
        }, done: done)
    }

    /// The screensaver replaces the scene after idle; a touch brings the scene back, a file
    /// scene's bindings as they were.
    func screensaver(_ show: Bool) {
        guard let saver = running.screensaver else { return }
        var target = running
        if show {
            savedBindings = (runtime.scene as? any ControllableScene)?.bindingValues ?? [:]
            target.sceneFile = SceneFiles.isFile(saver) ? saver : nil
            target.scene = SceneFiles.isFile(saver) ? SceneFiles.sceneName : saver
        }
        let kept = show ? [:] : savedBindings
        let logger = logger
        runtime.sceneLoader.request(show ? "screensaver" : "scene after screensaver", prepare: { [self] in
            Daemon.sceneLoad(target, catalog: catalog, keeping: kept, in: runtime)
        }, done: { error in
            if let error { logger.error("cannot show \(show ? "the screensaver" : "the scene") \(target.sceneDescription): \(error)") }
        })
    }
}
