import LaminaRaster
import LaminaSystem

/// A binding's value: a number, a string, a colour, or a list of items (each a record of
/// named numbers, strings and colours: a list layer's rows). Its kind is fixed by the file; a
/// value of another kind is refused.
public enum BindingValue: Hashable, Sendable, CustomStringConvertible {
    /// A number.
    case number(Double)
    /// Text.
    case string(String)
    /// A colour.
    case color(Color)
    /// Items, each a record of fields (numbers, strings, colours; never lists): the rows a
    /// list layer shows.
    case list([[String: BindingValue]])

    /// "number", "string" or "colour", for messages.
    public var kindName: String {
        switch self {
        case .number: return "number"
        case .string: return "string"
        case .color: return "colour"
        case .list: return "list"
        }
    }

    /// The value as text, as `{name}` shows it (numbers with up to 6 significant digits; a
    /// list, its number of items).
    public var description: String {
        switch self {
        case .number(let v): return String(cFormat: "%.6g", v)
        case .string(let s): return s
        case .color(let c): return c.hexString
        case .list(let items): return "\(items.count)"
        }
    }

    /// What a list binding may hold, checked where a list enters (the file, the control
    /// socket): items, fields of one item, bytes of one text field.
    public enum ListLimits {
        /// Items in one list.
        public static let items = 10_000
        /// Fields of one item.
        public static let fields = 32
        /// Bytes of one text field.
        public static let textBytes = 256
    }

    /// True when `other` is of the same kind.
    public func hasSameKind(as other: BindingValue) -> Bool { kindName == other.kindName }
}
