import LaminaGeometry
#if canImport(Glibc)
import Glibc
#endif

/// A damped harmonic oscillator, the timing of `CASpringAnimation` and UIKit's springs
/// (behaviour.md section E).
///
/// The spring moves a value from its start (displacement −1) to its target
/// (displacement 0); `fraction(at:)` is the progress 0 → 1 that overshoots and rings.
/// Time is real seconds since the spring started.
public struct Spring: Hashable, Sendable {
    private var storedMass = 1.0
    private var storedStiffness = 100.0
    private var storedDamping = 10.0
    /// Initial velocity in distances per second, positive toward the target (rule 32).
    public var initialVelocity = 0.0
    /// When false, an overdamped spring moves as a critically damped one (rule 28).
    public var allowsOverdamping = false

    /// The default spring: mass 1, stiffness 100, damping 10 (rule 27).
    public init() {}

    /// A spring by its physical parameters (Core Animation's defaults: mass 1, stiffness 100, damping 10), starting at `initialVelocity` in units of the change per second.
    public init(mass: Double = 1, stiffness: Double = 100, damping: Double = 10,
                initialVelocity: Double = 0, allowsOverdamping: Bool = false) {
        self.mass = mass
        self.stiffness = stiffness
        self.damping = damping
        self.initialVelocity = initialVelocity
        self.allowsOverdamping = allowsOverdamping
    }

    /// Mass; a value ≤ 0 is refused and the old value kept (rule 27).
    public var mass: Double {
        get { storedMass }
        set { if newValue > 0, newValue.isFinite { storedMass = newValue } }
    }

    /// Stiffness; a value ≤ 0 is refused and the old value kept.
    public var stiffness: Double {
        get { storedStiffness }
        set { if newValue > 0, newValue.isFinite { storedStiffness = newValue } }
    }

    /// Damping; a negative value is refused and the old value kept.
    public var damping: Double {
        get { storedDamping }
        set { if newValue >= 0, newValue.isFinite { storedDamping = newValue } }
    }

    /// Undamped angular frequency ω₀ = √(k/m).
    public var naturalFrequency: Double { (stiffness / mass).squareRoot() }

    /// ζ = c / (2√(km)), as set.
    public var dampingRatio: Double { damping / (2 * (stiffness * mass).squareRoot()) }

    /// The ζ the motion uses: clamped to ≤ 1 unless `allowsOverdamping`.
    public var effectiveDampingRatio: Double {
        allowsOverdamping ? dampingRatio : min(dampingRatio, 1)
    }

    /// Displacement from the target in units of the total distance: y(0) = −1,
    /// y'(0) = initialVelocity (rule 28).
    public func displacement(at t: Double) -> Double { Motion(self).displacement(at: t) }

    /// The spring's equation of motion with its constants worked out once (two square roots
    /// and three divisions, which `displacement(at:)` would pay on every call): a running
    /// animation evaluates it every frame. Gives exactly `Spring.displacement(at:)`.
    public struct Motion: Sendable {
        private enum Form: Sendable {
            /// `e^(decay·t) · (−cos(wd·t) + b·sin(wd·t))`.
            case underdamped(decay: Double, wd: Double, b: Double)
            /// `e^(−w0·t) · (−1 + (v0 − w0)·t)`.
            case critical(negatedW0: Double, slope: Double)
            /// `c1·e^(r1·t) + c2·e^(r2·t)`.
            case overdamped(c1: Double, r1: Double, c2: Double, r2: Double)
        }

        private let form: Form

        /// The motion of `spring`, its constants worked out now.
        public init(_ spring: Spring) {
            let w0 = spring.naturalFrequency, zeta = spring.effectiveDampingRatio, v0 = spring.initialVelocity
            if zeta < 1 {
                let wd = w0 * (1 - zeta * zeta).squareRoot()
                form = .underdamped(decay: -zeta * w0, wd: wd, b: (v0 - zeta * w0) / wd)
            } else if zeta == 1 {
                form = .critical(negatedW0: -w0, slope: v0 - w0)
            } else {
                let root = (zeta * zeta - 1).squareRoot()
                let r1 = -w0 * (zeta - root), r2 = -w0 * (zeta + root)
                // c1 + c2 = −1, r1·c1 + r2·c2 = v0.
                let c2 = (v0 + r1) / (r2 - r1)
                form = .overdamped(c1: -1 - c2, r1: r1, c2: c2, r2: r2)
            }
        }

        /// Displacement from the target at `t` seconds (`Spring.displacement(at:)`).
        public func displacement(at t: Double) -> Double {
            switch form {
            case .underdamped(let decay, let wd, let b): exp(decay * t) * (-cos(wd * t) + b * sin(wd * t))
            case .critical(let negatedW0, let slope): exp(negatedW0 * t) * (-1 + slope * t)
            case .overdamped(let c1, let r1, let c2, let r2): c1 * exp(r1 * t) + c2 * exp(r2 * t)
            }
        }

