import FoundationEssentials
import LaminaSceneSyntax
import LaminaSystem

/// Loading scene files: the YAML is read by the `lamina-scene` helper process (Yams links
/// full Foundation, which the daemon does not; decision 107), its tree is compiled here.
public enum SceneFiles {
    /// The scene name a configuration gives a scene file (`[run] scene` when it names a file):
    /// the daemon sets it without naming the scene type.
    public static var sceneName: String { FileScene.name }

    /// The helper's name; it is looked for in `LAMINA_SCENE_HELPER`, then next to the running
    /// program (where `scripts/install-service` and `swift build` put it), then in
    /// `../libexec/lamina` beside the program's folder (where the Debian package puts it:
    /// `/usr/bin/lamina` runs `/usr/libexec/lamina/lamina-scene`).
    public static let helperName = "lamina-scene"
    /// The helper gets this long to read a file before it is killed.
    static let helperTimeout = 10.0
    /// Compiling a file's tree may take this long (seconds) before it is refused.
    public static let compileTimeLimit = 5.0

    /// True when a `--scene` or `[run] scene` value names a file rather than a built-in scene.
    public static func isFile(_ scene: String) -> Bool {
        scene.hasSuffix(".yaml") || scene.hasSuffix(".yml") || scene.contains("/")
    }

    /// The helper program's path, or nil when it is not installed.
    public static var helperPath: String? {
        if let path = ProcessInfo.processInfo.environment["LAMINA_SCENE_HELPER"], !path.isEmpty { return path }
        guard let folder = HelperProcess.executableFolder else { return nil }
        return helperCandidates(programFolder: folder).first(where: Paths.isExecutable)
    }

    /// Where the helper may be installed for a program in `programFolder`, in the order they
    /// are tried: beside it, then the package's `libexec` folder.
    public static func helperCandidates(programFolder: String) -> [String] {
        [Paths.joined(programFolder, helperName),
         Paths.joined(Paths.directory(of: programFolder), "libexec/lamina/\(helperName)")]
    }

    /// Reads and compiles `path`, then sets the bindings `overrides` names (the config's
    /// `[bindings]`). Every problem is a `ConfigError` with `file:line:column`.
    public static func load(path: String, overrides: SettingsTable? = nil) throws(ConfigError) -> SceneDocument {
        var document = try SceneFileCompiler.compile(try readTree(path: path), file: path)
        if let overrides { try document.setBindings(from: overrides) }
        return document
    }

    /// Compiles a tree read from `file` — what `load` does once the helper has read it (tests
    /// and the fuzzer hand it trees of their own).
    public static func compile(_ root: SceneNode, file: String, timeLimit: Double = compileTimeLimit) throws(ConfigError) -> SceneDocument {
        try SceneFileCompiler.compile(root, file: file, timeLimit: timeLimit)
    }

    /// The file's tree, through the helper.
    public static func readTree(path: String) throws(ConfigError) -> SceneNode {
        let size: Int?
        do {
            size = try Paths.regularFileSize(path)
        } catch {
            throw ConfigError(file: path, reason: "cannot be read: \(error)")
        }
        guard let size else { throw ConfigError(file: path, reason: "is not a regular file") }
        guard size <= SceneFileLimits.maximumFileBytes else {
            throw ConfigError(file: path, reason: "is \(size) bytes; a scene file may have \(SceneFileLimits.maximumFileBytes)")
        }
        guard let helper = helperPath else {
            throw ConfigError(file: path, reason: "cannot be read: the scene file reader \(helperName) is not installed next to this program (or named by LAMINA_SCENE_HELPER)")
        }
        let outcome: HelperProcess.Outcome
        do {
            outcome = try HelperProcess.run(helper, [path], outputLimit: 64 << 20, timeout: helperTimeout)
        } catch {
            throw ConfigError(file: path, reason: "cannot start the scene file reader \(helper): \(error)")
        }
        guard !outcome.exceededLimits else {
            throw ConfigError(file: path, reason: "the scene file reader ran past its limits (\(Int(helperTimeout)) s, 64 MiB of output)")
        }
        let result: SceneReadResult
        do {
            result = try JSONDecoder().decode(SceneReadResult.self, from: Data(outcome.output))
        } catch {
            let said = String(decoding: outcome.errorOutput, as: UTF8.self).split(separator: "\n").last.map(String.init) ?? ""
            throw ConfigError(file: path, reason: "the scene file reader failed (status \(outcome.status))\(said.isEmpty ? "" : ": \(said)")")
        }
        if let error = result.error {
            guard let at = error.position else { throw ConfigError(file: path, reason: error.reason) }
            throw ConfigError(file: path, field: nil, line: at.line, column: at.column, reason: error.reason)
        }
        guard let node = result.node else { throw ConfigError(file: path, reason: "the scene file reader returned nothing") }
        return node
    }
}

extension SceneDocument {
    /// Sets bindings from a config table (`[bindings]`): each key a binding the file
    /// declares, its value of the binding's kind (a colour written "#RRGGBB").
    public mutating func setBindings(from table: SettingsTable) throws(ConfigError) {
        for (i, binding) in bindings.enumerated() where table.contains(binding.name) {
            switch binding.value {
            case .number(let v):
                bindings[i].value = .number(try table.number(binding.name, default: v, in: -1e7...1e7))
            case .string(let s):
                bindings[i].value = .string(try table.string(binding.name, default: s))
            case .color(let c):
                bindings[i].value = .color(try table.color(binding.name, default: c))
            case .list:
                throw ConfigError(file: table.file, field: "bindings.\(binding.name)",
                                  reason: "a list binding is given its items in the scene file or over the control socket (set-binding)")
            }
        }
        for key in table.keys where !bindings.contains(where: { $0.name == key }) {
            throw ConfigError(file: table.file, field: "bindings.\(key)",
                              reason: "\(file) declares no binding of that name (declared: \(bindings.map(\.name).joined(separator: ", ")))")
        }
        let values = Dictionary(bindings.map { ($0.name, $0.value) }, uniquingKeysWith: { a, _ in a })
        do {
            try checkTextBudget({ values[$0] }, field: "bindings")
        } catch {
            throw ConfigError(file: table.file, field: "bindings", reason: error.reason)
        }
    }
}
