#if canImport(Glibc)
import Glibc
#endif
import LaminaGeometry

/// A 2-D affine transform split into the parts CSS Transforms 1 interpolates: translation,
/// scale (one axis negated for a reflection), rotation angle and the remaining 2×2 shear
/// matrix. In Core Animation's row-vector convention the linear part is
/// `diag(scale) · residual · R(angle)`: scale, then shear, then rotate.
public struct Decomposed2D: Hashable, Sendable {
    /// The translation.
    public var translation: (x: Double, y: Double)
    /// The scale along x and y.
    public var scale: (x: Double, y: Double)
    /// Radians, `atan2` of the normalised x axis.
    public var angle: Double
    /// The shear left after scale and rotation: row 0 is (1, 0) after decomposition.
    public var residual: (m11: Double, m12: Double, m21: Double, m22: Double)

    public static func == (a: Decomposed2D, b: Decomposed2D) -> Bool {
        a.translation == b.translation && a.scale == b.scale && a.angle == b.angle && a.residual == b.residual
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(translation.x); hasher.combine(translation.y)
        hasher.combine(scale.x); hasher.combine(scale.y); hasher.combine(angle)
    }

    /// Decomposes the 2-D part of `t` (`m11 m12 m21 m22 m41 m42`).
    public init(_ t: Transform3D) {
        var r0 = (x: t.m11, y: t.m12), r1 = (x: t.m21, y: t.m22)
        translation = (t.m41, t.m42)
        var sx = (r0.x * r0.x + r0.y * r0.y).squareRoot(), sy = (r1.x * r1.x + r1.y * r1.y).squareRoot()
        // A reflection: negate the scale of one axis (CSS: the x axis unless m11 < m22).
        if r0.x * r1.y - r0.y * r1.x < 0 {
            if r0.x < r1.y { sx = -sx } else { sy = -sy }
        }
        if sx != 0 { r0 = (r0.x / sx, r0.y / sx) }
        if sy != 0 { r1 = (r1.x / sy, r1.y / sy) }
        scale = (sx, sy)
        angle = atan2(r0.y, r0.x)
        // Undo the rotation: rows · R(−angle).
        let c = cos(angle), s = sin(angle)
        residual = (r0.x * c + r0.y * s, -r0.x * s + r0.y * c, r1.x * c + r1.y * s, -r1.x * s + r1.y * c)
    }

    /// A decomposition from its parts.
    public init(translation: (x: Double, y: Double), scale: (x: Double, y: Double), angle: Double,
                residual: (m11: Double, m12: Double, m21: Double, m22: Double)) {
        self.translation = translation
        self.scale = scale
        self.angle = angle
        self.residual = residual
    }

    /// The affine transform these parts make.
    public var transform: Transform3D { transform(cosine: cos(angle), sine: sin(angle)) }

    /// The same, with the angle's cosine and sine already known.
    func transform(cosine c: Double, sine s: Double) -> Transform3D {
        let a = residual.m11 * scale.x, b = residual.m12 * scale.x
        let d = residual.m21 * scale.y, e = residual.m22 * scale.y
        var t = Transform3D.identity
        t.m11 = a * c - b * s; t.m12 = a * s + b * c
        t.m21 = d * c - e * s; t.m22 = d * s + e * c
        t.m41 = translation.x; t.m42 = translation.y
        return t
    }

    /// Componentwise interpolation with CSS's two fixes: a flip on opposite axes becomes a
    /// rotation by 180°, and the angle goes the short way round.
    public static func interpolate(_ from: Decomposed2D, _ to: Decomposed2D, _ p: Double) -> Decomposed2D {
        let (a, b) = aligned(from, to)
        return lerp(a, b, p)
    }

    /// The two ends with CSS's fixes applied, ready for `lerp`: they depend on the ends
    /// only, so an animation applies them once.
    static func aligned(_ from: Decomposed2D, _ to: Decomposed2D) -> (Decomposed2D, Decomposed2D) {
        var a = from, b = to
        if (a.scale.x < 0 && b.scale.y < 0) || (a.scale.y < 0 && b.scale.x < 0) {
            a.scale = (-a.scale.x, -a.scale.y)
            a.angle += a.angle < 0 ? Double.pi : -Double.pi
        }
        if a.angle == 0 { a.angle = 2 * Double.pi }
        if b.angle == 0 { b.angle = 2 * Double.pi }
        if abs(a.angle - b.angle) > Double.pi {
            if a.angle > b.angle { a.angle -= 2 * Double.pi } else { b.angle -= 2 * Double.pi }
        }
        return (a, b)
    }

