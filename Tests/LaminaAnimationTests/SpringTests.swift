import Foundation
import Testing
@testable import LaminaAnimation

@Suite("Springs (rules 27–31)")
struct SpringTests {
    @Test("defaults and refused setters (rule 27)")
    func defaults() {
        var spring = Spring()
        #expect(spring.mass == 1 && spring.stiffness == 100 && spring.damping == 10)
        #expect(spring.initialVelocity == 0 && !spring.allowsOverdamping)
        spring.mass = 0
        spring.stiffness = -5
        spring.damping = -1
        #expect(spring.mass == 1 && spring.stiffness == 100 && spring.damping == 10)
        spring.damping = 0
        #expect(spring.damping == 0)
    }

    @Test("settlingDuration of the default spring is Apple's 1.4727003346780927 (rule 29)")
    func defaultSettling() {
        #expect(abs(Spring().settlingDuration - 1.4727003346780927) < 1e-12)
    }

    @Test("underdamped closed form: y(0) = −1, y'(0) = v₀, and the formula of rule 28")
    func underdamped() {
        let spring = Spring(mass: 2, stiffness: 300, damping: 6, initialVelocity: 3)
        #expect(spring.displacement(at: 0) == -1)
        let h = 1e-6
        let slope = (spring.displacement(at: h) - spring.displacement(at: -h)) / (2 * h)
        #expect(abs(slope - 3) < 1e-6)
        // Independent check: the ODE m·y'' + c·y' + k·y = 0 by central differences.
        for t in [0.1, 0.37, 1.2] {
            let y = spring.displacement(at: t)
            let y1 = (spring.displacement(at: t + 1e-4) - spring.displacement(at: t - 1e-4)) / 2e-4
            let y2 = (spring.displacement(at: t + 1e-4) - 2 * y + spring.displacement(at: t - 1e-4)) / 1e-8
            #expect(abs(2 * y2 + 6 * y1 + 300 * y) < 1e-3)
        }
    }

    @Test("overdamped damping gives the critically damped curve unless allowed (rule 28)")
    func overdampingClamp() {
        let clamped = Spring(mass: 1, stiffness: 100, damping: 50)
        let critical = Spring(mass: 1, stiffness: 100, damping: 20)
        for t in [0.05, 0.2, 0.6] {
            #expect(abs(clamped.displacement(at: t) - critical.displacement(at: t)) < 1e-15)
            #expect(abs(critical.displacement(at: t) - exp(-10 * t) * (-1 - 10 * t)) < 1e-15)
        }
        let over = Spring(mass: 1, stiffness: 100, damping: 50, initialVelocity: 2, allowsOverdamping: true)
        #expect(abs(over.displacement(at: 0) + 1) < 1e-12)
        let slope = (over.displacement(at: 1e-7) - over.displacement(at: -1e-7)) / 2e-7
        #expect(abs(slope - 2) < 1e-5)
        #expect(over.displacement(at: 0.3) < critical.displacement(at: 0.3) + 1)   // finite and moving
    }

    @Test("critically damped settling steps 0.1 s and keeps the accumulated rounding (rule 29)")
    func criticalSettling() {
        let spring = Spring(mass: 1, stiffness: 100, damping: 20)
        var t = 0.0
        while abs(exp(-10 * t) * (-1 - 10 * t)) >= 1e-3 { t += 0.1 }
        #expect(spring.settlingDuration == t)
        #expect(Spring(damping: 0).settlingDuration == Double(Float.greatestFiniteMagnitude))
    }

    @Test("perceptual springs (rule 30)")
    func perceptual() {
        let s = Spring(perceptualDuration: 0.5, bounce: 0.3)
        #expect(abs(s.stiffness - pow(2 * .pi / 0.5, 2)) < 1e-9)
        #expect(abs(s.dampingRatio - 0.7) < 1e-12)
        #expect(s.allowsOverdamping)
        #expect(abs(Spring(perceptualDuration: 1, bounce: -0.5).dampingRatio - 2) < 1e-12)
    }

    @Test("UIKit duration fit with v = 0 closes to ω = ln(1000ζ/√(1−ζ²))/(ζD) (rule 31)")
    func uikitFitClosedForm() {
        let s = Spring(dampingRatio: 0.5, duration: 1)
        let omega = log(1000 * 0.5 / (0.75).squareRoot()) / 0.5
        #expect(abs(s.stiffness - omega * omega) / (omega * omega) < 1e-12)
        #expect(abs(s.damping - 2 * 0.5 * omega) < 1e-9)
        #expect(s.mass == 1)
        let critical = Spring(dampingRatio: 1, duration: 0.5)
        #expect(abs(critical.naturalFrequency * 0.5 - 9.2334134764515865) < 1e-9)
    }

