import Logging

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
            try SceneFiles.install(document, keeping: kept, in: runtime)
        } else {
            try catalog.install(scene: config.scene, settings: config.settings(forScene: config.scene), in: runtime)
        }
    }

    /// Live reload: watches the scene file's folder; a write to the file (or a rename over
    /// it) reads it again and shows the new scene at the next frame with the bindings'
    /// values kept. A file that does not check out is logged with its `file:line:column` and
    /// the running scene stays. Without inotify the log says so and SIGHUP still reloads.
    public static func watchSceneFile(_ config: LaminaConfig, runtime: Runtime, logger: Logger) {
        SceneFiles.watch(path: config.sceneFile, on: runtime, logger: logger) { [unowned runtime] in
            reloadSceneFile(config, runtime: runtime, logger: logger)
        }
    }

    /// Reads the running scene file again (off the loop, through the scene loader) and swaps
    /// the scene, keeping binding values; `done` gets why the edit was rejected (nil: shown).
    public static func reloadSceneFile(_ config: LaminaConfig, runtime: Runtime, logger: Logger,
                                       done: @escaping (String?) -> Void = { _ in }) {
        guard let file = config.sceneFile else { return done(nil) }
        SceneFiles.reload(path: file, overrides: config.bindings, on: runtime, logger: logger, done: done)
    }
}
