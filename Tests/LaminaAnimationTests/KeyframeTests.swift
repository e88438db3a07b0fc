import Testing
@testable import LaminaAnimation

private func scalar(_ v: AnimatableValue?) -> Double? {
    if case .scalar(let x)? = v { return x }
    return nil
}

private func values(_ xs: [Double]) -> [AnimatableValue] { xs.map { .scalar($0) } }

@Suite("Keyframe animations (rules 22–25)")
struct KeyframeTests {
    @Test("defaults: linear, no key times, no segment curves (rule 22)")
    func defaults() {
        let k = Keyframes(values: values([0, 1]))
        #expect(k.calculationMode == .linear && k.keyTimes == nil && k.timingFunctions == nil)
        #expect(CalculationMode.allCases.map(\.rawValue) == ["linear", "discrete", "paced", "cubic", "cubicPaced"])
    }

    @Test("linear: n values make n − 1 equal segments; key times move the joints; only the common prefix counts (rule 23)")
    func linear() throws {
        let even = Keyframes(values: values([0, 10, 30]))
        for (p, expected) in [(0.0, 0.0), (0.25, 5), (0.5, 10), (0.75, 20), (1, 30)] {
            #expect(abs(try #require(scalar(even.value(at: p))) - expected) < 1e-12, "p = \(p)")
        }
        let timed = Keyframes(values: values([0, 10, 30]), keyTimes: [0, 0.8, 1])
        #expect(abs(try #require(scalar(timed.value(at: 0.4))) - 5) < 1e-12)
        #expect(abs(try #require(scalar(timed.value(at: 0.9))) - 20) < 1e-12)
        let prefix = Keyframes(values: values([0, 10, 30]), keyTimes: [0, 1])      // two key times: 0 → 10
        #expect(abs(try #require(scalar(prefix.value(at: 0.5))) - 5) < 1e-12)
        #expect(Keyframes(values: values([7])).value(at: 0.5) == nil)               // one value: the model shows
    }

    @Test("segment timing functions ease the segment-local fraction (rule 23)")
    func segmentCurves() throws {
        let k = Keyframes(values: values([0, 10, 30]), timingFunctions: [.easeIn, .linear])
        #expect(abs(try #require(scalar(k.value(at: 0.25))) - 10 * TimingFunction.easeIn(0.5)) < 1e-12)
        #expect(abs(try #require(scalar(k.value(at: 0.75))) - 20) < 1e-12)
    }

    @Test("discrete: n values hold for n equal intervals; with key times, a value at 1 shows only at the end (rule 24)")
    func discrete() throws {
        let k = Keyframes(values: values([1, 2, 3]), calculationMode: .discrete)
        let expected: [(Double, Double)] = [(0, 1), (0.3, 1), (0.34, 2), (0.66, 2), (0.67, 3), (1, 3)]
        for (p, v) in expected {
            #expect(try #require(scalar(k.value(at: p))) == v, "p = \(p)")
        }
        let timed = Keyframes(values: values([1, 2, 3]), keyTimes: [0, 0.5, 1], calculationMode: .discrete)
        #expect(try #require(scalar(timed.value(at: 0.49))) == 1)
        #expect(try #require(scalar(timed.value(at: 0.99))) == 2)
        #expect(try #require(scalar(timed.value(at: 1))) == 3)
    }

    @Test("paced: constant speed over the distance; key times and curves ignored (rule 24)")
    func paced() throws {
        let k = Keyframes(values: values([0, 10, 40]), keyTimes: [0, 0.9, 1], timingFunctions: [.easeIn, .easeIn],
                          calculationMode: .paced)
        #expect(abs(try #require(scalar(k.value(at: 0.125))) - 5) < 1e-12)
        #expect(abs(try #require(scalar(k.value(at: 0.625))) - 25) < 1e-12)
    }

    @Test("cubic: Hermite with Catmull-Rom slopes in value per second (rule 25)")
    func cubic() throws {
        let k = Keyframes(values: values([0, 10, 0]), keyTimes: [0, 0.5, 1], calculationMode: .cubic)
        // u = 0.5 in segment 0 (span 0.5): slopes m0 = 20, m1 = 0 → 0.5·0 + 0.125·0.5·20 + 0.5·10 − 0.125·0.5·0.
        #expect(abs(try #require(scalar(k.value(at: 0.25))) - 6.25) < 1e-12)
        #expect(abs(try #require(scalar(k.value(at: 0.5))) - 10) < 1e-12)        // passes through the values
    }

    @Test("the animation's timing function maps time first, then the segment is found (rule 23, Lamina choice)")
    func overallCurveFirst() throws {
        var a = BasicAnimation(keyPath: "opacity", keyframes: Keyframes(values: values([0, 10, 30])), duration: 1)
        a.timingFunction = .easeIn
        var phase = MediaTiming.Phase(simpleTime: 0.5, fraction: 0.5, iteration: 0)
        let p = a.progress(for: phase)
        #expect(p == TimingFunction.easeIn(0.5))
        phase.fraction = 0.5
        #expect(abs(try #require(scalar(a.keyframes?.value(at: p))) - 20 * p) < 1e-12)   // still in segment 0
    }
}
