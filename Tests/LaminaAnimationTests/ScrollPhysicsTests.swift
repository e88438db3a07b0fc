import Foundation
import Testing
@testable import LaminaAnimation

/// Decay, rubber band and the scroll spring against the published formulas, written here in
/// their published forms (`pow`, the rubber band's `(1 − 1/(x·c/d + 1))·d`), not Lamina's.
@Suite("Scroll physics (rules 93–96)")
struct ScrollPhysicsTests {
    /// Every frame time over 3 s at 60 Hz, and some between.
    private static let times = (0...180).map { Double($0) / 60 } + [0.0001, 0.0123, 1.234567, 2.999]

    @Test("deceleration: x(t) = x₀ + v₀·(d^(1000t) − 1)/(1000·ln d) and v(t) = v₀·d^(1000t), both rates, within 1e-9 over 3 s (rule 93)")
    func decelerationVectors() {
        for rate in [Decay.normalRate, Decay.fastRate] {
            let decay = Decay(rate: rate)
            for v0 in [-4_800.0, -250, 0, 37.5, 3_000] {
                for t in Self.times {
                    let x = v0 * (pow(rate, 1000 * t) - 1) / (1000 * log(rate))
                    let v = v0 * pow(rate, 1000 * t)
                    #expect(abs(decay.distance(from: v0, at: t) - x) <= 1e-9 * max(1, abs(x)), "rate \(rate) v0 \(v0) t \(t)")
                    #expect(abs(decay.velocity(from: v0, at: t) - v) <= 1e-9 * max(1, abs(v)))
                }
                // WWDC18's projection uses the per-millisecond sum v₀/1000 · d/(1 − d); the
                // continuous limit differs from it by less than half a millisecond's travel.
                let projection = decay.projection(of: v0)
                #expect(abs(projection - v0 / 1000 * rate / (1 - rate)) <= abs(v0) / 1000 * 0.5 + 1e-12)
            }
        }
    }

    @Test("a decay lasts until less than the rest distance is left, and reaches a point inside its projection when the formula says")
    func decayDurationAndReach() throws {
        let decay = Decay()
        let v0 = 2_000.0, projection = decay.projection(of: v0)
        let duration = decay.duration(projectedDistance: projection, restDistance: 0.5)
        #expect(abs(projection - decay.distance(from: v0, at: duration) - 0.5) < 1e-9)
        #expect(decay.duration(projectedDistance: 0.4, restDistance: 0.5) == 0)
        let t = try #require(decay.timeToReach(300, from: 100, initialVelocity: v0))
        #expect(abs(100 + decay.distance(from: v0, at: t) - 300) < 1e-9)
        #expect(decay.timeToReach(100 + projection + 1, from: 100, initialVelocity: v0) == nil)
        #expect(decay.timeToReach(50, from: 100, initialVelocity: v0) == nil)
        var refused = Decay(rate: 1.5)
        #expect(refused.rate == Decay.normalRate)
        refused.rate = 0
        #expect(refused.rate == Decay.normalRate)
    }

    @Test("rubber band: x·d·c/(d + c·x) equals the published (1 − 1/(x·c/d + 1))·d, rises with slope c at the edge and stays under d (rule 94)")
    func rubberBand() {
        for d in [100.0, 480, 1080] {
            for x in stride(from: -3_000.0, through: 3_000, by: 37.5) {
                let magnitude = (1 - 1 / (abs(x) * 0.55 / d + 1)) * d
                let expected = x < 0 ? -magnitude : magnitude
                #expect(abs(RubberBand.distance(x, dimension: d) - expected) <= 1e-9)
                #expect(abs(RubberBand.distance(x, dimension: d)) < d)
            }
            let h = 1e-7
            #expect(abs(RubberBand.distance(h, dimension: d) / h - 0.55) < 1e-6)
            #expect(RubberBand.distance(10, dimension: d) < RubberBand.distance(11, dimension: d))
        }
        #expect(RubberBand.offset(-50, in: 0...500, dimension: 400) == RubberBand.distance(-50, dimension: 400))
        #expect(RubberBand.offset(530, in: 0...500, dimension: 400) == 500 + RubberBand.distance(30, dimension: 400))
        #expect(RubberBand.offset(250, in: 0...500, dimension: 400) == 250)
    }

    @Test("the scroll spring is the critically damped spring of rule 28 (mass 1, stiffness 100, damping 20) scaled to its start (rule 95)")
    func springMatchesRule28() {
        let bounce = ScrollSpring()
        for (y0, v) in [(80.0, 0.0), (-120, 900), (40, -3_000), (-15, -200)] {
            // Rule 28's y starts at −1 with velocity v₀ toward the target; scaled by −y₀ it
            // starts at y₀ with velocity −y₀·v₀.
            let reference = Spring(mass: 1, stiffness: 100, damping: 20, initialVelocity: -v / y0)
            for t in Self.times {
                let expected = -y0 * reference.displacement(at: t)
                #expect(abs(bounce.displacement(from: y0, velocity: v, at: t) - expected) <= 1e-9 * max(1, abs(y0)))
            }
        }
    }

