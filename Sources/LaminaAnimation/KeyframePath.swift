#if canImport(Glibc)
import Glibc
#endif
import LaminaGeometry

/// How a layer moving along a keyframe path turns (`rotationMode`, rule 26).
public enum RotationMode: String, Hashable, Sendable {
    /// Turned by the path's tangent angle.
    case auto
    /// The tangent angle plus π.
    case autoReverse
}

/// A path for keyframe animation (`CAKeyframeAnimation.path`, rule 26): the end point of
/// every element is a keyframe. Built from a drawing path's elements by LaminaLayers.
public struct KeyframePath: Sendable {
    /// One element's motion: from its start to its end point.
    public enum Segment: Sendable {
        /// A straight line from the first point to the second.
        case line(Point, Point)
        /// A quadratic curve: start, control, end.
        case quad(Point, Point, Point)
        /// A cubic curve: start, two controls, end.
        case cubic(Point, Point, Point, Point)
        /// A move inside the path: a jump that takes no time.
        case jump(Point, Point)
    }

    /// The path's segments in order.
    public var segments: [Segment]

    /// A path of `segments`.
    public init(segments: [Segment]) { self.segments = segments }

    /// The moving segments (jumps take no time).
    var timed: [Segment] { segments.filter { if case .jump = $0 { return false } else { return true } } }

    static func point(_ s: Segment, _ t: Double) -> Point {
        let u = 1 - t
        switch s {
        case let .line(a, b), let .jump(a, b): return Point(x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t)
        case let .quad(a, c, b):
            return Point(x: u * u * a.x + 2 * u * t * c.x + t * t * b.x, y: u * u * a.y + 2 * u * t * c.y + t * t * b.y)
        case let .cubic(a, c1, c2, b):
            let (w0, w1, w2, w3) = (u * u * u, 3 * u * u * t, 3 * u * t * t, t * t * t)
            return Point(x: w0 * a.x + w1 * c1.x + w2 * c2.x + w3 * b.x, y: w0 * a.y + w1 * c1.y + w2 * c2.y + w3 * b.y)
        }
    }

    static func tangent(_ s: Segment, _ t: Double) -> Point {
        let u = 1 - t
        switch s {
        case let .line(a, b), let .jump(a, b): return Point(x: b.x - a.x, y: b.y - a.y)
        case let .quad(a, c, b):
            return Point(x: 2 * u * (c.x - a.x) + 2 * t * (b.x - c.x), y: 2 * u * (c.y - a.y) + 2 * t * (b.y - c.y))
        case let .cubic(a, c1, c2, b):
            return Point(x: 3 * u * u * (c1.x - a.x) + 6 * u * t * (c2.x - c1.x) + 3 * t * t * (b.x - c2.x),
                         y: 3 * u * u * (c1.y - a.y) + 6 * u * t * (c2.y - c1.y) + 3 * t * t * (b.y - c2.y))
        }
    }

    static func start(_ s: Segment) -> Point { point(s, 0) }

    /// Arc length of a segment (by 64 chords: within 0.1 % for ordinary curves).
    static func length(_ s: Segment) -> Double {
        var total = 0.0
        var previous = point(s, 0)
        for i in 1...64 {
            let p = point(s, Double(i) / 64)
            total += ((p.x - previous.x) * (p.x - previous.x) + (p.y - previous.y) * (p.y - previous.y)).squareRoot()
            previous = p
        }
        return total
    }

    /// Segment and its local parameter for progress `p` under `mode`: equal time per element
    /// (or `keyTimes`) with the curve parameter linear in time, or constant arc-length speed
    /// for the paced modes.
    func locate(_ p: Double, mode: CalculationMode, keyTimes: [Double]?) -> (segment: Segment, t: Double)? {
        let moving = timed
        guard !moving.isEmpty else { return nil }
        let clamped = min(max(p, 0), 1)
        if mode == .paced || mode == .cubicPaced {
            let lengths = moving.map(Self.length)
            let total = lengths.reduce(0, +)
            guard total > 0 else { return (moving[0], 0) }
            var target = clamped * total
            for (i, l) in lengths.enumerated() {
                if target <= l || i == lengths.count - 1 {
                    // Arc length inside the segment: invert by bisection on its chord sums.
                    var lo = 0.0, hi = 1.0
                    for _ in 0..<40 {
                        let mid = (lo + hi) / 2
                        if Self.length(prefix: moving[i], to: mid) < target { lo = mid } else { hi = mid }
                    }
                    return (moving[i], (lo + hi) / 2)
                }
                target -= l
            }
        }
        let n = moving.count
        let times: [Double]
        if let keyTimes, keyTimes.count >= n + 1 {
            times = Array(keyTimes.prefix(n + 1))
        } else {
            times = (0...n).map { Double($0) / Double(n) }
        }
        var i = 0
        while i < n - 1 && clamped >= times[i + 1] { i += 1 }
        let span = times[i + 1] - times[i]
        let local = span > 0 ? min(max((clamped - times[i]) / span, 0), 1) : 1
        if mode == .discrete { return (moving[i], clamped >= 1 ? 1 : 0) }   // each element's start holds
        return (moving[i], local)
    }

    /// Arc length of `s` from 0 to parameter `t`.
    static func length(prefix s: Segment, to t: Double) -> Double {
        var total = 0.0
        var previous = point(s, 0)
        let steps = 64
        for i in 1...steps {
            let p = point(s, t * Double(i) / Double(steps))
            total += ((p.x - previous.x) * (p.x - previous.x) + (p.y - previous.y) * (p.y - previous.y)).squareRoot()
            previous = p
        }
        return total
    }

    /// The point at progress `p`.
    public func point(at p: Double, mode: CalculationMode, keyTimes: [Double]?) -> Point? {
        locate(p, mode: mode, keyTimes: keyTimes).map { Self.point($0.segment, $0.t) }
    }

    /// The tangent angle `atan2(dy, dx)` at progress `p`.
    public func angle(at p: Double, mode: CalculationMode, keyTimes: [Double]?) -> Double? {
        locate(p, mode: mode, keyTimes: keyTimes).map {
            let d = Self.tangent($0.segment, $0.t)
            return atan2(d.y, d.x)
        }
    }
}
