import FoundationEssentials
import LaminaGeometry

/// The subset of TOML Lamina's configuration uses: `[table]` headers (names of letters,
/// digits, `_` and `-`), `key = value` lines with basic strings ("…" with \" \\ \n \t
/// escapes), integers, floats and booleans, and `#` comments. Anything else is an error
/// with its line number, never silently skipped.
public struct TOMLDocument: Sendable {
    /// A value of a key.
    public enum Value: Hashable, Sendable {
        /// A basic string.
        case string(String)
        /// An integer.
        case integer(Int)
        /// A floating-point number.
        case float(Double)
        /// `true` or `false`.
        case boolean(Bool)

        /// The kind of value, for error messages ("a string", "a number", …).
        public var typeName: String {
            switch self {
            case .string: return "a string"
            case .integer: return "an integer"
            case .float: return "a number"
            case .boolean: return "a boolean"
            }
        }
    }

    /// A key's value and the line it is on.
    public struct Entry: Sendable {
        /// The value.
        public var value: Value
        /// Its line, from 1.
        public var line: Int
    }

    /// A line the reader could not understand.
    public struct SyntaxError: Error, Sendable {
        /// The line at fault, from 1.
        public var line: Int
        /// What is wrong.
        public var reason: String
    }

    /// Tables by name ("" holds keys before any header), then keys.
    public private(set) var tables: [String: [String: Entry]] = [:]
    /// Header line of each table.
    public private(set) var tableLines: [String: Int] = [:]

    /// Parses `text`; the first malformed line is an error.
    public init(parsing text: String) throws(SyntaxError) {
        var table = ""
        tables[""] = [:]
        for (index, raw) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let lineNumber = index + 1
            let line = Self.stripComment(String(raw)).trimmed(newlines: true)
            if line.isEmpty { continue }
            if line.hasPrefix("[") {
                guard line.hasSuffix("]"), !line.hasPrefix("[[") else {
                    throw SyntaxError(line: lineNumber, reason: "a table header is written [name]")
                }
                let name = String(line.dropFirst().dropLast()).trimmed()
                guard Self.isBareKey(name) else {
                    throw SyntaxError(line: lineNumber, reason: "'\(Escaped(name))' is not a valid table name")
                }
                guard tables[name] == nil || name.isEmpty else {
                    throw SyntaxError(line: lineNumber, reason: "table [\(name)] is defined twice")
                }
                table = name
                tables[name] = [:]
                tableLines[name] = lineNumber
                continue
            }
            guard let equals = line.firstIndex(of: "=") else {
                throw SyntaxError(line: lineNumber, reason: "expected 'key = value'")
            }
            let key = String(line[..<equals]).trimmed()
            let valueText = String(line[line.index(after: equals)...]).trimmed()
            guard Self.isBareKey(key) else {
                throw SyntaxError(line: lineNumber, reason: "'\(Escaped(key))' is not a valid key")
            }
            guard tables[table]?[key] == nil else {
                throw SyntaxError(line: lineNumber, reason: "key '\(Escaped(key))' is set twice")
            }
            let value = try Self.parseValue(valueText, line: lineNumber)
            tables[table]?[key] = Entry(value: value, line: lineNumber)
        }
    }

    private static func isBareKey(_ s: String) -> Bool {
        !s.isEmpty && s.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-") }
    }

    /// Drops a `#` comment that is not inside a string.
    private static func stripComment(_ line: String) -> String {
        var inString = false, escaped = false
        for (i, c) in line.enumerated() {
            if inString {
                if escaped { escaped = false } else if c == "\\" { escaped = true } else if c == "\"" { inString = false }
            } else if c == "\"" {
                inString = true
            } else if c == "#" {
                return String(line.prefix(i))
            }
        }
        return line
    }

    private static func parseValue(_ text: String, line: Int) throws(SyntaxError) -> Value {
        if text.hasPrefix("\"") {
            var result = ""
            var escaped = false
            var closed = false
            for (i, c) in text.dropFirst().enumerated() {
                if closed {
                    throw SyntaxError(line: line, reason: "unexpected text after the closing quote")
                }
                if escaped {
                    switch c {
                    case "\"": result.append("\"")
                    case "\\": result.append("\\")
                    case "n": result.append("\n")
                    case "t": result.append("\t")
                    default: throw SyntaxError(line: line, reason: "unknown escape '\\\(c)' at column \(i + 2)")
                    }
                    escaped = false
                } else if c == "\\" {
                    escaped = true
                } else if c == "\"" {
                    closed = true
                } else {
                    result.append(c)
                }
            }
            guard closed else { throw SyntaxError(line: line, reason: "the string is not closed") }
            return .string(result)
        }
        if text == "true" { return .boolean(true) }
        if text == "false" { return .boolean(false) }
        let digits = text.filter { $0 != "_" }
        if let i = Int(digits) { return .integer(i) }
        if let d = Double(digits), d.isFinite, digits.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }) {
            return .float(d)
        }
        throw SyntaxError(line: line, reason: "'\(Escaped(text))' is not a value (strings are quoted: \"…\")")
    }
}