    @Test("released inside, the motion is the deceleration to rest; released past the projection's edge, it bounces there with position and velocity continuous")
    func motionPieces() throws {
        let decay = Decay()
        let inside = ScrollMotion(offset: 200, velocity: 800, range: 0...5_000)
        for t in Self.times where t < inside.duration {
            #expect(abs(inside.position(at: t) - (200 + 800 * (pow(0.998, 1000 * t) - 1) / (1000 * log(0.998)))) <= 1e-9)
        }
        #expect(inside.isFinished(at: inside.duration) && !inside.isFinished(at: inside.duration - 0.01))
        #expect(abs(inside.finalPosition - (200 + decay.projection(of: 800))) <= 0.5 + 1e-9)

        let bouncing = ScrollMotion(offset: 900, velocity: 2_000, range: 0...1_000)
        let crossing = try #require(decay.timeToReach(1_000, from: 900, initialVelocity: 2_000))
        let h = 1e-7
        #expect(abs(bouncing.position(at: crossing) - 1_000) < 1e-9)
        let before = bouncing.velocity(at: crossing - h), after = bouncing.velocity(at: crossing + h)
        #expect(abs(before - after) < 1e-3 * abs(before))
        let peak = stride(from: crossing, through: crossing + 1, by: 0.001).map { bouncing.position(at: $0) }.max() ?? 0
        #expect(peak > 1_000 && peak < 1_100)
        #expect(bouncing.finalPosition == 1_000 && bouncing.position(at: bouncing.duration + 0.5) == 1_000)

        let stopping = ScrollMotion(offset: 900, velocity: 2_000, range: 0...1_000, bounces: false)
        #expect(abs(stopping.duration - crossing) < 1e-12 && stopping.finalPosition == 1_000)
    }

    @Test("released beyond an edge it springs back; flung back hard enough it passes the edge and decelerates inside")
    func springBack() {
        let back = ScrollMotion(offset: -60, velocity: 0, range: 0...1_000)
        let bounce = ScrollSpring()
        for t in Self.times where t < back.duration {
            #expect(abs(back.position(at: t) - bounce.displacement(from: -60, velocity: 0, at: t)) <= 1e-9)
            #expect(back.position(at: t) <= 0)                     // from rest it never passes the edge
        }
        #expect(back.finalPosition == 0)

        let flung = ScrollMotion(offset: -60, velocity: 3_000, range: 0...1_000)
        #expect(flung.finalPosition > 100 && flung.finalPosition <= 1_000)
        let positions = stride(from: 0.0, through: flung.duration, by: 1.0 / 60).map { flung.position(at: $0) }
        #expect(zip(positions, positions.dropFirst()).allSatisfy { $0 <= $1 + 1e-9 })   // onward, never back
    }

    @Test("paging: a spring onto the page, arriving exactly")
    func paging() {
        let page = ScrollMotion(springingFrom: 1_130, velocity: 1_500, to: 1_920)
        #expect(page.finalPosition == 1_920 && page.position(at: page.duration) == 1_920)
        #expect(abs(page.position(at: 0) - 1_130) < 1e-12)
        #expect(page.duration > 0.3 && page.duration < 2)
    }

    @Test("a spring animation without a duration lasts the spring's settlingDuration (the duration given once)")
    func springDurationOnce() {
        let spring = Spring(dampingRatio: 0.7, duration: 0.5)
        #expect(BasicAnimation(keyPath: "position", to: .scalar(1), spring: spring).timing.duration == spring.settlingDuration)
        #expect(BasicAnimation(keyPath: "position", to: .scalar(1), spring: spring, duration: 2).timing.duration == 2)
    }

    @Test("a decay animation's value is from + (projection)·(1 − d^(1000t)) and it ends when under the rest distance")
    func decayAnimation() {
        let animation = BasicAnimation(keyPath: "position", from: .point(.init(x: 10, y: 20)),
                                       velocity: .point(.init(x: 600, y: -1_200)), decay: Decay(rate: Decay.fastRate))
        let k = -1 / (1000 * log(0.99))
        guard case .point(let by)? = animation.byValue else {
            Issue.record("no byValue")
            return
        }
        #expect(abs(by.x - 600 * k) < 1e-9 && abs(by.y + 1_200 * k) < 1e-9)
        #expect(abs(1_200 * k * pow(0.99, 1000 * animation.timing.duration) - 0.5) < 1e-9)
        var timing = animation.timing
        timing.beginTime = 0
        for t in [0.0, 0.01, 0.05, 0.2] {
            let phase = timing.phase(at: t)!
            #expect(abs(animation.progress(for: phase) - (1 - pow(0.99, 1000 * t))) < 1e-12)
        }
    }
}
