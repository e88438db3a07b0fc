import LaminaRaster
import LaminaSystem

/// A binding's value: a number, a string or a colour. Its kind is fixed by the file; a value
/// of another kind is refused.
public enum BindingValue: Hashable, Sendable, CustomStringConvertible {
    /// A number.
    case number(Double)
    /// Text.
    case string(String)
    /// A colour.
    case color(Color)

    /// "number", "string" or "colour", for messages.
    public var kindName: String {
        switch self {
        case .number: return "number"
        case .string: return "string"
        case .color: return "colour"
        }
    }

    /// The value as text, as `{name}` shows it (numbers with up to 6 significant digits).
    public var description: String {
        switch self {
        case .number(let v): return String(cFormat: "%.6g", v)
        case .string(let s): return s
        case .color(let c): return c.hexString
        }
    }

    /// True when `other` is of the same kind.
    public func hasSameKind(as other: BindingValue) -> Bool { kindName == other.kindName }
}
