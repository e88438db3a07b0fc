import LaminaSceneSyntax

/// Reads one mapping of a scene file, remembering which keys were taken, so whatever is
/// left is an unknown key — an error naming the key and what is allowed, never silence.
struct SceneFields {
    let node: SceneNode
    /// The element's path in the file (`layers[stack].sublayers[2]`).
    let path: String
    let file: String
    private let entries: [SceneNode.Entry]
    /// Each key's entry, so taking a key costs the same however many the mapping has (the
    /// reader refuses a key written twice, so each is here once).
    private let index: [String: Int]
    private var taken: Set<String> = []

    init(_ node: SceneNode, path: String, file: String) throws(ConfigError) {
        self.node = node
        self.path = path
        self.file = file
        guard let entries = node.entries else {
            throw SceneFields.error(file, node, path, "expected a mapping of keys, found \(node.kindName)")
        }
        self.entries = entries
        var index: [String: Int] = [:]
        index.reserveCapacity(entries.count)
        for (i, entry) in entries.enumerated() {
            guard let key = entry.key.scalar else { continue }
            guard index.updateValue(i, forKey: key) == nil else {
                throw SceneFields.error(file, entry.key, path, "'\(Escaped(key))' is written twice in this mapping")
            }
        }
        self.index = index
    }

    /// The keys written, in order.
    var keys: [String] { entries.compactMap { $0.key.scalar } }

    /// How many keys are written.
    var count: Int { entries.count }

    /// The key's own node (for its position).
    func keyNode(_ key: String) -> SceneNode? { index[key].map { entries[$0].key } }

    /// The value under `key`, without marking it read.
    subscript(key: String) -> SceneNode? { index[key].map { entries[$0].value } }

    /// The value under `key`, marking it read.
    mutating func take(_ key: String) -> SceneNode? {
        guard let i = index[key] else { return nil }
        taken.insert(key)
        return entries[i].value
    }

    /// The path of `key` under this element.
    func path(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    /// Fails on the first key not taken, listing `known`.
    func rejectUnknown(known: [String]) throws(ConfigError) {
        for entry in entries {
            guard let key = entry.key.scalar, !taken.contains(key) else { continue }
            let hint = SceneFields.nearest(key, in: known).map { " (did you mean '\($0)'?)" } ?? ""
            throw SceneFields.error(file, entry.key, path(key),
                                    "unknown key\(hint); allowed here: \(known.joined(separator: ", "))")
        }
    }

    func error(_ at: SceneNode, _ key: String?, _ reason: String) -> ConfigError {
        SceneFields.error(file, at, key.map(path) ?? path, reason)
    }

    static func error(_ file: String, _ at: SceneNode, _ path: String, _ reason: String) -> ConfigError {
        ConfigError(file: file, field: path.isEmpty ? nil : path, line: at.position.line, column: at.position.column,
                    reason: reason)
    }

    /// The known word closest to `word` by edit distance, when it is close (a typo).
    static func nearest(_ word: String, in known: [String]) -> String? {
        Spelling.nearest(word, in: known)
    }
}
