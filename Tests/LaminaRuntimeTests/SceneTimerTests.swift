import Lamina
@testable import LaminaRuntime
import LaminaTestSupport
import Testing

/// A scene that records when its timers fire.
final class TimerScene: Scene {
    static let name = "timers"
    var fired: [(name: String, time: Double)] = []
    var repeating: SceneTimer!
    let context: SceneContext

    init(context: SceneContext, settings: NoSettings) {
        self.context = context
        context.addTimer(interval: 1.0) { [unowned self] _ in fired.append(("once", context.now)) }
        repeating = context.addTimer(interval: 0.3, repeats: true) { [unowned self] _ in fired.append(("every", context.now)) }
    }
}

@Suite("Scene timers")
struct SceneTimerTests {
    @Test("a one-shot timer fires once at its time and keeps the run from settling until then; a repeating one keeps its grid")
    func firing() throws {
        let rig = try DummyDisplayRig(width: 64, height: 48, refresh: 60, start: 0)
        let runtime = rig.makeRuntime()
        let scene = try runtime.install(TimerScene.self, settings: NoSettings())
        let start = rig.clock.now
        #expect(runtime.run(untilSettled: true) == .settled)
        #expect(scene.fired.filter { $0.name == "once" }.map { $0.time - start } == [1.0])
        let every = scene.fired.filter { $0.name == "every" }.map { $0.time - start }
        #expect(every.count == 3)
        for (k, t) in every.enumerated() { #expect(abs(t - 0.3 * Double(k + 1)) < 1e-9) }
        #expect(scene.repeating.isValid)
        // Time passing without a turn of the loop (a busy loop, a clock jump): one firing,
        // then the grid goes on from the original start.
        #expect(rig.clock.now - start == 1.0)                          // settled when the one-shot fired
        rig.clock.advance(by: 1.0)                                   // now start + 2.0; 1.2, 1.5, 1.8 missed
        runtime.run(exitAfter: 0.5, untilSettled: false)
        let later = scene.fired.filter { $0.name == "every" }.dropFirst(3).map { $0.time - start }
        #expect(later.count == 3)
        for (t, expected) in zip(later, [2.0, 2.1, 2.4]) { #expect(abs(t - expected) < 1e-9) }
    }

    @Test("invalidating stops a timer; removing the scene invalidates its timers")
    func invalidation() throws {
        let rig = try DummyDisplayRig(width: 64, height: 48, refresh: 60, start: 0)
        let runtime = rig.makeRuntime()
        let scene = try runtime.install(TimerScene.self, settings: NoSettings())
        runtime.run(exitAfter: 0.35, untilSettled: false)
        #expect(scene.fired.count == 1)
        scene.repeating.invalidate()
        runtime.run(exitAfter: 0.5, untilSettled: false)
        #expect(scene.fired.map(\.name) == ["every"])
        let timer = scene.context.addTimer(interval: 0.1, repeats: true) { _ in Issue.record("fired after its scene was removed") }
        runtime.removeScene()
        #expect(!timer.isValid)
        runtime.run(exitAfter: 0.5, untilSettled: false)
    }
}
