/// Where something is written in a scene file: 1-based line and column (columns count
/// Unicode scalars, as libyaml does).
public struct SourcePosition: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The line, from 1.
    public var line: Int
    /// The column, from 1.
    public var column: Int

    /// A position at `line`, `column`.
    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    /// `line:column`.
    public var description: String { "\(line):\(column)" }
}

/// One node of a scene file as the parser read it — a scalar, a sequence or a mapping — with
/// the position it was written at, so every later error can name `file:line:column`.
///
/// This is the whole contract between the YAML reader (a helper process, decision 107) and
/// the daemon: the reader turns YAML into nodes, the daemon gives nodes their meaning.
public struct SceneNode: Hashable, Sendable {
    /// A mapping's entry: its key (a scalar) and its value.
    public struct Entry: Hashable, Sendable {
        /// The key, a scalar node carrying its own position.
        public var key: SceneNode
        /// The value.
        public var value: SceneNode

        /// An entry `key: value`.
        public init(key: SceneNode, value: SceneNode) {
            self.key = key
            self.value = value
        }
    }

    /// What the node holds.
    public indirect enum Value: Hashable, Sendable {
        /// Text as written (a number, a word, a quoted string); empty for YAML's null.
        case scalar(String)
        /// Items in order.
        case sequence([SceneNode])
        /// Entries in the order written (keys are unique: the reader rejects repeats).
        case mapping([Entry])
    }

    /// The node's content.
    public var value: Value
    /// Where the node starts.
    public var position: SourcePosition
    /// True for YAML's null (`~`, `null`, nothing written): an empty scalar that means
    /// "nothing here", unlike `""`, which is a value (empty text).
    public var isNull: Bool
    /// True for a null written as nothing with a `#` comment right after it on its line
    /// (`fillColor: #22D3EE`): most likely a value YAML read as a comment, which an error
    /// about the missing value should say.
    public var commentFollows = false

    /// A node holding `value`, written at `position`.
    public init(_ value: Value, at position: SourcePosition) {
        self.value = value
        self.position = position
        isNull = false
    }

    /// YAML's null, written at `position`: an empty scalar marked `isNull`.
    public static func null(at position: SourcePosition) -> SceneNode {
        var node = SceneNode(.scalar(""), at: position)
        node.isNull = true
        return node
    }

    /// The scalar's text, or nil for a sequence or mapping.
    public var scalar: String? {
        if case .scalar(let text) = value { return text }
        return nil
    }

    /// The sequence's items, or nil.
    public var items: [SceneNode]? {
        if case .sequence(let items) = value { return items }
        return nil
    }

    /// The mapping's entries, or nil.
    public var entries: [Entry]? {
        if case .mapping(let entries) = value { return entries }
        return nil
    }

    /// The value under the scalar key `key`, when this is a mapping that has it.
    public subscript(key: String) -> SceneNode? {
        entries?.first { $0.key.scalar == key }?.value
    }

    /// What kind of node this is, for error messages.
    public var kindName: String {
        switch value {
        case .scalar: return "a scalar"
        case .sequence: return "a list"
        case .mapping: return "a mapping"
        }
    }

    /// Nodes in this tree, this one included (a bound's measure).
    public var nodeCount: Int {
        switch value {
        case .scalar: return 1
        case .sequence(let items): return items.reduce(1) { $0 + $1.nodeCount }
        case .mapping(let entries): return entries.reduce(1) { $0 + $1.key.nodeCount + $1.value.nodeCount }
        }
    }
}

/// Bounds every reader and the daemon hold a scene file to, so a hostile file cannot exhaust
/// memory or the stack.
public enum SceneFileLimits {
    /// The largest file read, in bytes.
    public static let maximumFileBytes = 1 << 20
    /// The most nodes after aliases are expanded.
    public static let maximumNodes = 200_000
    /// The deepest nesting of lists and mappings.
    public static let maximumDepth = 48
    /// The longest scalar, in bytes.
    public static let maximumScalarBytes = 64 * 1024
}

/// A syntax error: where and why the reader stopped.
public struct SceneSyntaxError: Error, Hashable, Sendable, Codable, CustomStringConvertible {
    /// Where the reader stopped, when it knows.
    public var position: SourcePosition?
    /// Why, in one line.
    public var reason: String

    /// An error at `position`.
    public init(at position: SourcePosition?, _ reason: String) {
        self.position = position
        self.reason = reason
    }

    /// `line:column: reason`.
    public var description: String { position.map { "\($0): \(reason)" } ?? reason }
}

/// What the helper process prints: the tree or the error (one JSON object).
public struct SceneReadResult: Sendable, Codable {
    /// The tree read, when the file was well-formed.
    public var node: SceneNode?
    /// Why it was not.
    public var error: SceneSyntaxError?

    /// A result carrying `node` or `error`.
    public init(node: SceneNode? = nil, error: SceneSyntaxError? = nil) {
        self.node = node
        self.error = error
    }
}

// The wire form is compact, since a whole tree passes through a pipe: `{"l":3,"c":5,"s":"text"}`,
// `{"l":..,"c":..,"a":[nodes]}`, `{"l":..,"c":..,"m":[[key, value], ...]}`, and YAML's null
// `{"l":..,"c":..,"n":true}` (with `"h":true` when a `#` comment followed it).
extension SceneNode: Codable {
    private enum CodingKeys: String, CodingKey { case l, c, s, a, m, n, h }

    /// Reads the wire form; anything else is a decoding error.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        position = SourcePosition(line: try container.decode(Int.self, forKey: .l),
                                  column: try container.decode(Int.self, forKey: .c))
        isNull = false
        if try container.decodeIfPresent(Bool.self, forKey: .n) == true {
            value = .scalar("")
            isNull = true
            commentFollows = try container.decodeIfPresent(Bool.self, forKey: .h) == true
        } else if let text = try container.decodeIfPresent(String.self, forKey: .s) {
            value = .scalar(text)
        } else if let items = try container.decodeIfPresent([SceneNode].self, forKey: .a) {
            value = .sequence(items)
        } else {
            let pairs = try container.decode([[SceneNode]].self, forKey: .m)
            value = .mapping(try pairs.map { pair in
                guard pair.count == 2 else {
                    throw DecodingError.dataCorruptedError(forKey: .m, in: container, debugDescription: "an entry is a pair")
                }
                return Entry(key: pair[0], value: pair[1])
            })
        }
    }

    /// Writes the wire form.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(position.line, forKey: .l)
        try container.encode(position.column, forKey: .c)
        switch value {
        case .scalar where isNull:
            try container.encode(true, forKey: .n)
            if commentFollows { try container.encode(true, forKey: .h) }
        case .scalar(let text): try container.encode(text, forKey: .s)
        case .sequence(let items): try container.encode(items, forKey: .a)
        case .mapping(let entries): try container.encode(entries.map { [$0.key, $0.value] }, forKey: .m)
        }
    }
}