    /// Every part of `a` moved towards `b` by `p`.
    static func lerp(_ a: Decomposed2D, _ b: Decomposed2D, _ p: Double) -> Decomposed2D {
        func lerp(_ x: Double, _ y: Double) -> Double { x + (y - x) * p }
        return Decomposed2D(
            translation: (lerp(a.translation.x, b.translation.x), lerp(a.translation.y, b.translation.y)),
            scale: (lerp(a.scale.x, b.scale.x), lerp(a.scale.y, b.scale.y)),
            angle: lerp(a.angle, b.angle),
            residual: (lerp(a.residual.m11, b.residual.m11), lerp(a.residual.m12, b.residual.m12),
                       lerp(a.residual.m21, b.residual.m21), lerp(a.residual.m22, b.residual.m22)))
    }
}

/// Two affine transforms decomposed once, for interpolating between them many times: an
/// animation's ends do not change while it runs, and decomposing both costs an `atan2`, two
/// cosines and two sines every frame. Gives exactly what `Transform3D.interpolated(to:by:)`
/// gives for the same ends (it is how that method interpolates affine ends).
public struct AffineInterpolation: Sendable {
    private let from: Decomposed2D, to: Decomposed2D
    private let m33: (from: Double, to: Double), m43: (from: Double, to: Double)
    /// The cosine and sine of the angle when both ends have the same one (a move or a scale):
    /// every step then has that angle, and needs no trigonometry at all.
    private let fixedTurn: (cosine: Double, sine: Double)?

    /// Nil unless both ends are affine.
    public init?(from: Transform3D, to: Transform3D) {
        guard from.isAffine && to.isAffine else { return nil }
        (self.from, self.to) = Decomposed2D.aligned(Decomposed2D(from), Decomposed2D(to))
        m33 = (from.m33, to.m33)
        m43 = (from.m43, to.m43)
        let angle = self.from.angle
        fixedTurn = angle == self.to.angle ? (cos(angle), sin(angle)) : nil
    }

    /// The transform a fraction `p` of the way (0: `from`, 1: `to`).
    public func transform(at p: Double) -> Transform3D {
        let parts = Decomposed2D.lerp(from, to, p)
        // x + (x − x) · p is x again for any finite p.
        var result = if let fixedTurn, p.isFinite {
            parts.transform(cosine: fixedTurn.cosine, sine: fixedTurn.sine)
        } else {
            parts.transform
        }
        result.m33 = m33.from + (m33.to - m33.from) * p
        result.m43 = m43.from + (m43.to - m43.from) * p
        return result
    }
}

/// A 3-D transform split the way CSS Transforms 2 interpolates it: perspective,
/// translation, scale, skew (xy, xz, yz) and a rotation quaternion (x, y, z, w).
public struct Decomposed3D: Hashable, Sendable {
    /// The perspective row (4 numbers).
    public var perspective: [Double]
    /// The translation (x, y, z).
    public var translation: [Double]
    /// The scale along x, y, z.
    public var scale: [Double]
    /// The skews xy, xz, yz.
    public var skew: [Double]
    /// The rotation as a unit quaternion (x, y, z, w).
    public var quaternion: [Double]

