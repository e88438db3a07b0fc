#if canImport(Glibc)
import Glibc
#endif

/// How content pulled beyond its edge follows the finger less and less, as in `UIScrollView`
/// (rule 94): pulled `x` past the edge of a view `d` long, it shows `x·d·c / (d + c·|x|)`
/// beyond it, with `c = 0.55`; never more than `d`.
public enum RubberBand {
    /// UIScrollView's constant, 0.55.
    public static let coefficient = 0.55

    /// How far beyond the edge the content shows when pulled `overshoot` past it (signed)
    /// in a view `dimension` long.
    public static func distance(_ overshoot: Double, dimension: Double, coefficient: Double = RubberBand.coefficient) -> Double {
        guard dimension > 0, overshoot.isFinite else { return 0 }
        return overshoot * dimension * coefficient / (dimension + coefficient * abs(overshoot))
    }

    /// `offset` with the part outside `range` rubber-banded: the offset a drag to `offset`
    /// shows.
    public static func offset(_ offset: Double, in range: ClosedRange<Double>, dimension: Double,
                              coefficient: Double = RubberBand.coefficient) -> Double {
        if offset < range.lowerBound {
            return range.lowerBound + distance(offset - range.lowerBound, dimension: dimension, coefficient: coefficient)
        }
        if offset > range.upperBound {
            return range.upperBound + distance(offset - range.upperBound, dimension: dimension, coefficient: coefficient)
        }
        return offset
    }
}

/// The spring that brings content back to its edge, or onto a page: critically damped
/// (rule 95), displacement `y(t) = (y₀ + (v₀ + ω·y₀)·t)·e^(−ωt)` from the target.
public struct ScrollSpring: Hashable, Sendable {
    /// The angular frequency ω in radians per second: 10 is mass 1, stiffness 100.
    public var frequency: Double
    /// The distance from the target, in pixels, below which the spring has arrived (it is
    /// then put on the target).
    public var restDistance: Double

    /// A spring of `frequency` (10 by default) that arrives within `restDistance` (0.01 px).
    public init(frequency: Double = 10, restDistance: Double = 0.01) {
        self.frequency = frequency > 0 && frequency.isFinite ? frequency : 10
        self.restDistance = restDistance > 0 && restDistance.isFinite ? restDistance : 0.01
    }

    /// Displacement from the target `t` seconds after starting at `displacement` with `velocity`.
    public func displacement(from displacement: Double, velocity: Double, at t: Double) -> Double {
        let w = frequency
        return (displacement + (velocity + w * displacement) * t) * exp(-w * t)
    }

    /// Its velocity then: `e^(−ωt)·(v₀ − ω·(v₀ + ω·y₀)·t)`.
    public func velocity(from displacement: Double, velocity: Double, at t: Double) -> Double {
        let w = frequency
        return (velocity - w * (velocity + w * displacement) * t) * exp(-w * t)
    }

    /// Seconds until the displacement crosses zero, when it does (moving toward the target
    /// fast enough to pass it).
    func zeroCrossing(from displacement: Double, velocity: Double) -> Double? {
        let slope = velocity + frequency * displacement
        guard displacement != 0, slope != 0, -displacement / slope > 0 else { return nil }
        return -displacement / slope
    }

    /// Seconds until it stays within `restDistance` of the target: after its one extremum the
    /// displacement only shrinks, so the time is found by bisection from there.
    func settlingTime(from displacement: Double, velocity: Double) -> Double {
        let w = frequency, slope = velocity + w * displacement
        let extremum = slope == 0 ? 0 : max(0, velocity / (w * slope))
        func far(_ t: Double) -> Bool { abs(self.displacement(from: displacement, velocity: velocity, at: t)) > restDistance }
        guard far(extremum) else {
            // Already near at the extremum: the last time it was far lies before it.
            var low = 0.0, high = extremum
            guard far(0) else { return 0 }
            for _ in 0..<64 { let mid = (low + high) / 2; if far(mid) { low = mid } else { high = mid } }
            return high
        }
        var low = extremum, high = extremum + 1 / w
        while far(high) { low = high; high += 1 / w }
        for _ in 0..<64 { let mid = (low + high) / 2; if far(mid) { low = mid } else { high = mid } }
        return high
    }
}

/// Where scrolled content goes after the finger lifts, along one axis: a `UIScrollView`'s
/// deceleration (`Decay`), its bounce at an edge, and the spring back from beyond an edge or
/// onto a page (rules 93–96). A value worked out once at the release, then read at any time
/// since it: every frame of the motion is a closed formula, never a step of a simulation.
public struct ScrollMotion: Sendable {
    /// One piece of the motion, from `start` seconds after the release.
    private enum Piece: Sendable {
        /// Decelerating from `origin` at `velocity`.
        case decay(origin: Double, velocity: Double)
        /// Springing to `target` from `displacement` at `velocity`.
        case spring(target: Double, displacement: Double, velocity: Double)
        /// Still at `position`.
        case rest(position: Double)
    }

