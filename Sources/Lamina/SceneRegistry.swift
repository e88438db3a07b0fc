/// The scenes an app can run, by name: what `--scene` and `[run] scene` choose from, and
/// the scenes whose `[name]` tables a config file may hold.
public struct SceneRegistry {
    /// The scene types, in the order given (the first is the default scene).
    public let scenes: [any Scene.Type]

    /// A registry of `scenes`. Names must be unique, non-empty lowercase letters, digits and
    /// dashes (a programmer error otherwise: it traps at start, before anything is opened).
    public init(_ scenes: [any Scene.Type]) {
        precondition(!scenes.isEmpty, "an app names at least one scene")
        var seen: Set<String> = []
        for scene in scenes {
            precondition(Self.isValidName(scene.name), "scene name '\(scene.name)' must be lowercase letters, digits and dashes")
            precondition(seen.insert(scene.name).inserted, "two scenes are named '\(scene.name)'")
        }
        self.scenes = scenes
    }

    static func isValidName(_ name: String) -> Bool {
        !name.isEmpty && name.count <= 64 && name.unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-"
        }
    }

    /// The scene names, in order.
    public var sceneNames: [String] { scenes.map { $0.name } }

    /// The scene run when neither the config nor the command line names one: the first.
    public var defaultScene: String { scenes[0].name }

    /// The scene type called `name`.
    public func scene(named name: String) -> (any Scene.Type)? {
        scenes.first { $0.name == name }
    }

    /// Reads the scene's settings without building it (`check-config`, reloads).
    public func validate(scene name: String, settings: SettingsTable) throws(ConfigError) {
        guard let type = scene(named: name) else { throw unknown(name, settings) }
        try Self.readSettings(of: type, from: settings)
    }

    /// Builds the scene called `name` into `runtime` with its settings from `settings`; on
    /// failure nothing of it stays installed.
    public func install(scene name: String, settings: SettingsTable, in runtime: Runtime) throws {
        guard let type = scene(named: name) else { throw unknown(name, settings) }
        try Self.install(type, settings: settings, in: runtime)
    }

    private static func readSettings<S: Scene>(of type: S.Type, from table: SettingsTable) throws(ConfigError) {
        _ = try S.Settings(from: table)
    }

    private static func install<S: Scene>(_ type: S.Type, settings table: SettingsTable, in runtime: Runtime) throws {
        let settings = try S.Settings(from: table)
        try runtime.install(type, settings: settings)
    }

    private func unknown(_ name: String, _ settings: SettingsTable) -> ConfigError {
        ConfigError(file: settings.file, field: "run.scene",
                    reason: "unknown scene '\(Escaped(name))' (known: \(sceneNames.joined(separator: ", ")))")
    }
}
