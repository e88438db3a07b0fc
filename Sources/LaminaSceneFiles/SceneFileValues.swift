import LaminaSceneSyntax

/// How a scene file writes values: numbers (`12`, `-0.5`, `90deg`), booleans, colours
/// (`"#RRGGBB"`, `none`), points and sizes (`[x, y]`), rectangles (`[x, y, w, h]`),
/// transforms (a list of operations) and curves (a name or `[x1, y1, x2, y2]`). Each reader
/// checks its value where it enters and throws a `ConfigError` naming `file:line:column`,
/// the element's path and the reason.
struct SceneValueReader {
    let file: String

    /// The largest magnitude a number may have.
    static let numberLimit = 1e7

    func error(_ node: SceneNode, _ path: String, _ reason: String) -> ConfigError {
        SceneFields.error(file, node, path, reason)
    }

    func scalar(_ node: SceneNode, _ path: String, what: String) throws(ConfigError) -> String {
        guard let text = node.scalar else { throw error(node, path, "expected \(what), found \(node.kindName)") }
        return text
    }

    func number(_ node: SceneNode, _ path: String, in range: ClosedRange<Double>? = nil) throws(ConfigError) -> Double {
        let text = try scalar(node, path, what: "a number")
        var digits = Substring(text)
        var factor = 1.0
        if digits.hasSuffix("deg") {
            digits = digits.dropLast(3)
            factor = Double.pi / 180
        }
        guard Self.isDecimal(digits), let value = Double(String(digits)), value.isFinite else {
            throw error(node, path, "'\(Escaped(text))' is not a number (write 12, -0.5, 1e3 or 90deg)")
        }
        guard abs(value) <= Self.numberLimit else {
            throw error(node, path, "\(Escaped(text)) is beyond ±10⁷, the largest number a scene file may hold")
        }
        let result = value * factor
        if let range, !range.contains(result) {
            throw error(node, path, "\(text) is outside \(String(cFormat: "%g", range.lowerBound))…\(String(cFormat: "%g", range.upperBound))")
        }
        return result
    }

    /// Whether `text` is a decimal number as the docs write them — an optional sign, ASCII
    /// digits with an optional fraction, an optional exponent — and nothing else (no `0x10`,
    /// no hex floats, no `inf` or `nan`, no spaces, no other scripts' digits).
    static func isDecimal(_ text: Substring) -> Bool {
        var bytes = text.utf8[...]
        if let sign = bytes.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
        func digits() -> Int {
            let n = bytes.prefix { $0 >= 0x30 && $0 <= 0x39 }.count
            bytes = bytes.dropFirst(n)
            return n
        }
        var count = digits()
        if bytes.first == UInt8(ascii: ".") {
            bytes = bytes.dropFirst()
            count += digits()
        }
        guard count > 0 else { return false }
        if let e = bytes.first, e == UInt8(ascii: "e") || e == UInt8(ascii: "E") {
            bytes = bytes.dropFirst()
            if let sign = bytes.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
            guard digits() > 0 else { return false }
        }
        return bytes.isEmpty
    }

    func integer(_ node: SceneNode, _ path: String, in range: ClosedRange<Int>) throws(ConfigError) -> Int {
        let text = try scalar(node, path, what: "a whole number")
        guard Self.isDecimal(Substring(text)), let value = Int(text), range.contains(value) else {
            throw error(node, path, "'\(Escaped(text))' is not a whole number in \(range.lowerBound)…\(range.upperBound)")
        }
        return value
    }

    func bool(_ node: SceneNode, _ path: String) throws(ConfigError) -> Bool {
        switch try scalar(node, path, what: "true or false") {
        case "true", "yes", "on": return true
        case "false", "no", "off": return false
        case let other: throw error(node, path, "'\(Escaped(other))' is not true or false")
        }
    }

    func string(_ node: SceneNode, _ path: String, maxLength: Int = 4096) throws(ConfigError) -> String {
        guard !node.isNull else { throw error(node, path, "expected text, found nothing (write \"\" for empty text)") }
        let text = try scalar(node, path, what: "text")
        guard text.utf8.count <= maxLength else { throw error(node, path, "text longer than \(maxLength) bytes") }
        return text
    }

