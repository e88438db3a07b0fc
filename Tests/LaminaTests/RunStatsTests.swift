import Foundation
import Lamina
import LaminaAnimation
import LaminaDisplay
import LaminaGeometry
import LaminaInput
import LaminaLayers
import LaminaRaster
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

@Suite("Display rotation")
struct RotationTests {
    @Test("rotation 90: the scene lays out upright in the turned size, its top-left lands at the panel's top-right, and panel touches hit it")
    func quarterTurn() throws {
        let rig = try DummyDisplayRig(width: 64, height: 48, refresh: 60, start: 0)
        let runtime = rig.makeRuntime()
        runtime.rotation = 90
        #expect(runtime.screenSize == Size(width: 48, height: 64))
        let corner = Layer()
        corner.bounds = Rect(x: 0, y: 0, width: 10, height: 10)
        corner.anchorPoint = .zero
        corner.backgroundColor = Color(red: 1, green: 0, blue: 0)
        runtime.rootLayer.addSublayer(corner)
        #expect(runtime.run(untilSettled: true) == .settled)
        let shown = try #require(rig.device.framebufferImage(rig.display.frontFramebuffer))
        #expect(shown[60, 4] == 0xFFFF_0000 && shown[2, 4] != 0xFFFF_0000)
        #expect(runtime.rootLayer.presentation()?.hitTest(Point(x: 60, y: 4))?.model() === corner)
    }

    @Test("touches arrive in the upright screen's axes: a drag along the panel's x pans along −y, +x, +y at 90, 0, 270 degrees",
          arguments: [(90, Point(x: 0, y: -1)), (0, Point(x: 1, y: 0)), (270, Point(x: 0, y: 1)), (180, Point(x: -1, y: 0))])
    func touchAxes(rotation: Int, direction: Point) throws {
        let rig = try DummyDisplayRig(width: 64, height: 48, refresh: 60, start: 0)
        let runtime = rig.makeRuntime()
        runtime.rotation = rotation
        var translation = Point.zero, velocity = Point.zero
        runtime.dispatcher.addGestureRecognizer(PanGestureRecognizer { r in
            let pan = r as! PanGestureRecognizer
            translation = pan.translation(in: nil)
            if r.state == .changed { velocity = pan.velocity() }
        }, to: runtime.rootLayer)
        runtime.addTouchSource(ScriptedTouchSource(script: try TouchScript(parsing: "at 0.1 drag 10,24 50,24 over 0.2"), start: 0))
        #expect(runtime.run(untilSettled: true) == .settled)
        // 40 panel pixels, less the 10 pt slop the translation is rebased past (to the report
        // where it began), along the turned axis; the velocity points the same way.
        let distance = translation.distance(to: .zero), speed = velocity.distance(to: .zero)
        #expect(translation.distance(to: direction * distance) < 1e-6, "\(translation)")
        #expect(distance > 28 && distance <= 30 + 1e-9)                  // began 10 or 11.7 px in
        #expect(velocity.distance(to: direction * speed) < 1e-3 * speed && speed > 150)
    }

    @Test("a rotation other than 0, 90, 180 or 270 is a config error naming the file, line and field")
    func badRotation() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("rotation-\(UUID().uuidString).toml")
        try "[display]\nrotation = 45\n".write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        #expect(throws: ConfigError.self) { try LaminaConfig.load(path: file.path, sceneNames: ["elastic-field"]) }
        do {
            _ = try LaminaConfig.load(path: file.path, sceneNames: ["elastic-field"])
        } catch {
            #expect("\(error)".contains("\(file.path):2: display.rotation"), "\(error)")
        }
    }
}

@Suite("Frame request latency")
struct FrameRequestLatencyTests {
    @Test("a change made 5 ms after a vblank on an idle display flips at the next vblank: 1/60 s − 5 ms, window or not")
    func requestToFlip() throws {
        for window in [false, true] {
            let rig = try DummyDisplayRig(width: 16, height: 16, refresh: 60, start: 0)
            let runtime = rig.makeRuntime()
            runtime.repaintWindow = window
            runtime.repaintBudget = 0.004
            let layer = Layer()
            layer.frame = Rect(x: 0, y: 0, width: 4, height: 4)
            runtime.rootLayer.addSublayer(layer)
            #expect(runtime.run(untilSettled: true) == .settled)
            runtime.run(exitAfter: 0.505 - rig.clock.now, untilSettled: false)     // idle until then
            layer.backgroundColor = .white
            #expect(runtime.run(untilSettled: true) == .settled)
            let latencies = try #require(runtime.stats.frameRequestToFlipMs)
            #expect(latencies.count == 2)                                         // the first frame, then the change
            #expect(abs(latencies.min - (1000.0 / 60 - 5)) < 1e-6, "window \(window)")
            #expect(runtime.stats.idleCPUMsPerSecond != nil && runtime.stats.cpuSeconds >= 0)
        }
    }
}
