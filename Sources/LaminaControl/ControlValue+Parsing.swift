/// The control protocol's JSON reader: RFC 8259 exactly, and stricter where the protocol says
/// so — a key written twice in one object and a trailing comma are errors (Foundation's
/// decoder keeps one of the two values and accepts the comma, so a request could mean one
/// thing to its writer and another to the daemon; decision 118). Nesting is bounded by
/// `ControlValue.maximumDepth`, numbers must be finite, strings valid UTF-8. One pass, linear
/// in the line.
import LaminaRuntime

extension ControlValue {
    /// Parses one line of JSON strictly (`ControlJSONReader`): at most `maximumDepth` arrays
    /// and objects deep, no key twice in an object, no trailing comma, finite numbers.
    public static func parse(_ bytes: some Collection<UInt8>) throws -> ControlValue {
        var reader = ControlJSONReader(bytes)
        return try reader.read()
    }
}

struct ControlJSONReader {
    /// Why a line is not a JSON value, and where.
    struct Failure: Error, CustomStringConvertible {
        var offset: Int
        var reason: String
        var description: String { "\(reason) at byte \(offset)" }
    }

    private let bytes: [UInt8]
    private var index = 0

    init(_ bytes: some Collection<UInt8>) {
        self.bytes = Array(bytes)
    }

    /// The one value the bytes hold (whitespace around it allowed).
    mutating func read() throws(Failure) -> ControlValue {
        skipSpace()
        let value = try readValue(depth: 0)
        skipSpace()
        guard index == bytes.count else { throw fail("more after the value") }
        return value
    }

    private func fail(_ reason: String) -> Failure { Failure(offset: index, reason: reason) }

    private var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func skipSpace() {
        while let b = peek, b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D { index += 1 }
    }

    private mutating func expect(_ word: String) throws(Failure) {
        for b in word.utf8 {
            guard peek == b else { throw fail("expected \(word)") }
            index += 1
        }
    }

    private mutating func readValue(depth: Int) throws(Failure) -> ControlValue {
        guard let b = peek else { throw fail("a value is missing") }
        switch b {
        case UInt8(ascii: "{"): return try readObject(depth: depth + 1)
        case UInt8(ascii: "["): return try readArray(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try readString())
        case UInt8(ascii: "t"): try expect("true"); return .bool(true)
        case UInt8(ascii: "f"): try expect("false"); return .bool(false)
        case UInt8(ascii: "n"): try expect("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try readNumber())
        default: throw fail("unexpected character")
        }
    }

    private mutating func readObject(depth: Int) throws(Failure) -> ControlValue {
        guard depth <= ControlValue.maximumDepth else { throw fail("nested more than \(ControlValue.maximumDepth) deep") }
        index += 1
        var fields: [String: ControlValue] = [:]
        skipSpace()
        if peek == UInt8(ascii: "}") {
            index += 1
            return .object(fields)
        }
        while true {
            skipSpace()
            guard peek == UInt8(ascii: "\"") else { throw fail("expected a key in quotes (no comma after the last field)") }
            let keyOffset = index
            let key = try readString()
            skipSpace()
            guard peek == UInt8(ascii: ":") else { throw fail("expected ':'") }
            index += 1
            skipSpace()
            let value = try readValue(depth: depth)
            guard fields.updateValue(value, forKey: key) == nil else {
                throw Failure(offset: keyOffset, reason: "the key '\(Escaped(key))' is written twice")
            }
            skipSpace()
            switch peek {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"): index += 1; return .object(fields)
            default: throw fail("expected ',' or '}'")
            }
        }
    }

    private mutating func readArray(depth: Int) throws(Failure) -> ControlValue {
        guard depth <= ControlValue.maximumDepth else { throw fail("nested more than \(ControlValue.maximumDepth) deep") }
        index += 1
        var items: [ControlValue] = []
        skipSpace()
        if peek == UInt8(ascii: "]") {
            index += 1
            return .array(items)
        }
        while true {
            skipSpace()
            guard peek != UInt8(ascii: "]") else { throw fail("no comma after the last item") }
            items.append(try readValue(depth: depth))
            skipSpace()
            switch peek {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"): index += 1; return .array(items)
            default: throw fail("expected ',' or ']'")
            }
        }
    }

    private mutating func readNumber() throws(Failure) -> Double {
        let start = index
        if peek == UInt8(ascii: "-") { index += 1 }
        func digits() -> Int {
            var n = 0
            while let b = peek, b >= 0x30 && b <= 0x39 { index += 1; n += 1 }
            return n
        }
        if peek == UInt8(ascii: "0") {
            index += 1
            if let b = peek, b >= 0x30 && b <= 0x39 { throw fail("a number does not start with 0") }
        } else {
            guard digits() > 0 else { throw fail("expected digits") }
        }
        if peek == UInt8(ascii: ".") {
            index += 1
            guard digits() > 0 else { throw fail("expected digits after '.'") }
        }
        if let e = peek, e == UInt8(ascii: "e") || e == UInt8(ascii: "E") {
            index += 1
            if let s = peek, s == UInt8(ascii: "+") || s == UInt8(ascii: "-") { index += 1 }
            guard digits() > 0 else { throw fail("expected digits in the exponent") }
        }
        guard index - start <= 64, let value = Double(String(decoding: bytes[start..<index], as: UTF8.self)), value.isFinite else {
            throw Failure(offset: start, reason: "not a finite number of at most 64 characters")
        }
        return value
    }

    private mutating func readString() throws(Failure) -> String {
        index += 1                                           // the opening quote
        var out: [UInt8] = []
        while true {
            guard let b = peek else { throw fail("a string is not closed") }
            index += 1
            switch b {
            case UInt8(ascii: "\""):
                guard let text = String(validating: out, as: UTF8.self) else { throw fail("a string is not UTF-8") }
                return text
            case UInt8(ascii: "\\"):
                guard let e = peek else { throw fail("a string is not closed") }
                index += 1
                switch e {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(e)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = try readHex4()
                    if (0xD800..<0xDC00).contains(scalar) {
                        guard peek == UInt8(ascii: "\\") else { throw fail("a lone surrogate") }
                        index += 1
                        guard peek == UInt8(ascii: "u") else { throw fail("a lone surrogate") }
                        index += 1
                        let low = try readHex4()
                        guard (0xDC00..<0xE000).contains(low) else { throw fail("a lone surrogate") }
                        scalar = 0x10000 + (scalar - 0xD800) << 10 + (low - 0xDC00)
                    }
                    guard let unicode = Unicode.Scalar(scalar) else { throw fail("a lone surrogate") }
                    out += Array(String(Character(unicode)).utf8)
                default: throw fail("an unknown escape")
                }
            case 0x00..<0x20: throw fail("a control character in a string (escape it)")
            default: out.append(b)
            }
        }
    }

    private mutating func readHex4() throws(Failure) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let b = peek else { throw fail("\\u needs four hex digits") }
            let digit: UInt32
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(b - 0x30)
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(b - 0x61 + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(b - 0x41 + 10)
            default: throw fail("\\u needs four hex digits")
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }
}
