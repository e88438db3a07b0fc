import LaminaGeometry

/// A value an animation can drive: the types Core Animation interpolates (rule 19).
public enum AnimatableValue: Hashable, Sendable, CustomStringConvertible {
    /// A number (opacity, a radius, one component of a transform).
    case scalar(Double)
    /// A point (position, anchor point).
    case point(Point)
    /// A size (bounds.size, shadow offset).
    case size(Size)
    /// A rectangle (bounds).
    case rect(Rect)
    /// A colour; nil is a valid colour value (no colour) that does not interpolate.
    case color(Color?)
    /// Boxed: a 4×4 matrix would make every value (and every animation) 130 bytes.
    indirect case transform(Transform3D)
    /// A Boolean (hidden, masksToBounds): switches, never blends.
    case bool(Bool)

    /// Componentwise interpolation from `self` (t = 0) to `other` (t = 1). Mismatched kinds
    /// and nil colours switch to `other` once `t > 0`; Booleans switch once `t > 0` (rule 19).
    public func interpolated(to other: AnimatableValue, by t: Double) -> AnimatableValue {
        func lerp(_ a: Double, _ b: Double) -> Double { a + (b - a) * t }
        switch (self, other) {
        case (.scalar(let a), .scalar(let b)):
            return .scalar(lerp(a, b))
        case (.point(let a), .point(let b)):
            return .point(Point(x: lerp(a.x, b.x), y: lerp(a.y, b.y)))
        case (.size(let a), .size(let b)):
            return .size(Size(width: lerp(a.width, b.width), height: lerp(a.height, b.height)))
        case (.rect(let a), .rect(let b)):
            return .rect(Rect(x: lerp(a.origin.x, b.origin.x), y: lerp(a.origin.y, b.origin.y),
                              width: lerp(a.size.width, b.size.width), height: lerp(a.size.height, b.size.height)))
        case (.color(let a?), .color(let b?)):
            return .color(a.interpolated(to: b, by: t))
        case (.transform(let a), .transform(let b)):
            return .transform(a.interpolated(to: b, by: t))                // by decomposition (rule 20)
        default:
            return t > 0 ? other : self
        }
    }

    /// Componentwise sum, for additive animations and `byValue` (rule 15, 16).
    public func adding(_ other: AnimatableValue) -> AnimatableValue {
        switch (self, other) {
        case (.scalar(let a), .scalar(let b)): return .scalar(a + b)
        case (.point(let a), .point(let b)): return .point(a + b)
        case (.size(let a), .size(let b)): return .size(Size(width: a.width + b.width, height: a.height + b.height))
        case (.rect(let a), .rect(let b)):
            return .rect(Rect(x: a.origin.x + b.origin.x, y: a.origin.y + b.origin.y,
                              width: a.size.width + b.size.width, height: a.size.height + b.size.height))
        case (.color(let a?), .color(let b?)):
            return .color(Color(red: a.red + b.red, green: a.green + b.green, blue: a.blue + b.blue, alpha: a.alpha + b.alpha))
        case (.transform(let a), .transform(let b)):
            return .transform(b.concatenating(a))
        default:
            return other
        }
    }

    /// `k` copies of the value added together (`k ≥ 0`, whole): k·v componentwise, the k-th
    /// power of a transform; for cumulative animations (rule 17).
    public func repeated(_ k: Double) -> AnimatableValue {
        switch self {
        case .scalar(let a): return .scalar(a * k)
        case .point(let p): return .point(Point(x: p.x * k, y: p.y * k))
        case .size(let s): return .size(Size(width: s.width * k, height: s.height * k))
        case .rect(let r): return .rect(Rect(x: r.origin.x * k, y: r.origin.y * k, width: r.size.width * k, height: r.size.height * k))
        case .color(let c?):
            return .color(Color(red: c.red * k, green: c.green * k, blue: c.blue * k, alpha: c.alpha * k))
        case .transform(let t):
            var result = Transform3D.identity
            var count = 0.0
            while count < k && count < 10_000 {
                result = result.concatenating(t)
                count += 1
            }
            return .transform(result)
        case .color(nil), .bool: return self
        }
    }

    /// Whether `other` is the same kind of value (both numbers, both points, ...); a colour
    /// and no colour are the same kind.
    public func isSameKind(as other: AnimatableValue) -> Bool {
        switch (self, other) {
        case (.scalar, .scalar), (.point, .point), (.size, .size), (.rect, .rect), (.color, .color),
             (.transform, .transform), (.bool, .bool): return true
        default: return false
        }
    }

    /// The kind in words: "a number", "a point", "a colour"...
    public var kindName: String {
        switch self {
        case .scalar: return "a number"
        case .point: return "a point"
        case .size: return "a size"
        case .rect: return "a rectangle"
        case .color: return "a colour"
        case .transform: return "a transform"
        case .bool: return "true or false"
        }
    }

    /// The largest magnitude among the components (1 for a transform, 0 for a Boolean or no
    /// colour): how far a decay has to go (rule 93).
    var largestComponent: Double {
        switch self {
        case .scalar(let a): return abs(a)
        case .point(let p): return max(abs(p.x), abs(p.y))
        case .size(let s): return max(abs(s.width), abs(s.height))
        case .rect(let r): return max(abs(r.origin.x), abs(r.origin.y), abs(r.size.width), abs(r.size.height))
        case .color(let c?): return max(abs(c.red), abs(c.green), abs(c.blue), abs(c.alpha))
        case .transform: return 1
        case .color(nil), .bool: return 0
        }
    }

    /// Componentwise difference `self − other` (for `toValue` with `byValue`).
    public func subtracting(_ other: AnimatableValue) -> AnimatableValue {
        switch (self, other) {
        case (.scalar(let a), .scalar(let b)): return .scalar(a - b)
        case (.point(let a), .point(let b)): return .point(a - b)
        case (.size(let a), .size(let b)): return .size(Size(width: a.width - b.width, height: a.height - b.height))
        case (.rect(let a), .rect(let b)):
            return .rect(Rect(x: a.origin.x - b.origin.x, y: a.origin.y - b.origin.y,
                              width: a.size.width - b.size.width, height: a.size.height - b.size.height))
        case (.color(let a?), .color(let b?)):
            return .color(Color(red: a.red - b.red, green: a.green - b.green, blue: a.blue - b.blue, alpha: a.alpha - b.alpha))
        case (.transform(let a), .transform(let b)):
            return .transform(b.inverted().concatenating(a))
        default:
            return self
        }
    }

    public var description: String {
        switch self {
        case .scalar(let v): return "\(v)"
        case .point(let p): return p.description
        case .size(let s): return s.description
        case .rect(let r): return r.description
        case .color(let c): return c?.description ?? "nil"
        case .transform(let t): return "\(t.entries)"
        case .bool(let b): return "\(b)"
        }
    }
}
