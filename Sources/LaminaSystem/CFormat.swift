#if canImport(Glibc)
import Glibc
#endif

extension String {
    /// `printf`-style formatting of numbers (`%.3f`, `%5d`, `%+.1f`, `%g`, `%05d`) through the
    /// C library's `vsnprintf`, for modules that do without Foundation's `String(format:)`.
    /// The arguments are numbers: C's varargs carry no Swift strings (pad text with
    /// ``padded(to:)`` and join it around the result).
    public init(cFormat format: String, _ arguments: CVarArg...) {
        self = Self.formatted(format, arguments)
    }

    private static func formatted(_ format: String, _ arguments: [CVarArg]) -> String {
        var capacity = 128
        while true {
            var buffer = [CChar](repeating: 0, count: capacity)
            let length = withVaList(arguments) { Int(vsnprintf(&buffer, capacity, format, $0)) }
            guard length >= capacity else {
                return String(decoding: buffer.prefix(Swift.max(length, 0)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
            }
            capacity = length + 1
        }
    }

    /// The text padded with spaces to `width` characters, on the right (left-aligned) or, with
    /// `alignRight`, on the left; longer text is left as it is (`%-18s` / `%18s`).
    public func padded(to width: Int, alignRight: Bool = false) -> String {
        let pad = String(repeating: " ", count: max(width - count, 0))
        return alignRight ? pad + self : self + pad
    }
}
