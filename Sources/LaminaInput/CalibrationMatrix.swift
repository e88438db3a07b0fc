import LaminaGeometry
import LaminaSystem

/// libinput's touch calibration matrix (`LIBINPUT_CALIBRATION_MATRIX`): the top two rows of
/// a 3×3 affine matrix taking a device position, normalised to 0…1, to a panel position,
/// normalised too: `x' = a·x + b·y + c`, `y' = d·x + e·y + f`.
public struct CalibrationMatrix: Equatable, Sendable, CustomStringConvertible {
    /// The six numbers, in libinput's order.
    public var a, b, c, d, e, f: Double

    /// A matrix from its six numbers.
    public init(_ a: Double, _ b: Double, _ c: Double, _ d: Double, _ e: Double, _ f: Double) {
        (self.a, self.b, self.c, self.d, self.e, self.f) = (a, b, c, d, e, f)
    }

    /// The matrix that changes nothing.
    public static let identity = CalibrationMatrix(1, 0, 0, 0, 1, 0)

    /// The six numbers as libinput takes them.
    public var values: [Float] { [a, b, c, d, e, f].map(Float.init) }

    /// `a b c d e f`, as the udev property and `[input] calibration` write it.
    public var description: String {
        [a, b, c, d, e, f].map { String(cFormat: "%.6f", $0) }.joined(separator: " ")
    }

    /// Where the matrix takes the normalised position `p`.
    public func apply(_ p: Point) -> Point {
        Point(x: a * p.x + b * p.y + c, y: d * p.x + e * p.y + f)
    }

    /// The matrix that takes each of `raw` (normalised device positions) closest to its
    /// `target` (normalised panel positions) in the least-squares sense; nil with fewer than
    /// three samples or samples on one line (no plane to fit).
    public static func fit(raw: [Point], target: [Point]) -> CalibrationMatrix? {
        guard raw.count == target.count, raw.count >= 3 else { return nil }
        // Normal equations: the same 3×3 system for both rows, two right-hand sides.
        var m = [[Double]](repeating: [0, 0, 0], count: 3)
        var rx = [0.0, 0, 0], ry = [0.0, 0, 0]
        for (p, t) in zip(raw, target) {
            let v = [p.x, p.y, 1]
            for i in 0..<3 {
                for j in 0..<3 { m[i][j] += v[i] * v[j] }
                rx[i] += v[i] * t.x
                ry[i] += v[i] * t.y
            }
        }
        func det(_ m: [[Double]]) -> Double {
            m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1])
                - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
                + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0])
        }
        let d = det(m)
        // Collinear samples (or a degenerate spread) leave the system singular.
        guard abs(d) > 1e-12 * Double(raw.count * raw.count * raw.count) else { return nil }
        func solve(_ r: [Double]) -> [Double] {
            (0..<3).map { column in
                var replaced = m
                for row in 0..<3 { replaced[row][column] = r[row] }
                return det(replaced) / d
            }
        }
        let x = solve(rx), y = solve(ry)
        let result = CalibrationMatrix(x[0], x[1], x[2], y[0], y[1], y[2])
        guard [x, y].joined().allSatisfy(\.isFinite) else { return nil }
        return result
    }
}
