/// A cubic Bézier easing curve from (0, 0) to (1, 1) (`CAMediaTimingFunction`).
///
/// Evaluation solves `x(s) = p` by Newton–Raphson with a derivative guard, then bisection,
/// to `ε = 1e-12` (rule 12), and clamps the input to [0, 1] as Core Animation does.
public struct TimingFunction: Sendable, CustomStringConvertible {
    /// The first control point's x (0…1).
    public let x1: Double
    /// The first control point's y.
    public let y1: Double
    /// The second control point's x (0…1).
    public let x2: Double
    /// The second control point's y.
    public let y2: Double
    /// The name of a named curve, nil for a custom one.
    public let name: String?

    /// A curve through the control points (`x1`, `y1`) and (`x2`, `y2`); x is clamped to 0…1,
    /// which keeps x(s) rising, so every progress has one solution.
    public init(controlPoints x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) {
        self.init(min(max(x1, 0), 1), y1, min(max(x2, 0), 1), y2, name: nil)
    }

    private init(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, name: String?) {
        self.x1 = x1; self.y1 = y1; self.x2 = x2; self.y2 = y2
        self.name = name
    }

    // Rule 11.
    /// Constant speed.
    public static let linear = TimingFunction(0, 0, 1, 1, name: "linear")
    /// Slow start (`kCAMediaTimingFunctionEaseIn`).
    public static let easeIn = TimingFunction(0.42, 0, 1, 1, name: "easeIn")
    /// Slow end.
    public static let easeOut = TimingFunction(0, 0, 0.58, 1, name: "easeOut")
    /// Slow start and end.
    public static let easeInEaseOut = TimingFunction(0.42, 0, 0.58, 1, name: "easeInEaseOut")
    /// Core Animation's default curve for implicit animations.
    public static let `default` = TimingFunction(0.25, 0.1, 0.25, 1, name: "default")

    /// The named curve, or nil for an unknown name.
    public static func named(_ name: String) -> TimingFunction? {
        [linear, easeIn, easeOut, easeInEaseOut, .default].first { $0.name == name }
    }

    public var description: String { name ?? "cubicBezier(\(x1), \(y1), \(x2), \(y2))" }

    /// Control point 0…3 (`getControlPoint(at:)`): (0, 0), P1, P2, (1, 1). Any other index
    /// is a programmer error and traps (rule 11).
    public func controlPoint(at index: Int) -> (x: Double, y: Double) {
        switch index {
        case 0: return (0, 0)
        case 1: return (x1, y1)
        case 2: return (x2, y2)
        case 3: return (1, 1)
        default: preconditionFailure("a timing function has control points 0…3, not \(index)")
        }
    }

    /// The eased value at input progress `p`.
    public func callAsFunction(_ p: Double) -> Double {
        if p <= 0 { return 0 }
        if p >= 1 { return 1 }
        if x1 == y1 && x2 == y2 { return p }
        let cx = 3 * x1, bx = 3 * (x2 - x1) - cx, ax = 1 - cx - bx
        let cy = 3 * y1, by = 3 * (y2 - y1) - cy, ay = 1 - cy - by
        func x(_ s: Double) -> Double { ((ax * s + bx) * s + cx) * s }
        func dx(_ s: Double) -> Double { (3 * ax * s + 2 * bx) * s + cx }
        func y(_ s: Double) -> Double { ((ay * s + by) * s + cy) * s }
        let epsilon = 1e-12
        var s = p
        for _ in 0..<8 {
            let error = x(s) - p
            if abs(error) < epsilon { return y(s) }
            let slope = dx(s)
            if abs(slope) < 1e-6 { break }
            s -= error / slope
        }
        var lo = 0.0, hi = 1.0
        s = p
        for _ in 0..<64 {
            let value = x(s)
            if abs(value - p) < epsilon { break }
            if value < p { lo = s } else { hi = s }
            s = (lo + hi) / 2
        }
        return y(s)
    }
}
