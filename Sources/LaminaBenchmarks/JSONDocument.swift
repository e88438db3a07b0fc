import FoundationEssentials

/// A JSON document as Swift's own values, for the workload files' free-form fields and the
/// commands' `--json` reports: objects are `[String: Any]`, arrays `[Any]`, strings `String`,
/// booleans `Bool`, integral numbers `Int` and other numbers `Double`, null
/// `JSONDocument.null`. Read and written by FoundationEssentials' `JSONDecoder` and
/// `JSONEncoder` (the daemon links no full Foundation for `JSONSerialization`).
public enum JSONDocument {
    /// JSON's null.
    public struct Null: Equatable, Sendable {}
    public static let null = Null()

    /// `value` as pretty-printed JSON with sorted keys; a value of another type is an error.
    public static func encode(_ value: Any) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return Array(try encoder.encode(Written(value: value)))
    }

    private struct Written: Encodable {
        let value: Any

        func encode(to encoder: any Encoder) throws {
            switch value {
            case let object as [String: Any]:
                try object.mapValues(Written.init).encode(to: encoder)
            case let list as [Any]:
                try list.map(Written.init).encode(to: encoder)
            default:
                var single = encoder.singleValueContainer()
                switch value {
                case let b as Bool: try single.encode(b)
                case let i as Int: try single.encode(i)
                case let d as Double: try single.encode(d)
                case let s as String: try single.encode(s)
                case is Null: try single.encodeNil()
                default:
                    throw EncodingError.invalidValue(value, .init(codingPath: encoder.codingPath,
                                                                  debugDescription: "not a JSON value: \(type(of: value))"))
                }
            }
        }
    }

    /// The document's top-level value.
    static func parse(_ bytes: [UInt8]) throws -> Any {
        try JSONDecoder().decode(Element.self, from: Data(bytes)).value
    }

    /// A number as a Double, whether it was written integral or not.
    public static func number(_ value: Any?) -> Double? {
        if let d = value as? Double { return d }
        if let i = value as? Int { return Double(i) }
        return nil
    }

    private struct Element: Decodable {
        let value: Any

        init(from decoder: any Decoder) throws {
            let single = try decoder.singleValueContainer()
            if single.decodeNil() {
                value = JSONDocument.null
            } else if let b = try? single.decode(Bool.self) {
                value = b
            } else if let i = try? single.decode(Int.self) {
                value = i
            } else if let d = try? single.decode(Double.self) {
                value = d
            } else if let s = try? single.decode(String.self) {
                value = s
            } else if let list = try? single.decode([Element].self) {
                value = list.map(\.value)
            } else {
                value = try single.decode([String: Element].self).mapValues(\.value)
            }
        }
    }
}
