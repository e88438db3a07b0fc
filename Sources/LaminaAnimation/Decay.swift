#if canImport(Glibc)
import Glibc
#endif

/// Exponential deceleration, the motion of a `UIScrollView` after a flick (rule 93): the
/// velocity is multiplied by `rate` every millisecond, so `t` seconds after a start at `v₀`
/// it is `v₀·rate^(1000t)` and the value has moved `v₀·(rate^(1000t) − 1) / (1000·ln rate)`,
/// approaching `−v₀ / (1000·ln rate)` (the projection) and never reaching it.
///
/// As an animation's timing (`BasicAnimation.decay`), progress from the start value to the
/// projected end is `1 − rate^(1000t)` in real seconds; `BasicAnimation(keyPath:velocity:decay:)`
/// builds such an animation of any property from a velocity.
public struct Decay: Hashable, Sendable {
    /// `UIScrollView.DecelerationRate.normal`: the velocity keeps 99.8 % of itself each millisecond.
    public static let normalRate = 0.998
    /// `UIScrollView.DecelerationRate.fast`: 99 % each millisecond.
    public static let fastRate = 0.99
    /// Where a decay animation stops by default: the distance left to the projected end,
    /// in the property's units (half a pixel for positions).
    public static let defaultRestDistance = 0.5

    private var storedRate = Decay.normalRate

    /// The fraction of its velocity the motion keeps each millisecond, in (0, 1); a value
    /// outside is refused and the old value kept.
    public var rate: Double {
        get { storedRate }
        set { if newValue > 0, newValue < 1 { storedRate = newValue } }
    }

    /// A decay at `rate` per millisecond (`normalRate` by default); a rate outside (0, 1)
    /// gives the normal rate.
    public init(rate: Double = Decay.normalRate) {
        self.rate = rate
    }

    /// `1000·ln(rate)`: the velocity's exponent per second (negative).
    public var exponent: Double { 1000 * log(storedRate) }

    /// The velocity `t` seconds after starting at `initialVelocity`: `v₀·rate^(1000t)`.
    public func velocity(from initialVelocity: Double, at t: Double) -> Double {
        initialVelocity * exp(exponent * t)
    }

    /// How far the value has moved `t` seconds after starting at `initialVelocity`:
    /// `v₀·(rate^(1000t) − 1) / (1000·ln rate)`.
    public func distance(from initialVelocity: Double, at t: Double) -> Double {
        initialVelocity * expm1(exponent * t) / exponent
    }

    /// Where the motion tends, relative to its start: `−v₀ / (1000·ln rate)`.
    public func projection(of initialVelocity: Double) -> Double {
        -initialVelocity / exponent
    }

    /// The part of the projected distance covered after `t` seconds: `1 − rate^(1000t)`.
    public func fraction(at t: Double) -> Double {
        -expm1(exponent * max(t, 0))
    }

    /// Seconds until less than `restDistance` of `projectedDistance` is left to go (0 when
    /// it never was more): `ln(restDistance / |d|) / (1000·ln rate)`.
    public func duration(projectedDistance: Double, restDistance: Double = Decay.defaultRestDistance) -> Double {
        let distance = abs(projectedDistance)
        guard restDistance > 0, distance > restDistance, distance.isFinite else { return 0 }
        return log(restDistance / distance) / exponent
    }

    /// Seconds until `position(at:)` of a motion from `start` at `initialVelocity` reaches
    /// `target`, or nil when it never does (the wrong way, or beyond the projection).
    public func timeToReach(_ target: Double, from start: Double, initialVelocity: Double) -> Double? {
        let projection = projection(of: initialVelocity), needed = target - start
        guard projection != 0, needed / projection >= 0, abs(needed) < abs(projection) else {
            return needed == 0 ? 0 : nil
        }
        // 1 − e^(kt) = needed / projection.
        return log1p(-needed / projection) / exponent
    }
}
