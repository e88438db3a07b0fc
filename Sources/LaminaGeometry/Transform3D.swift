#if canImport(Glibc)
import Glibc
#endif

/// A 4x4 homogeneous transform with Core Animation's conventions (`CATransform3D`).
///
/// Points are **row vectors**, `p' = p · M` with `p = (x, y, z, 1)`: translation lives in
/// `m41 m42 m43`, perspective in `m14 m24 m34`, and `m44` is the homogeneous scale.
/// `a.concatenating(b)` is `a · b`: apply `a`, then `b` (behaviour.md, conventions and rule 52).
public struct Transform3D: Hashable, Sendable {
    /// Row 1, column 1: part of the linear map (row 1 is the image of the x axis).
    public var m11: Double
    /// Row 1, column 2: part of the linear map (row 1 is the image of the x axis).
    public var m12: Double
    /// Row 1, column 3: part of the linear map (row 1 is the image of the x axis).
    public var m13: Double
    /// Row 1, column 4: perspective from x (Core Animation's `m34 = -1/d` puts the viewer at distance d).
    public var m14: Double
    /// Row 2, column 1: part of the linear map (row 2 is the image of the y axis).
    public var m21: Double
    /// Row 2, column 2: part of the linear map (row 2 is the image of the y axis).
    public var m22: Double
    /// Row 2, column 3: part of the linear map (row 2 is the image of the y axis).
    public var m23: Double
    /// Row 2, column 4: perspective from y (Core Animation's `m34 = -1/d` puts the viewer at distance d).
    public var m24: Double
    /// Row 3, column 1: part of the linear map (row 3 is the image of the z axis).
    public var m31: Double
    /// Row 3, column 2: part of the linear map (row 3 is the image of the z axis).
    public var m32: Double
    /// Row 3, column 3: part of the linear map (row 3 is the image of the z axis).
    public var m33: Double
    /// Row 3, column 4: perspective from z (Core Animation's `m34 = -1/d` puts the viewer at distance d).
    public var m34: Double
    /// Row 4, column 1: the translation along x.
    public var m41: Double
    /// Row 4, column 2: the translation along y.
    public var m42: Double
    /// Row 4, column 3: the translation along z.
    public var m43: Double
    /// Row 4, column 4: the homogeneous scale (1 for ordinary transforms).
    public var m44: Double

    /// A transform from its sixteen entries, row by row (a point is a row vector on the left, as in Core Animation).
    public init(
        m11: Double, m12: Double, m13: Double, m14: Double,
        m21: Double, m22: Double, m23: Double, m24: Double,
        m31: Double, m32: Double, m33: Double, m34: Double,
        m41: Double, m42: Double, m43: Double, m44: Double
    ) {
        self.m11 = m11; self.m12 = m12; self.m13 = m13; self.m14 = m14
        self.m21 = m21; self.m22 = m22; self.m23 = m23; self.m24 = m24
        self.m31 = m31; self.m32 = m32; self.m33 = m33; self.m34 = m34
        self.m41 = m41; self.m42 = m42; self.m43 = m43; self.m44 = m44
    }

    /// The transform that changes nothing.
    public static let identity = Transform3D(
        m11: 1, m12: 0, m13: 0, m14: 0,
        m21: 0, m22: 1, m23: 0, m24: 0,
        m31: 0, m32: 0, m33: 1, m34: 0,
        m41: 0, m42: 0, m43: 0, m44: 1)

    /// The sixteen entries, row by row.
    public var entries: [Double] {
        [m11, m12, m13, m14, m21, m22, m23, m24, m31, m32, m33, m34, m41, m42, m43, m44]
    }

    /// Builds a transform from sixteen entries, row by row.
    public init(entries e: [Double]) {
        precondition(e.count == 16, "Transform3D needs 16 entries")
        self.init(
            m11: e[0], m12: e[1], m13: e[2], m14: e[3],
            m21: e[4], m22: e[5], m23: e[6], m24: e[7],
            m31: e[8], m32: e[9], m33: e[10], m34: e[11],
            m41: e[12], m42: e[13], m43: e[14], m44: e[15])
    }

    /// `CATransform3DMakeTranslation`.
    public init(translationX tx: Double, y ty: Double, z tz: Double) {
        self = .identity
        m41 = tx; m42 = ty; m43 = tz
    }

    /// `CATransform3DMakeScale`.
    public init(scaleX sx: Double, y sy: Double, z sz: Double) {
        self = .identity
        m11 = sx; m22 = sy; m33 = sz
    }

    /// `CATransform3DMakeRotation`: `angle` radians about the axis `(x, y, z)`, which is
    /// normalised; a zero axis gives the identity. About z, `m11 = cos θ, m12 = sin θ`.
    public init(rotationAngle angle: Double, x: Double, y: Double, z: Double) {
        let length = (x * x + y * y + z * z).squareRoot()
        guard length > 0, length.isFinite else {
            self = .identity
            return
        }
        let ux = x / length, uy = y / length, uz = z / length
        let c = cos(angle), s = sin(angle), k = 1 - c
        self.init(
            m11: c + k * ux * ux, m12: k * ux * uy + s * uz, m13: k * ux * uz - s * uy, m14: 0,
            m21: k * ux * uy - s * uz, m22: c + k * uy * uy, m23: k * uy * uz + s * ux, m24: 0,
            m31: k * ux * uz + s * uy, m32: k * uy * uz - s * ux, m33: c + k * uz * uz, m34: 0,
            m41: 0, m42: 0, m43: 0, m44: 1)
    }