    /// Nil when `t` cannot be decomposed (m44 = 0 or a singular 3×3 part).
    public init?(_ t: Transform3D) {
        var m = Self.rows(t)
        guard m[3][3] != 0 else { return nil }
        for i in 0..<4 { for j in 0..<4 { m[i][j] /= m[3][3] } }
        var p = m
        for i in 0..<3 { p[i][3] = 0 }
        p[3][3] = 1
        let pt = Self.transform(p)
        guard Self.determinant(pt) != 0 else { return nil }
        if m[0][3] != 0 || m[1][3] != 0 || m[2][3] != 0 {
            // Solve [m03 m13 m23 m33] = perspective · transpose(P⁻¹)ᵀ, i.e. perspective = rhs · (P⁻¹)ᵀ.
            let rhs = [m[0][3], m[1][3], m[2][3], m[3][3]]
            let inverse = Self.rows(pt.inverted())
            perspective = (0..<4).map { j in (0..<4).reduce(0.0) { $0 + rhs[$1] * inverse[j][$1] } }
        } else {
            perspective = [0, 0, 0, 1]
        }
        translation = [m[3][0], m[3][1], m[3][2]]
        var row = (0..<3).map { [m[$0][0], m[$0][1], m[$0][2]] }
        var scale = [0.0, 0, 0], skew = [0.0, 0, 0]
        scale[0] = Self.length(row[0]); row[0] = Self.normalized(row[0])
        skew[0] = Self.dot(row[0], row[1]); row[1] = Self.combine(row[1], row[0], 1, -skew[0])
        scale[1] = Self.length(row[1]); row[1] = Self.normalized(row[1]); skew[0] /= scale[1]
        skew[1] = Self.dot(row[0], row[2]); row[2] = Self.combine(row[2], row[0], 1, -skew[1])
        skew[2] = Self.dot(row[1], row[2]); row[2] = Self.combine(row[2], row[1], 1, -skew[2])
        scale[2] = Self.length(row[2]); row[2] = Self.normalized(row[2]); skew[1] /= scale[2]; skew[2] /= scale[2]
        if Self.dot(row[0], Self.cross(row[1], row[2])) < 0 {
            for i in 0..<3 {
                scale[i] = -scale[i]
                row[i] = row[i].map { -$0 }
            }
        }
        var q = [0.5 * max(1 + row[0][0] - row[1][1] - row[2][2], 0).squareRoot(),
                 0.5 * max(1 - row[0][0] + row[1][1] - row[2][2], 0).squareRoot(),
                 0.5 * max(1 - row[0][0] - row[1][1] + row[2][2], 0).squareRoot(),
                 0.5 * max(1 + row[0][0] + row[1][1] + row[2][2], 0).squareRoot()]
        if row[2][1] > row[1][2] { q[0] = -q[0] }
        if row[0][2] > row[2][0] { q[1] = -q[1] }
        if row[1][0] > row[0][1] { q[2] = -q[2] }
        self.scale = scale
        self.skew = skew
        quaternion = q
    }

    /// A decomposition from its parts.
    public init(perspective: [Double], translation: [Double], scale: [Double], skew: [Double], quaternion: [Double]) {
        self.perspective = perspective
        self.translation = translation
        self.scale = scale
        self.skew = skew
        self.quaternion = quaternion
    }

    /// The transform these parts make (CSS Transforms 2 "recomposing to a 3D matrix").
    public var transform: Transform3D {
        var m = Self.rows(.identity)
        for i in 0..<4 { m[i][3] = perspective[i] }
        // Translation applied after the perspective: row 3 += t · rows 0…2, all four columns.
        for i in 0..<4 { for j in 0..<3 { m[3][i] += translation[j] * m[j][i] } }
        let (x, y, z, w) = (quaternion[0], quaternion[1], quaternion[2], quaternion[3])
        var r = Self.rows(.identity)
        r[0][0] = 1 - 2 * (y * y + z * z); r[0][1] = 2 * (x * y - z * w); r[0][2] = 2 * (x * z + y * w)
        r[1][0] = 2 * (x * y + z * w); r[1][1] = 1 - 2 * (x * x + z * z); r[1][2] = 2 * (y * z - x * w)
        r[2][0] = 2 * (x * z - y * w); r[2][1] = 2 * (y * z + x * w); r[2][2] = 1 - 2 * (x * x + y * y)
        // The rotation's rows are the images of the axes in the row-vector convention.
        m = Self.multiply(Self.transposed(r), m)
        if skew[2] != 0 { var s = Self.rows(.identity); s[2][1] = skew[2]; m = Self.multiply(s, m) }
        if skew[1] != 0 { var s = Self.rows(.identity); s[2][0] = skew[1]; m = Self.multiply(s, m) }
        if skew[0] != 0 { var s = Self.rows(.identity); s[1][0] = skew[0]; m = Self.multiply(s, m) }
        for i in 0..<3 { for j in 0..<4 { m[i][j] *= scale[i] } }
        return Self.transform(m)
    }