    func choice<T: RawRepresentable>(_ node: SceneNode, _ path: String, _ values: [T]) throws(ConfigError) -> T
        where T.RawValue == String {
        let text = try scalar(node, path, what: "a name")
        guard let value = values.first(where: { $0.rawValue == text }) else {
            throw error(node, path, "'\(Escaped(text))' is not one of \(values.map(\.rawValue).joined(separator: ", "))")
        }
        return value
    }

    func color(_ node: SceneNode, _ path: String) throws(ConfigError) -> Color? {
        let text = try scalar(node, path, what: "a colour")
        if node.isNull || text == "none" || text == "clear" { return nil }
        do {
            return try Color(hex: text)
        } catch {
            throw self.error(node, path, "'\(Escaped(text))' is not a colour: \(error) (or none)")
        }
    }

    func numbers(_ node: SceneNode, _ path: String, count: ClosedRange<Int>, what: String) throws(ConfigError) -> [Double] {
        guard let items = node.items else { throw error(node, path, "expected \(what), found \(node.kindName)") }
        guard count.contains(items.count) else {
            let n = count.lowerBound == count.upperBound ? "\(count.lowerBound)" : "\(count.lowerBound)…\(count.upperBound)"
            throw error(node, path, "expected \(what) (\(n) numbers), found \(items.count)")
        }
        var result: [Double] = []
        for (i, item) in items.enumerated() { result.append(try number(item, "\(path)[\(i)]")) }
        return result
    }

    func curve(_ node: SceneNode, _ path: String) throws(ConfigError) -> TimingFunction {
        if let name = node.scalar {
            guard let curve = TimingFunction.named(name) else {
                throw error(node, path, "'\(Escaped(name))' is not a curve (linear, easeIn, easeOut, easeInEaseOut, default, or [x1, y1, x2, y2])")
            }
            return curve
        }
        let p = try numbers(node, path, count: 4...4, what: "a cubic Bézier curve [x1, y1, x2, y2]")
        guard (0...1).contains(p[0]), (0...1).contains(p[2]) else {
            throw error(node, path, "a curve's x1 and x2 lie in 0…1")
        }
        return TimingFunction(controlPoints: p[0], p[1], p[2], p[3])
    }

    /// A transform: a list of operations, each applied to the transform so far as Core
    /// Animation's `CATransform3DRotate`/`Scale`/`Translate` are (`[perspective: 500,
    /// rotateX: 60deg]`), or `identity`, or `matrix: [16 numbers]` (row-major m11…m44).
    func transform(_ node: SceneNode, _ path: String) throws(ConfigError) -> Transform3D {
        if node.scalar == "identity" { return .identity }
        if let entries = node.entries, entries.count == 1, entries[0].key.scalar == "matrix" {
            return Transform3D(entries: try numbers(entries[0].value, path + ".matrix", count: 16...16, what: "a 4x4 matrix"))
        }
        guard let items = node.items else {
            throw error(node, path, "a transform is a list of operations ([rotateZ: 45deg, scale: 2]), identity or {matrix: [...]}")
        }
        guard items.count <= 32 else { throw error(node, path, "more than 32 operations") }
        var t = Transform3D.identity
        for (i, item) in items.enumerated() {
            let at = "\(path)[\(i)]"
            guard let entries = item.entries, entries.count == 1, let op = entries[0].key.scalar else {
                throw error(item, at, "each operation is one `name: value` (rotateX, rotateY, rotateZ, scale, translate, perspective)")
            }
            let value = entries[0].value
            switch op {
            case "rotateX": t = t.rotated(by: try number(value, at + ".rotateX"), x: 1, y: 0, z: 0)
            case "rotateY": t = t.rotated(by: try number(value, at + ".rotateY"), x: 0, y: 1, z: 0)
            case "rotateZ", "rotate": t = t.rotated(by: try number(value, at + "." + op), x: 0, y: 0, z: 1)
            case "scale":
                if value.scalar != nil {
                    let s = try number(value, at + ".scale")
                    t = t.scaledBy(x: s, y: s, z: 1)
                } else {
                    let s = try numbers(value, at + ".scale", count: 2...3, what: "a scale [x, y] or [x, y, z]")
                    t = t.scaledBy(x: s[0], y: s[1], z: s.count > 2 ? s[2] : 1)
                }
            case "translate":
                let d = try numbers(value, at + ".translate", count: 2...3, what: "a translation [x, y] or [x, y, z]")
                t = t.translatedBy(x: d[0], y: d[1], z: d.count > 2 ? d[2] : 0)
            case "perspective":
                let distance = try number(value, at + ".perspective", in: 1...1e6)
                var p = Transform3D.identity
                p.m34 = -1 / distance
                t = p.concatenating(t)
            default:
                throw error(entries[0].key, at + "." + op, "unknown operation (rotateX, rotateY, rotateZ, scale, translate, perspective)")
            }
            guard Self.isWithinLimit(t) else {
                throw error(item, at, "the transform so far has an entry beyond ±10⁷ (operations multiply: scales and translations compound)")
            }
        }
        return t
    }