    /// The 2-D affine transform embedded in 3-D (`CATransform3DMakeAffineTransform`).
    public init(_ t: AffineTransform) {
        self = .identity
        m11 = t.a; m12 = t.b; m21 = t.c; m22 = t.d; m41 = t.tx; m42 = t.ty
    }

    /// True for the identity, exactly.
    public var isIdentity: Bool {
        m11 == 1 && m12 == 0 && m13 == 0 && m14 == 0 && m21 == 0 && m22 == 1 && m23 == 0 && m24 == 0
            && m31 == 0 && m32 == 0 && m33 == 1 && m34 == 0 && m41 == 0 && m42 == 0 && m43 == 0 && m44 == 1
    }

    /// `CATransform3DIsAffine`: no z or perspective terms.
    public var isAffine: Bool {
        m13 == 0 && m14 == 0 && m23 == 0 && m24 == 0 && m31 == 0 && m32 == 0
            && m34 == 0 && m43 == 0 && m33 == 1 && m44 == 1
    }

    /// `CATransform3DGetAffineTransform`: the 2-D part, or identity when not affine (rule 52).
    public var affineTransform: AffineTransform {
        guard isAffine else { return .identity }
        return AffineTransform(a: m11, b: m12, c: m21, d: m22, tx: m41, ty: m42)
    }

    /// `self · other`: apply `self`, then `other` (`CATransform3DConcat(self, other)`).
    ///
    /// Written out entry by entry, with no array: every layer's place in every frame is a
    /// few of these. Each entry sums its four products in order from zero, as the row-by-
    /// column loop did, so results are the same to the bit (a negative zero included).
    public func concatenating(_ o: Transform3D) -> Transform3D {
        func entry(_ a1: Double, _ a2: Double, _ a3: Double, _ a4: Double,
                   _ b1: Double, _ b2: Double, _ b3: Double, _ b4: Double) -> Double {
            0 + a1 * b1 + a2 * b2 + a3 * b3 + a4 * b4
        }
        return Transform3D(
            m11: entry(m11, m12, m13, m14, o.m11, o.m21, o.m31, o.m41),
            m12: entry(m11, m12, m13, m14, o.m12, o.m22, o.m32, o.m42),
            m13: entry(m11, m12, m13, m14, o.m13, o.m23, o.m33, o.m43),
            m14: entry(m11, m12, m13, m14, o.m14, o.m24, o.m34, o.m44),
            m21: entry(m21, m22, m23, m24, o.m11, o.m21, o.m31, o.m41),
            m22: entry(m21, m22, m23, m24, o.m12, o.m22, o.m32, o.m42),
            m23: entry(m21, m22, m23, m24, o.m13, o.m23, o.m33, o.m43),
            m24: entry(m21, m22, m23, m24, o.m14, o.m24, o.m34, o.m44),
            m31: entry(m31, m32, m33, m34, o.m11, o.m21, o.m31, o.m41),
            m32: entry(m31, m32, m33, m34, o.m12, o.m22, o.m32, o.m42),
            m33: entry(m31, m32, m33, m34, o.m13, o.m23, o.m33, o.m43),
            m34: entry(m31, m32, m33, m34, o.m14, o.m24, o.m34, o.m44),
            m41: entry(m41, m42, m43, m44, o.m11, o.m21, o.m31, o.m41),
            m42: entry(m41, m42, m43, m44, o.m12, o.m22, o.m32, o.m42),
            m43: entry(m41, m42, m43, m44, o.m13, o.m23, o.m33, o.m43),
            m44: entry(m41, m42, m43, m44, o.m14, o.m24, o.m34, o.m44))
    }

    /// `CATransform3DTranslate`: the translation is applied before `self`.
    public func translatedBy(x: Double, y: Double, z: Double) -> Transform3D {
        Transform3D(translationX: x, y: y, z: z).concatenating(self)
    }

    /// `CATransform3DScale`: the scale is applied before `self`.
    public func scaledBy(x: Double, y: Double, z: Double) -> Transform3D {
        Transform3D(scaleX: x, y: y, z: z).concatenating(self)
    }

    /// `CATransform3DRotate`: the rotation is applied before `self`.
    public func rotated(by angle: Double, x: Double, y: Double, z: Double) -> Transform3D {
        Transform3D(rotationAngle: angle, x: x, y: y, z: z).concatenating(self)
    }

