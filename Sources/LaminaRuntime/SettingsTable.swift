import LaminaGeometry

/// One `[table]` of a configuration file with typed, validating accessors. Every problem
/// becomes a `ConfigError` naming the file, the field and the line.
public final class SettingsTable {
    /// The configuration file the table came from (for error messages).
    public let file: String
    /// The table's name, such as `elastic_field`.
    public let name: String
    private let entries: [String: TOMLDocument.Entry]
    private var read: Set<String> = []

    /// The table `name` of `file` with its entries (from `TOMLDocument.tables`).
    public init(file: String, name: String, entries: [String: TOMLDocument.Entry]) {
        self.file = file
        self.name = name
        self.entries = entries
    }

    /// The keys written in the table, sorted.
    public var keys: [String] { entries.keys.sorted() }

    private func field(_ key: String) -> String { name.isEmpty ? key : "\(name).\(key)" }

    private func error(_ key: String, _ reason: String) -> ConfigError {
        ConfigError(file: file, field: field(key), line: entries[key]?.line, reason: reason)
    }

    private func entry(_ key: String) -> TOMLDocument.Value? {
        read.insert(key)
        return entries[key]?.value
    }

    /// A string, or `defaultValue` when absent.
    /// Strings longer than `maxLength` characters (4096 unless a field says less) are
    /// refused.
    public func string(_ key: String, default defaultValue: String, maxLength: Int = 4096) throws(ConfigError) -> String {
        guard let value = entry(key) else { return defaultValue }
        guard case .string(let s) = value else { throw error(key, "expected a string, found \(value.typeName)") }
        guard s.count <= maxLength else { throw error(key, "longer than \(maxLength) characters") }
        return s
    }

    /// One of `allowed` (written as a string).
    public func choice(_ key: String, default defaultValue: String, allowed: [String]) throws(ConfigError) -> String {
        let s = try string(key, default: defaultValue)
        guard allowed.contains(s) else {
            throw error(key, "'\(Escaped(s))' is not one of \(allowed.map { "\"\($0)\"" }.joined(separator: ", "))")
        }
        return s
    }

    /// A number (integer or float) within `range`.
    public func number(_ key: String, default defaultValue: Double, in range: ClosedRange<Double>) throws(ConfigError) -> Double {
        guard let value = entry(key) else { return defaultValue }
        let v: Double
        switch value {
        case .integer(let i): v = Double(i)
        case .float(let d): v = d
        default: throw error(key, "expected a number, found \(value.typeName)")
        }
        guard range.contains(v) else {
            throw error(key, "\(v) is out of range (\(range.lowerBound) to \(range.upperBound))")
        }
        return v
    }

    /// A number within `range`, or nil when absent or written `"auto"` (the value is then
    /// worked out when it is used).
    public func numberOrAuto(_ key: String, in range: ClosedRange<Double>) throws(ConfigError) -> Double? {
        guard let value = entry(key) else { return nil }
        if case .string(let s) = value {
            guard s == "auto" else { throw error(key, "'\(Escaped(s))' is not \"auto\" or a number") }
            return nil
        }
        return try number(key, default: 0, in: range)
    }

    /// A whole number within `range` (a float with a fraction is refused).
    public func integer(_ key: String, default defaultValue: Int, in range: ClosedRange<Int>) throws(ConfigError) -> Int {
        guard let value = entry(key) else { return defaultValue }
        guard case .integer(let i) = value else { throw error(key, "expected an integer, found \(value.typeName)") }
        guard range.contains(i) else {
            throw error(key, "\(i) is out of range (\(range.lowerBound) to \(range.upperBound))")
        }
        return i
    }

    /// `true` or `false`.
    public func bool(_ key: String, default defaultValue: Bool) throws(ConfigError) -> Bool {
        guard let value = entry(key) else { return defaultValue }
        guard case .boolean(let b) = value else { throw error(key, "expected true or false, found \(value.typeName)") }
        return b
    }

    /// Whether the table sets `key` (marks it as read).
    public func contains(_ key: String) -> Bool {
        entry(key) != nil
    }

    /// A colour written `#RGB`, `#RRGGBB` or `#RRGGBBAA`.
    public func color(_ key: String, default defaultValue: Color) throws(ConfigError) -> Color {
        guard let value = entry(key) else { return defaultValue }
        guard case .string(let s) = value else { throw error(key, "expected a colour string such as \"#3B82F6\"") }
        do {
            return try Color(hex: s)
        } catch let e {
            throw error(key, "\"\(s)\": \(e.description)")
        }
    }

    /// Fails on any key no accessor asked for (a typo must not pass silently).
    public func rejectUnknownKeys() throws(ConfigError) {
        if let unknown = entries.keys.sorted().first(where: { !read.contains($0) }) {
            throw error(unknown, "unknown field")
        }
    }
}
