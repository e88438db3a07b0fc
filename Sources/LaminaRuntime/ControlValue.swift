import FoundationEssentials

/// A JSON value as the control protocol carries it (`docs/control.md`): requests are decoded
/// into these and checked field by field, so an unknown field is an error, not ignored.
public indirect enum ControlValue: Codable, Equatable, Sendable, CustomStringConvertible {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number.
    case number(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([ControlValue])
    /// An object.
    case object([String: ControlValue])

    /// Reads any JSON value.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let b = try? container.decode(Bool.self) {
            self = .bool(b)
        } else if let n = try? container.decode(Double.self) {
            self = .number(n)
        } else if let s = try? container.decode(String.self) {
            self = .string(s)
        } else if let a = try? container.decode([ControlValue].self) {
            self = .array(a)
        } else {
            self = .object(try container.decode([String: ControlValue].self))
        }
    }

    /// Writes the value as JSON.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let b): try container.encode(b)
        case .number(let n): try container.encode(n)
        case .string(let s): try container.encode(s)
        case .array(let a): try container.encode(a)
        case .object(let o): try container.encode(o)
        }
    }

    /// The value as one line of JSON, keys sorted.
    public var jsonLine: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(self) else { return "null" }
        return String(decoding: data, as: UTF8.self)
    }

    /// Arrays and objects inside one another that a line may hold. The protocol needs two;
    /// a deeper line is refused as it is read.
    public static let maximumDepth = 16

    /// The JSON text.
    public var description: String { jsonLine }

    /// The string, or nil.
    public var string: String? { if case .string(let s) = self { return s } else { return nil } }
    /// The number, or nil.
    public var number: Double? { if case .number(let n) = self { return n } else { return nil } }
    /// The object's fields, or nil.
    public var object: [String: ControlValue]? { if case .object(let o) = self { return o } else { return nil } }
}
