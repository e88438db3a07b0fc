import LaminaGeometry
/// A configuration (or script) that cannot be used: which file, which field, and why.
/// The daemon prints it and exits with status 78 (`EX_CONFIG`), changing nothing.
public struct ConfigError: Error, CustomStringConvertible {
    /// The file at fault (or the option, for the command line).
    public var file: String
    /// The dotted field, such as `display.backend`; nil when the whole file is at fault.
    public var field: String?
    /// The line in `file`, when known.
    public var line: Int?
    /// The column on `line`, from 1, where the file format gives one (scene files).
    public var column: Int?
    /// What is wrong, in a few words.
    public var reason: String

    /// `EX_CONFIG` from sysexits.h.
    public static let exitStatus: Int32 = 78

    /// An error naming the file, and where known the field and line, with the reason.
    public init(file: String, field: String? = nil, line: Int? = nil, reason: String) {
        self.file = file
        self.field = field
        self.line = line
        self.reason = reason
    }

    /// An error at `line` and `column` of `file` (`file:line:column: field: reason`).
    public init(file: String, field: String?, line: Int, column: Int, reason: String) {
        self.init(file: file, field: field, line: line, reason: reason)
        self.column = column
    }

    /// One line, whatever the file name or reason holds (control characters escaped, each
    /// part cut to a readable length).
    public var description: String {
        var location = "\(Escaped(file, limit: 300))"
        if let line { location += ":\(line)" }
        if line != nil, let column { location += ":\(column)" }
        if let field { return "\(location): \(Escaped(field)): \(Escaped(reason, limit: 600))" }
        return "\(location): \(Escaped(reason, limit: 600))"
    }
}
