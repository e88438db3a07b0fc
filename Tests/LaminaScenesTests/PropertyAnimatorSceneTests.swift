import Lamina
import LaminaScenes
import LaminaTestSupport
import Testing

/// The property-animator scene's changes of direction (issue 15): a release reverses from
/// where the circle is, over the fraction already done, not over the full 4 s.
@Suite("Property-animator scene")
struct PropertyAnimatorSceneTests {
    /// The circle's presented scale now.
    static func scale(_ scene: PropertyAnimatorScene) -> Double {
        scene.circle.presentation()?.transform.m11 ?? scene.circle.transform.m11
    }

    @Test("held for 1 s it grows on the ease-out curve; released it shrinks from there over the fraction done × 4 s, with no jump")
    func reversal() throws {
        let rig = try DummyDisplayRig(width: 800, height: 600, refresh: 60, start: 0)
        let runtime = rig.makeRuntime()
        let scene = try runtime.install(PropertyAnimatorScene.self, settings: NoSettings())
        #expect(runtime.run(untilSettled: true) == .settled)
        let t0 = rig.clock.now
        // A drag of 1 s: the pan begins within the first motion, so it grows for about 1 s.
        runtime.addTouchSource(ScriptedTouchSource(script: try TouchScript(parsing: "at 0.1 drag 400,300 500,300 over 1.0"), start: t0))
        // Sampled once a frame (a link would keep the run from settling, so the run goes a
        // frame at a time).
        var scales: [(time: Double, scale: Double)] = []
        for _ in 0..<(8 * 60) {
            runtime.run(exitAfter: 1.0 / 60, untilSettled: false)
            scales.append((rig.clock.now, Self.scale(scene)))
        }
        #expect(runtime.run(untilSettled: true) == .settled)
        #expect(scene.durationFactors.count == 2)
        let grown = try #require(scene.durationFactors.last)
        // About a quarter of the 4 s ran: ease-out (0, 0, 0.58, 1) is past a quarter of its
        // way by then, so the circle is well over 1x.
        #expect(grown > 0.2 && grown < 0.3, "fraction done at release: \(grown)")
        let peak = scales.map(\.scale).max() ?? 1
        #expect(peak > 1.3 && peak < 1.7)
        // Back at rest within the fraction done × 4 s (plus a frame), not 4 s.
        let release = t0 + 0.1 + 1.0
        let rest = try #require(scales.first { $0.time > release && abs($0.scale - 1) < 1e-6 })
        #expect(rest.time - release <= grown * 4 + 1.0 / 30, "back at rest \(rest.time - release) s after the release")
        #expect(Self.scale(scene) == 1 && !scene.isGrowing)
        // No jump: from frame to frame the scale moves by less than a frame's worth of the curve.
        let steps = zip(scales, scales.dropFirst()).map { abs($1.scale - $0.scale) }
        #expect((steps.max() ?? 0) < 0.05)
    }
}
