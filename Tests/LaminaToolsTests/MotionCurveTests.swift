import Foundation
import Testing
@testable import Lamina
@testable import LaminaTools
@testable import LaminaAnimation

/// `lamina curve`'s sampling goes through a real layer tree: the measured rows of behaviour.md
/// rules 8 and 9 must come out of it as they come out of the pure evaluator.
@Suite("Motion curves through the engine (rules 5, 8, 9, 10)")
struct MotionCurveTests {
    static let times = [0, 0.2, 0.5, 0.9, 1.2, 1.5, 1.9, 2.1, 3.0, 4.5]

    static func opacityAnimation(_ configure: (inout BasicAnimation) -> Void) -> BasicAnimation {
        var a = BasicAnimation(keyPath: "opacity", from: .scalar(0), to: .scalar(1), duration: 1)
        a.isRemovedOnCompletion = false
        configure(&a)
        return a
    }

    @Test("rule 8 rows, sampled frame by frame through a layer tree (model 0.5)", arguments: [
        ("autoreverses", [0, 0.2, 0.5, 0.9, 0.8, 0.5, 0.1, 0.5, 0.5, 0.5]),
        ("repeatCount", [0, 0.2, 0.5, 0.9, 0.2, 0.5, 0.9, 0.1, 0.5, 0.5]),
        ("repeatDuration", [0, 0.2, 0.5, 0.9, 0.2, 0.5, 0.5, 0.5, 0.5, 0.5]),
        ("speed 2", [0, 0.4, 1.0, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5]),
        ("timeOffset", [0.3, 0.5, 0.8, 0.2, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5]),
        ("speed -1", [0, 0.8, 0.5, 0.1, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5]),
        ("duration 0", [0, 0.8, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5]),
    ])
    func rule8(variant: String, expected: [Double]) {
        let animation = Self.opacityAnimation { a in
            switch variant {
            case "autoreverses": a.timing.autoreverses = true
            case "repeatCount": a.timing.repeatCount = 2.5
            case "repeatDuration": a.timing.repeatDuration = 1.7
            case "speed 2": a.timing.speed = 2
            case "timeOffset": a.timing.timeOffset = 0.3
            case "speed -1": a.timing.speed = -1
            default: a.timing.duration = 0                               // ⇒ 0.25 s at commit (rule 5)
            }
        }
        let samples = MotionCurves.basic(animation, model: 0.5, at: Self.times)
        for (sample, value) in zip(samples, expected) {
            #expect(abs(sample.value - value) < 1e-9, "\(variant) at t = \(sample.t): \(sample.value)")
        }
    }

    @Test("rule 9 fill modes through a layer tree (beginTime 1 is absolute layer time)", arguments: [
        (FillMode.removed, [0.5, 0.5, 0.0, 0.5, 0.5]),
        (FillMode.forwards, [0.5, 0.5, 0.0, 0.5, 1.0]),
        (FillMode.backwards, [0.0, 0.0, 0.0, 0.5, 0.5]),
        (FillMode.both, [0.0, 0.0, 0.0, 0.5, 1.0]),
    ])
    func rule9(fill: FillMode, expected: [Double]) {
        let animation = Self.opacityAnimation { $0.timing.beginTime = 1; $0.timing.fillMode = fill }
        let samples = MotionCurves.basic(animation, model: 0.5, at: [0, 0.5, 1, 1.5, 2.5])
        #expect(samples.map(\.value) == expected, "\(fill)")
    }

    @Test("removed on completion: the end instant shows the terminal value, then the model (rule 10)")
    func removal() {
        var animation = BasicAnimation(keyPath: "opacity", from: .scalar(0), to: .scalar(1), duration: 1)
        animation.timing.fillMode = .forwards                              // no visible effect once removed
        let samples = MotionCurves.basic(animation, model: 0.5, at: [0.5, 1, 1.5])
        #expect(samples.map(\.value) == [0.5, 1, 0.5])
    }

    @Test("timing and spring samples are the engine's own values")
    func timingAndSpring() {
        let eased = MotionCurves.timing(.easeInEaseOut, at: [0, 0.5, 1])
        #expect(eased.map(\.value) == [0, 0.5, 1])                         // ease-in-out is symmetric
        let spring = Spring()
        let samples = MotionCurves.spring(spring, at: [0, spring.settlingDuration])
        #expect(samples[0].value == 0)
        #expect(abs(samples[1].value - 1) < 1e-3)                          // settled within 10⁻³ (rule 29)
    }

    @Test("the plot is drawn: the curve's colour appears along the samples")
    func plot() {
        let image = MotionCurves.plot(MotionCurves.timing(.linear, at: MotionCurves.evenly(from: 0, to: 1, count: 50)),
                                      title: "linear")
        var blue = 0
        for y in 0..<image.height {
            for x in 0..<image.width where image[x, y] == 0xFF3B_82F6 { blue += 1 }
        }
        #expect(blue > 300)                                                // a 2.5 px line across ~640 px
    }
}
