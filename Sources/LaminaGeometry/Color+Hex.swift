/// Why a hex colour string was refused.
public enum ColorParseError: Error, Equatable, CustomStringConvertible {
    /// The string does not start with `#`.
    case missingHash
    /// The number of hex digits is not 3, 6 or 8.
    case badLength(digits: Int)
    /// A character that is not a hex digit, at this offset in the string.
    case badDigit(character: Character, offset: Int)

    public var description: String {
        switch self {
        case .missingHash:
            return "a colour is written #RGB, #RRGGBB or #RRGGBBAA and must start with '#'"
        case .badLength(let n):
            return "a colour needs 3, 6 or 8 hex digits after '#', found \(n)"
        case .badDigit(let c, let offset):
            return "'\(c)' at offset \(offset) is not a hex digit"
        }
    }
}

extension Color {
    /// Parses `#RGB`, `#RRGGBB` or `#RRGGBBAA` (ASCII hex digits, case-insensitive, straight alpha).
    /// `#RGB` repeats each digit (`#f80` = `#ff8800`).
    public init(hex string: String) throws(ColorParseError) {
        let chars = Array(string)
        guard chars.first == "#" else { throw .missingHash }
        var digits: [UInt8] = []
        for (i, c) in chars.enumerated().dropFirst() {
            guard c.isASCII, let v = c.hexDigitValue else { throw .badDigit(character: c, offset: i) }   // ASCII only: not "#ＦＦＦ"
            digits.append(UInt8(v))
        }
        func byte(_ hi: UInt8, _ lo: UInt8) -> UInt8 { hi << 4 | lo }
        switch digits.count {
        case 3:
            self.init(red8: byte(digits[0], digits[0]), green8: byte(digits[1], digits[1]),
                      blue8: byte(digits[2], digits[2]))
        case 6:
            self.init(red8: byte(digits[0], digits[1]), green8: byte(digits[2], digits[3]),
                      blue8: byte(digits[4], digits[5]))
        case 8:
            self.init(red8: byte(digits[0], digits[1]), green8: byte(digits[2], digits[3]),
                      blue8: byte(digits[4], digits[5]), alpha8: byte(digits[6], digits[7]))
        default:
            throw .badLength(digits: digits.count)
        }
    }

    /// `#RRGGBB`, or `#RRGGBBAA` when not opaque, from components rounded to 8 bits.
    public var hexString: String {
        func h(_ v: Double) -> String {
            let b = Int((Color.clamp01(v) * 255).rounded())
            let s = String(b, radix: 16, uppercase: true)
            return s.count == 1 ? "0" + s : s
        }
        let rgb = "#" + h(red) + h(green) + h(blue)
        return alpha >= 1 ? rgb : rgb + h(alpha)
    }
}