    /// `CATransform3DInvert`: the inverse, or `self` unchanged when singular.
    public func inverted() -> Transform3D {
        let m = entries
        var inv = [Double](repeating: 0, count: 16)
        inv[0] = m[5] * m[10] * m[15] - m[5] * m[11] * m[14] - m[9] * m[6] * m[15] + m[9] * m[7] * m[14] + m[13] * m[6] * m[11] - m[13] * m[7] * m[10]
        inv[4] = -m[4] * m[10] * m[15] + m[4] * m[11] * m[14] + m[8] * m[6] * m[15] - m[8] * m[7] * m[14] - m[12] * m[6] * m[11] + m[12] * m[7] * m[10]
        inv[8] = m[4] * m[9] * m[15] - m[4] * m[11] * m[13] - m[8] * m[5] * m[15] + m[8] * m[7] * m[13] + m[12] * m[5] * m[11] - m[12] * m[7] * m[9]
        inv[12] = -m[4] * m[9] * m[14] + m[4] * m[10] * m[13] + m[8] * m[5] * m[14] - m[8] * m[6] * m[13] - m[12] * m[5] * m[10] + m[12] * m[6] * m[9]
        inv[1] = -m[1] * m[10] * m[15] + m[1] * m[11] * m[14] + m[9] * m[2] * m[15] - m[9] * m[3] * m[14] - m[13] * m[2] * m[11] + m[13] * m[3] * m[10]
        inv[5] = m[0] * m[10] * m[15] - m[0] * m[11] * m[14] - m[8] * m[2] * m[15] + m[8] * m[3] * m[14] + m[12] * m[2] * m[11] - m[12] * m[3] * m[10]
        inv[9] = -m[0] * m[9] * m[15] + m[0] * m[11] * m[13] + m[8] * m[1] * m[15] - m[8] * m[3] * m[13] - m[12] * m[1] * m[11] + m[12] * m[3] * m[9]
        inv[13] = m[0] * m[9] * m[14] - m[0] * m[10] * m[13] - m[8] * m[1] * m[14] + m[8] * m[2] * m[13] + m[12] * m[1] * m[10] - m[12] * m[2] * m[9]
        inv[2] = m[1] * m[6] * m[15] - m[1] * m[7] * m[14] - m[5] * m[2] * m[15] + m[5] * m[3] * m[14] + m[13] * m[2] * m[7] - m[13] * m[3] * m[6]
        inv[6] = -m[0] * m[6] * m[15] + m[0] * m[7] * m[14] + m[4] * m[2] * m[15] - m[4] * m[3] * m[14] - m[12] * m[2] * m[7] + m[12] * m[3] * m[6]
        inv[10] = m[0] * m[5] * m[15] - m[0] * m[7] * m[13] - m[4] * m[1] * m[15] + m[4] * m[3] * m[13] + m[12] * m[1] * m[7] - m[12] * m[3] * m[5]
        inv[14] = -m[0] * m[5] * m[14] + m[0] * m[6] * m[13] + m[4] * m[1] * m[14] - m[4] * m[2] * m[13] - m[12] * m[1] * m[6] + m[12] * m[2] * m[5]
        inv[3] = -m[1] * m[6] * m[11] + m[1] * m[7] * m[10] + m[5] * m[2] * m[11] - m[5] * m[3] * m[10] - m[9] * m[2] * m[7] + m[9] * m[3] * m[6]
        inv[7] = m[0] * m[6] * m[11] - m[0] * m[7] * m[10] - m[4] * m[2] * m[11] + m[4] * m[3] * m[10] + m[8] * m[2] * m[7] - m[8] * m[3] * m[6]
        inv[11] = -m[0] * m[5] * m[11] + m[0] * m[7] * m[9] + m[4] * m[1] * m[11] - m[4] * m[3] * m[9] - m[8] * m[1] * m[7] + m[8] * m[3] * m[5]
        inv[15] = m[0] * m[5] * m[10] - m[0] * m[6] * m[9] - m[4] * m[1] * m[10] + m[4] * m[2] * m[9] + m[8] * m[1] * m[6] - m[8] * m[2] * m[5]
        let det = m[0] * inv[0] + m[1] * inv[4] + m[2] * inv[8] + m[3] * inv[12]
        guard det != 0, det.isFinite else { return self }
        return Transform3D(entries: inv.map { $0 / det })
    }

    /// The homogeneous image of `(x, y, z, 1)`: `(x', y', z', w)`.
    public func applyHomogeneous(x: Double, y: Double, z: Double) -> (x: Double, y: Double, z: Double, w: Double) {
        (x * m11 + y * m21 + z * m31 + m41,
         x * m12 + y * m22 + z * m32 + m42,
         x * m13 + y * m23 + z * m33 + m43,
         x * m14 + y * m24 + z * m34 + m44)
    }

    /// Projects a point of the z = 0 plane: divides by `w` (rule 53). Callers that may see
    /// `w ≤ 0` (behind the eye) must clip first; this returns nil there.
    public func project(_ p: Point) -> Point? {
        let h = applyHomogeneous(x: p.x, y: p.y, z: 0)
        guard h.w > 0 else { return nil }
        return Point(x: h.x / h.w, y: h.y / h.w)
    }
}
