#if canImport(Glibc)
import Glibc
#endif

/// A 2-D affine transform in Core Graphics order.
///
/// Points are row vectors: `x' = a·x + c·y + tx`, `y' = b·x + d·y + ty`, the matrix
/// `[a b 0; c d 0; tx ty 1]`. `t1.concatenating(t2)` applies `t1` first, then `t2`,
/// like `CGAffineTransformConcat(t1, t2)`.
public struct AffineTransform: Hashable, Sendable, CustomStringConvertible {
    /// The x axis's image, x component (row 1 of the 2x2 part).
    public var a: Double
    /// The x axis's image, y component.
    public var b: Double
    /// The y axis's image, x component (row 2 of the 2x2 part).
    public var c: Double
    /// The y axis's image, y component.
    public var d: Double
    /// The translation along x.
    public var tx: Double
    /// The translation along y.
    public var ty: Double

    /// A transform from its six numbers: a point (x, y) maps to (a·x + c·y + tx, b·x + d·y + ty).
    public init(a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double) {
        self.a = a; self.b = b; self.c = c; self.d = d; self.tx = tx; self.ty = ty
    }

    /// The transform that changes nothing.
    public static let identity = AffineTransform(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0)

    /// A translation by (`x`, `y`).
    public init(translationX x: Double, y: Double) {
        self.init(a: 1, b: 0, c: 0, d: 1, tx: x, ty: y)
    }

    /// A scale by `sx` across and `sy` down, about the origin.
    public init(scaleX sx: Double, y sy: Double) {
        self.init(a: sx, b: 0, c: 0, d: sy, tx: 0, ty: 0)
    }

    /// A rotation by `angle` radians; positive angles turn +x toward +y.
    public init(rotationAngle angle: Double) {
        let c = cos(angle), s = sin(angle)
        self.init(a: c, b: s, c: -s, d: c, tx: 0, ty: 0)
    }

    /// True for the identity, exactly.
    public var isIdentity: Bool { self == .identity }

    /// `self` then `other`.
    public func concatenating(_ other: AffineTransform) -> AffineTransform {
        AffineTransform(
            a: a * other.a + b * other.c,
            b: a * other.b + b * other.d,
            c: c * other.a + d * other.c,
            d: c * other.b + d * other.d,
            tx: tx * other.a + ty * other.c + other.tx,
            ty: tx * other.b + ty * other.d + other.ty)
    }

    /// A translation applied before `self`, as `CGAffineTransformTranslate`.
    public func translatedBy(x: Double, y: Double) -> AffineTransform {
        AffineTransform(translationX: x, y: y).concatenating(self)
    }

    /// A scale applied before `self`, as `CGAffineTransformScale`.
    public func scaledBy(x: Double, y: Double) -> AffineTransform {
        AffineTransform(scaleX: x, y: y).concatenating(self)
    }

    /// A rotation applied before `self`, as `CGAffineTransformRotate`.
    public func rotated(by angle: Double) -> AffineTransform {
        AffineTransform(rotationAngle: angle).concatenating(self)
    }

    /// The 2x2 part's determinant: the factor areas scale by (negative when the transform mirrors).
    public var determinant: Double { a * d - b * c }

    /// The inverse, or `self` unchanged when singular (as `CGAffineTransformInvert`).
    public func inverted() -> AffineTransform {
        let det = determinant
        guard det != 0, det.isFinite else { return self }
        return AffineTransform(
            a: d / det, b: -b / det, c: -c / det, d: a / det,
            tx: (c * ty - d * tx) / det, ty: (b * tx - a * ty) / det)
    }

    /// Where `p` goes.
    public func apply(to p: Point) -> Point {
        Point(x: a * p.x + c * p.y + tx, y: b * p.x + d * p.y + ty)
    }

    /// Applies only the linear part (for vectors such as velocities).
    public func applyLinear(to v: Point) -> Point {
        Point(x: a * v.x + c * v.y, y: b * v.x + d * v.y)
    }

    /// The bounding box of the transformed rectangle's four corners.
    public func apply(to r: Rect) -> Rect {
        let s = r.standardized
        return Rect.boundingBox(of: [
            apply(to: Point(x: s.minX, y: s.minY)), apply(to: Point(x: s.maxX, y: s.minY)),
            apply(to: Point(x: s.minX, y: s.maxY)), apply(to: Point(x: s.maxX, y: s.maxY)),
        ])
    }

    public var description: String { "[\(a) \(b) \(c) \(d) \(tx) \(ty)]" }
}