    @Test("UIKit fit with velocity solves |(β − v)/ω_d|·e^(−βD) = 10⁻³ on the branch β > v (rule 31)",
          arguments: [(0.9, 0.25, 1.5), (0.15, 0.45, 5.5), (0.5, 1.0, -3.0), (0.7, 0.3, 8.0)])
    func uikitFitWithVelocity(zeta: Double, duration: Double, velocity: Double) {
        let s = Spring(dampingRatio: zeta, duration: duration, initialVelocity: velocity)
        let omega = s.naturalFrequency
        let beta = zeta * omega, wd = omega * (1 - zeta * zeta).squareRoot()
        #expect(beta > velocity)
        #expect(abs(abs((beta - velocity) / wd) * exp(-beta * duration) - 1e-3) < 1e-9)
        #expect(abs(s.dampingRatio - zeta) < 1e-12)
        #expect(s.initialVelocity == velocity)
        // Largest root: every larger ω is below the threshold.
        for k in [1.01, 1.5, 3.0] {
            let w = omega * k, b = zeta * w, d = w * (1 - zeta * zeta).squareRoot()
            #expect(abs((b - velocity) / d) * exp(-b * duration) < 1e-3)
        }
    }
}

extension SpringTests {
    /// [Lamina choice] (decisions.md, "UIKit spring fit without a root"): when the velocity is
    /// so large that the residual never reaches 10⁻³ on the branch β > v, use the v = 0 fit.
    @Test("UIKit fit falls back to the v = 0 fit when no root exists (rule 31, Lamina choice)")
    func uikitFitFallback() {
        let zeta = 0.7, duration = 0.3, velocity = 20.0
        // The residual's peak over the branch stays below 10⁻³: no root.
        var peak = 0.0
        var omega = velocity / zeta + 1e-6
        while omega < 2000 {
            let beta = zeta * omega, wd = omega * (1 - zeta * zeta).squareRoot()
            peak = max(peak, abs((beta - velocity) / wd) * exp(-beta * duration))
            omega *= 1.001
        }
        #expect(peak < 1e-3)
        let s = Spring(dampingRatio: zeta, duration: duration, initialVelocity: velocity)
        let fallback = Spring(dampingRatio: zeta, duration: duration, initialVelocity: 0)
        #expect(s.stiffness == fallback.stiffness && s.damping == fallback.damping)
        #expect(s.initialVelocity == velocity)
    }
}

@Suite("Timing functions (rules 11–12)")
struct TimingFunctionTests {
    @Test("named control points (rule 11)")
    func named() {
        let ease = TimingFunction.default
        #expect(ease.x1 == 0.25 && ease.y1 == 0.1 && ease.x2 == 0.25 && ease.y2 == 1)
        #expect(TimingFunction.easeInEaseOut.x1 == 0.42 && TimingFunction.easeInEaseOut.x2 == 0.58)
        #expect(TimingFunction.named("easeOut")?.x2 == 0.58)
        #expect(TimingFunction.named("bogus") == nil)
    }

    @Test("clamped input, exact linear, no NaN at p = 0 (rule 12)")
    func edges() {
        #expect(TimingFunction.linear(0) == 0 && TimingFunction.linear(0.37) == 0.37)
        #expect(TimingFunction.easeIn(-0.5) == 0 && TimingFunction.easeIn(1.5) == 1)
        #expect(!TimingFunction.easeOut(1e-9).isNaN)
    }

    @Test("control points' x is clamped to 0…1, as documented: x(s) then rises, one solution per progress")
    func clampedControlPoints() {
        let f = TimingFunction(controlPoints: -0.5, 0.2, 1.5, 0.8)
        #expect(f.x1 == 0 && f.y1 == 0.2 && f.x2 == 1 && f.y2 == 0.8)
        let same = TimingFunction(controlPoints: 0, 0.2, 1, 0.8)
        for i in 0...20 {
            #expect(f(Double(i) / 20) == same(Double(i) / 20))
        }
    }

    @Test("solved values match an independent bisection to 1e-10, and ease-in-out is symmetric")
    func precision() {
        for f in [TimingFunction.default, .easeIn, .easeOut, .easeInEaseOut, TimingFunction(controlPoints: 0.1, 0.9, 0.2, 1)] {
            for i in 1..<40 {
                let p = Double(i) / 40
                // Bisection on the Bernstein form, written independently of the solver.
                var lo = 0.0, hi = 1.0
                for _ in 0..<200 {
                    let s = (lo + hi) / 2
                    let x = 3 * (1 - s) * (1 - s) * s * f.x1 + 3 * (1 - s) * s * s * f.x2 + s * s * s
                    if x < p { lo = s } else { hi = s }
                }
                let s = (lo + hi) / 2
                let y = 3 * (1 - s) * (1 - s) * s * f.y1 + 3 * (1 - s) * s * s * f.y2 + s * s * s
                #expect(abs(f(p) - y) < 1e-10, "\(f) at \(p)")
            }
        }
        for p in [0.1, 0.25, 0.4] {
            #expect(abs(TimingFunction.easeInEaseOut(p) + TimingFunction.easeInEaseOut(1 - p) - 1) < 1e-12)
        }
    }
}
