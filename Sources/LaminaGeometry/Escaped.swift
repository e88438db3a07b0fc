/// A value from a file, a script, a socket or the command line as it appears inside an error
/// message: control characters (newlines, escapes, NUL) written as `\n`, `\u{1B}`…, and
/// anything past `limit` characters cut with "…", so one bad value is one readable line
/// however long or strange it is (decision 86). Lives here, the one module every other
/// depends on.
public struct Escaped: CustomStringConvertible, Sendable {
    /// The most characters of a value a message echoes.
    public static let limit = 80
    public let description: String

    /// `value` with control characters written out, cut at `limit` characters.
    public init(_ value: some StringProtocol, limit: Int = Escaped.limit) {
        var out = ""
        var count = 0
        for scalar in value.unicodeScalars {
            if count == limit {
                out += "…"
                break
            }
            switch scalar {
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar == "\u{2028}" || scalar == "\u{2029}":
                out += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            default: out.unicodeScalars.append(scalar)
            }
            count += 1
        }
        description = out
    }

    /// A number as a message shows it: integers without a fraction, others as Swift prints.
    public static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : "\(value)"
    }
}
