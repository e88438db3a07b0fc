import Foundation
import Lamina
import LaminaAnimation
import LaminaDisplay
import LaminaGeometry
import LaminaInput
import LaminaLayers
import LaminaTestSupport
import Testing

@Suite("Run statistics (telemetry)")
struct RunStatsTests {
    @Test("a half-second animation then idle: flips at the refresh rate, no jitter, input latency within two frames, no idle wake-ups but the deadline")
    func stats() throws {
        let rig = try DummyDisplayRig(width: 64, height: 48, refresh: 60, start: 0)
        let runtime = rig.makeRuntime()
        let box = Layer()
        box.bounds = Rect(x: 0, y: 0, width: 10, height: 10)
        box.backgroundColor = .white
        runtime.rootLayer.addSublayer(box)
        box.add(BasicAnimation(keyPath: "position.x", from: .scalar(0), to: .scalar(60), duration: 0.5), forKey: "move")
        runtime.addTouchSource(ScriptedTouchSource(script: try TouchScript(parsing: "at 0.2 tap 30,20"), start: rig.clock.now))
        #expect(runtime.run(exitAfter: 3, untilSettled: false) == .timeLimit)
        let stats = runtime.stats
        #expect(stats.frames == stats.flips && stats.frames >= 30)
        #expect(abs((stats.flipRate ?? 0) - 60) < 1e-6)
        #expect((stats.flipIntervalJitterMs ?? 1) < 1e-6 && (stats.flipIntervalMaxDeviationMs ?? 1) < 1e-6)
        #expect(stats.touches == 1)
        let latency = try #require(stats.inputToFlipMs)
        #expect(latency.count >= 2 && latency.max <= 2 * 1000 / 60.0 + 1e-6)
        #expect(stats.idleSeconds > 2 && stats.idleWakeUps <= 1)
        #expect(stats.missedVBlanks == 0 && stats.failedFlips == 0)
        let decoded = try JSONDecoder().decode(RunStats.self, from: stats.json())
        #expect(decoded.frames == stats.frames)
        #expect(stats.summary.contains("60.00 Hz"))
    }
}