    /// Linear in every part but the rotation, which is slerped along the shorter arc
    /// (rule 20); exactly opposite rotations (dot = −1) switch at the halfway point
    /// (Lamina choice).
    public static func interpolate(_ a: Decomposed3D, _ b: Decomposed3D, _ p: Double) -> Decomposed3D {
        func lerp(_ x: [Double], _ y: [Double]) -> [Double] { zip(x, y).map { $0 + ($1 - $0) * p } }
        var qb = b.quaternion
        var dot = Self.dot4(a.quaternion, qb)
        let antipodal = dot <= -1 + 1e-12
        if dot < 0 {
            qb = qb.map { -$0 }
            dot = -dot
        }
        let q: [Double]
        if antipodal {
            q = p < 0.5 ? a.quaternion : b.quaternion
        } else if dot >= 1 - 1e-12 {
            q = lerp(a.quaternion, qb)
        } else {
            let theta = acos(min(dot, 1)), sinTheta = sin(theta)
            let wa = sin((1 - p) * theta) / sinTheta, wb = sin(p * theta) / sinTheta
            q = zip(a.quaternion, qb).map { wa * $0 + wb * $1 }
        }
        return Decomposed3D(perspective: lerp(a.perspective, b.perspective), translation: lerp(a.translation, b.translation),
                            scale: lerp(a.scale, b.scale), skew: lerp(a.skew, b.skew), quaternion: q)
    }

    // MARK: 4×4 helpers on rows [i][j] = m(i+1)(j+1)

    static func rows(_ t: Transform3D) -> [[Double]] {
        let e = t.entries
        return (0..<4).map { Array(e[($0 * 4)..<($0 * 4 + 4)]) }
    }

    static func transform(_ m: [[Double]]) -> Transform3D { Transform3D(entries: m.flatMap { $0 }) }

    static func multiply(_ a: [[Double]], _ b: [[Double]]) -> [[Double]] {
        (0..<4).map { (i: Int) -> [Double] in
            (0..<4).map { (j: Int) -> Double in
                var sum = 0.0
                for k in 0..<4 { sum += a[i][k] * b[k][j] }
                return sum
            }
        }
    }

    static func transposed(_ m: [[Double]]) -> [[Double]] { (0..<4).map { i in (0..<4).map { m[$0][i] } } }

    static func determinant(_ t: Transform3D) -> Double {
        let m = rows(t)
        func minor(_ r: [Int], _ c: [Int]) -> Double {
            m[r[0]][c[0]] * (m[r[1]][c[1]] * m[r[2]][c[2]] - m[r[1]][c[2]] * m[r[2]][c[1]])
                - m[r[0]][c[1]] * (m[r[1]][c[0]] * m[r[2]][c[2]] - m[r[1]][c[2]] * m[r[2]][c[0]])
                + m[r[0]][c[2]] * (m[r[1]][c[0]] * m[r[2]][c[1]] - m[r[1]][c[1]] * m[r[2]][c[0]])
        }
        var det = 0.0
        for j in 0..<4 {
            let cols = (0..<4).filter { $0 != j }
            det += (j % 2 == 0 ? 1 : -1) * m[0][j] * minor([1, 2, 3], cols)
        }
        return det
    }

    static func length(_ v: [Double]) -> Double { dot(v, v).squareRoot() }
    static func normalized(_ v: [Double]) -> [Double] {
        let l = length(v)
        return l == 0 ? v : v.map { $0 / l }
    }
    static func dot(_ a: [Double], _ b: [Double]) -> Double { a[0] * b[0] + a[1] * b[1] + a[2] * b[2] }
    static func dot4(_ a: [Double], _ b: [Double]) -> Double { a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3] }
    static func cross(_ a: [Double], _ b: [Double]) -> [Double] {
        [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]
    }
    static func combine(_ a: [Double], _ b: [Double], _ sa: Double, _ sb: Double) -> [Double] {
        (0..<3).map { sa * a[$0] + sb * b[$0] }
    }
}

extension Transform3D {
    /// Interpolation of whole transforms (rule 20): 2-D decomposition when both ends are
    /// affine, else the 3-D decomposition with a shorter-arc slerp; ends that cannot be
    /// decomposed switch at the halfway point.
    public func interpolated(to other: Transform3D, by p: Double) -> Transform3D {
        if let affine = AffineInterpolation(from: self, to: other) { return affine.transform(at: p) }
        guard let a = Decomposed3D(self), let b = Decomposed3D(other) else { return p < 0.5 ? self : other }
        return Decomposed3D.interpolate(a, b, p).transform
    }
}