    /// Whether every entry of `t` is finite and within `numberLimit`.
    static func isWithinLimit(_ t: Transform3D) -> Bool {
        [t.m11, t.m12, t.m13, t.m14, t.m21, t.m22, t.m23, t.m24, t.m31, t.m32, t.m33, t.m34, t.m41, t.m42, t.m43, t.m44]
            .allSatisfy { $0.isFinite && abs($0) <= numberLimit }
    }

    /// The ranges of the numeric properties that have one beyond the number limit: a text
    /// size Lamina can draw, lengths that are not negative.
    static let propertyRanges: [String: ClosedRange<Double>] = [
        "fontSize": Font.sizes,
        "lineWidth": 0...numberLimit, "borderWidth": 0...numberLimit, "cornerRadius": 0...numberLimit,
        "shadowRadius": 0...numberLimit, "miterLimit": 0...numberLimit,
    ]

    /// A value of the same kind as `sample` (the property's current value), for the property
    /// `keyPath` when one is named (its range is checked). Nothing written is an error: a
    /// property says `none` for no colour, and a `#` not in quotes began a YAML comment.
    func value(_ node: SceneNode, _ path: String, like sample: AnimatableValue, keyPath: String? = nil) throws(ConfigError) -> AnimatableValue {
        if node.isNull {
            var isColour = false
            if case .color = sample { isColour = true }
            let hint = node.commentFollows
                ? ": a value starting with '#' is a YAML comment, so quote it (\"#22D3EE\")"
                : isColour ? " (write none for no colour)" : ""
            throw error(node, path, "nothing is written where \(SceneFileCompiler.kindName(sample)) is needed\(hint)")
        }
        switch sample {
        case .scalar:
            let x = try number(node, path)
            if let keyPath, let range = Self.propertyRanges[keyPath], !range.contains(x) {
                throw error(node, path, "\(node.scalar ?? "") is outside \(keyPath)'s \(String(cFormat: "%g", range.lowerBound))…\(String(cFormat: "%g", range.upperBound))")
            }
            return .scalar(x)
        case .bool: return .bool(try bool(node, path))
        case .color: return .color(try color(node, path))
        case .transform: return .transform(try transform(node, path))
        case .point:
            let p = try numbers(node, path, count: 2...2, what: "a point [x, y]")
            return .point(Point(x: p[0], y: p[1]))
        case .size:
            let s = try numbers(node, path, count: 2...2, what: "a size [width, height]")
            return .size(Size(width: s[0], height: s[1]))
        case .rect:
            let r = try numbers(node, path, count: 4...4, what: "a rectangle [x, y, width, height]")
            guard r[2] >= 0, r[3] >= 0 else { throw error(node, path, "a rectangle's width and height are not negative") }
            return .rect(Rect(x: r[0], y: r[1], width: r[2], height: r[3]))
        }
    }

    /// The name of a binding when `node` is `$name`.
    static func bindingReference(_ node: SceneNode) -> String? {
        guard let text = node.scalar, text.hasPrefix("$"), text.count > 1 else { return nil }
        return String(text.dropFirst())
    }
}