    private var pieces: [(start: Double, piece: Piece)] = []
    private let decay: Decay
    private let spring: ScrollSpring
    /// Seconds after the release when the motion has ended (it then stays at `finalPosition`).
    public private(set) var duration = 0.0
    /// Where the motion ends.
    public private(set) var finalPosition = 0.0

    /// The motion of content released at `offset` with `velocity` (pixels per second, in the
    /// offset's direction) where offsets in `range` are allowed. Inside the range it
    /// decelerates; where it would leave it, it bounces (`bounces`) or stops at the edge;
    /// released beyond an edge it springs back, and decelerates on inside when it comes back
    /// fast enough to pass the edge.
    public init(offset: Double, velocity: Double, range: ClosedRange<Double>, decay: Decay = Decay(),
                spring: ScrollSpring = ScrollSpring(), bounces: Bool = true,
                restDistance: Double = Decay.defaultRestDistance) {
        self.decay = decay
        self.spring = spring
        var time = 0.0, x = offset, v = velocity.isFinite ? velocity : 0
        if x < range.lowerBound || x > range.upperBound {
            let edge = x < range.lowerBound ? range.lowerBound : range.upperBound
            guard bounces else {
                finish(at: 0, position: edge)
                return
            }
            let y0 = x - edge
            guard let crossing = spring.zeroCrossing(from: y0, velocity: v) else {
                springToRest(target: edge, displacement: y0, velocity: v, at: time)
                return
            }
            // Back over the edge fast enough to go on: decelerate from the edge from then on.
            pieces.append((time, .spring(target: edge, displacement: y0, velocity: v)))
            v = spring.velocity(from: y0, velocity: v, at: crossing)
            time += crossing
            x = edge
        }
        let end = x + decay.projection(of: v)
        if end >= range.lowerBound && end <= range.upperBound || v == 0 {
            pieces.append((time, .decay(origin: x, velocity: v)))
            let rest = decay.duration(projectedDistance: end - x, restDistance: restDistance)
            finish(at: time + rest, position: x + decay.distance(from: v, at: rest))
            return
        }
        let edge = end < range.lowerBound ? range.lowerBound : range.upperBound
        let crossing = decay.timeToReach(edge, from: x, initialVelocity: v) ?? 0
        pieces.append((time, .decay(origin: x, velocity: v)))
        time += crossing
        guard bounces else {
            finish(at: time, position: edge)
            return
        }
        springToRest(target: edge, displacement: 0, velocity: decay.velocity(from: v, at: crossing), at: time)
    }

    /// A spring from `offset` moving at `velocity` to `target`: a page, or an edge.
    public init(springingFrom offset: Double, velocity: Double, to target: Double, spring: ScrollSpring = ScrollSpring()) {
        decay = Decay()
        self.spring = spring
        springToRest(target: target, displacement: offset - target, velocity: velocity.isFinite ? velocity : 0, at: 0)
    }

    private mutating func springToRest(target: Double, displacement: Double, velocity: Double, at time: Double) {
        pieces.append((time, .spring(target: target, displacement: displacement, velocity: velocity)))
        finish(at: time + spring.settlingTime(from: displacement, velocity: velocity), position: target)
    }

    private mutating func finish(at time: Double, position: Double) {
        duration = time
        finalPosition = position
        pieces.append((time, .rest(position: position)))
    }

    /// The piece running `t` seconds after the release, and the seconds since it began.
    private func piece(at t: Double) -> (Piece, Double) {
        var current = pieces[0]
        for candidate in pieces.dropFirst() where t >= candidate.start { current = candidate }
        return (current.piece, max(t - current.start, 0))
    }

    /// The offset `t` seconds after the release.
    public func position(at t: Double) -> Double {
        switch piece(at: t) {
        case (.decay(let origin, let velocity), let s): origin + decay.distance(from: velocity, at: s)
        case (.spring(let target, let y0, let v0), let s): target + spring.displacement(from: y0, velocity: v0, at: s)
        case (.rest(let position), _): position
        }
    }

    /// The velocity `t` seconds after the release (pixels per second).
    public func velocity(at t: Double) -> Double {
        switch piece(at: t) {
        case (.decay(_, let velocity), let s): decay.velocity(from: velocity, at: s)
        case (.spring(_, let y0, let v0), let s): spring.velocity(from: y0, velocity: v0, at: s)
        case (.rest, _): 0
        }
    }

    /// True from `duration` on.
    public func isFinished(at t: Double) -> Bool { t >= duration }
}