        /// Progress from the start value (0) to the target (1): `1 + y(t)`.
        public func fraction(at t: Double) -> Double { 1 + displacement(at: t) }
    }

    /// Progress from the start value (0) to the target (1) at `t` seconds: `1 + y(t)`.
    public func fraction(at t: Double) -> Double { 1 + displacement(at: t) }

    /// Seconds until the motion is within 10⁻³ of the target for good (rule 29).
    public var settlingDuration: Double {
        let w0 = naturalFrequency, zeta = effectiveDampingRatio, v0 = initialVelocity
        if damping == 0 { return Double(Float.greatestFiniteMagnitude) }
        if zeta < 1 {
            let wd = w0 * (1 - zeta * zeta).squareRoot()
            return -log(1e-3 / (1 + abs(v0 - zeta * w0) / wd)) / (zeta * w0)
        }
        // ζ ≥ 1: step 0.1 s, accumulated (the rounding is part of the published value).
        var t = 0.0
        for _ in 0..<100_000 {
            if abs(displacement(at: t)) < 1e-3 { return t }
            t += 0.1
        }
        return t
    }
}

extension Spring {
    /// A perceptual spring (`init(perceptualDuration:bounce:)`, rule 30): mass 1,
    /// stiffness (2π/p)², ζ = 1 − b for b ≥ 0 and 1/(1 + b) for b < 0, overdamping allowed.
    public init(perceptualDuration p: Double, bounce b: Double) {
        let stiffness = pow(2 * Double.pi / p, 2)
        let zeta = b >= 0 ? 1 - b : 1 / (1 + b)
        self.init(mass: 1, stiffness: stiffness, damping: 2 * zeta * stiffness.squareRoot(),
                  allowsOverdamping: true)
    }

    /// UIKit's duration-fit spring (`UIView.animate(withDuration:delay:usingSpringWithDamping:
    /// initialSpringVelocity:…)`, rule 31): mass 1, damping ratio ζ, and the natural
    /// frequency for which the motion is within 10⁻³ of the target at `duration`.
    /// ζ is clamped to (0, 1]. The animation that uses it runs for `duration` and is cut there.
    ///
    /// Out-of-range numbers are clamped rather than trapping (decision 86): the duration into
    /// 10⁻⁴…10⁵ s (NaN: 0.5 s), the velocity into ±10⁶ (NaN: 0), ζ into (0, 1] (NaN: 1).
    public init(dampingRatio: Double, duration: Double, initialVelocity: Double = 0) {
        let d = duration.clamped(to: 1e-4...1e5, nanAs: 0.5)
        let v = initialVelocity.clamped(to: -1e6...1e6, nanAs: 0)
        let zeta = dampingRatio.clamped(to: 1e-6...1, nanAs: 1)
        let omega = Spring.fittedNaturalFrequency(zeta: zeta, duration: d, velocity: v)
            ?? Spring.fittedNaturalFrequency(zeta: zeta, duration: d, velocity: 0)
            ?? 10 / d
        self.init(mass: 1, stiffness: omega * omega, damping: 2 * zeta * omega, initialVelocity: v)
    }

    /// The largest ω with residual(ω) = 10⁻³ on the branch ζω > v, or nil when none exists.
    static func fittedNaturalFrequency(zeta: Double, duration d: Double, velocity v: Double) -> Double? {
        if v == 0 && zeta < 1 {
            return log(1000 * zeta / (1 - zeta * zeta).squareRoot()) / (zeta * d)
        }
        func residual(_ omega: Double) -> Double {
            let beta = zeta * omega
            if zeta >= 1 { return (1 + (omega - v) * d) * exp(-omega * d) }
            let wd = omega * (1 - zeta * zeta).squareRoot()
            return abs((beta - v) / wd) * exp(-beta * d)
        }
        let target = 1e-3
        // An upper bracket: residual below target, past the hump.
        var hi = max(1.0, 10 / d, 2 * abs(v) / zeta)
        var guardCount = 0
        while residual(hi) >= target {
            hi *= 2
            guardCount += 1
            if guardCount > 200 { return nil }
        }
        // Walk down in small steps to the first point above target on the branch β > v.
        var lo = hi
        repeat {
            lo /= 1.05
            if zeta * lo <= v { return nil }
        } while residual(lo) < target
        for _ in 0..<200 {
            let mid = (lo + hi) / 2
            if mid == lo || mid == hi { break }
            if residual(mid) > target { lo = mid } else { hi = mid }
        }
        return (lo + hi) / 2
    }
}
