import Foundation
import Lamina
@testable import LaminaSceneFiles
@testable import LaminaRuntime
import LaminaAnimation
import LaminaDisplay
import LaminaGeometry
import LaminaInput
import LaminaLayers
import LaminaRaster
import LaminaTestSupport
import LaminaTools
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
        let target = Layer()
        target.frame = Rect(x: 20, y: 15, width: 20, height: 20)
        runtime.rootLayer.addSublayer(target)
        runtime.dispatcher.addTouchHandler(to: target) { touch in target.opacity = touch.phase == .began ? 0.5 : 1 }
        runtime.addTouchSource(ScriptedTouchSource(script: try TouchScript(parsing: "at 0.2 tap 30,20"), start: rig.clock.now))
        #expect(runtime.run(exitAfter: 3, untilSettled: false) == .timeLimit)
        let stats = runtime.stats
        #expect(stats.frames == stats.flips && stats.frames >= 30)
        #expect(abs((stats.flipRate ?? 0) - 60) < 1e-6)
        #expect((stats.flipIntervalJitterMs ?? 1) < 1e-6 && (stats.flipIntervalMaxDeviationMs ?? 1) < 1e-6)
        #expect(stats.touches == 1)
        let latency = try #require(stats.inputToFlipMs)
        let twoFramesMs: Double = 2 * 1000 / 60.0 + 1e-6
        #expect(latency.count >= 2 && latency.max <= twoFramesMs)
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
            let pan = r
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

@Suite("Telemetry in fixed memory")
struct TelemetryTests {
    @Test("percentiles from the histogram are within 0.1 % of the sorted sample's; count, min and max are exact; NaN is ignored")
    func distribution() {
        let seed: UInt64 = 0x5EED_1A31
        var random = SplitMix64(seed: seed)
        func next() -> Double { Double.random(in: 0..<1, using: &random) }
        var distribution = DurationDistribution()
        let footprint = distribution.footprintBytes
        var sample: [Double] = []
        for _ in 0..<20_000 {
            let seconds = 0.001 + 0.05 * next() * next()        // 1–51 ms, skewed low
            sample.append(seconds)
            distribution.record(seconds)
        }
        distribution.record(.nan)
        sample.sort()
        #expect(distribution.count == sample.count)
        #expect(distribution.min == sample.first && distribution.max == sample.last)
        for q in [0.5, 0.95, 0.99] {
            let exact = sample[Int((q * Double(sample.count)).rounded(.up)) - 1]
            let estimate = distribution.value(atQuantile: q) ?? 0
            #expect(abs(estimate - exact) <= 0.001 * exact + 1e-6, "q \(q): \(estimate) vs \(exact) (seed \(seed))")
        }
        #expect(distribution.footprintBytes == footprint)                      // nothing grew
        distribution.record(1e300)
        distribution.record(-.infinity)
        #expect(distribution.max == DurationDistribution.ceiling && distribution.min == 0)
    }

    @Test("flip cadence: back-to-back intervals only, Welford's mean and deviation, the last 1024 timestamps")
    func cadence() {
        var cadence = FlipCadence()
        var timestamps: [Double] = []
        var t = 10.0
        for i in 0..<3000 {
            t += i % 500 == 499 ? 2.0 : (i % 2 == 0 ? 0.016 : 0.018)     // alternating, with idle gaps
            timestamps.append(t)
            cadence.record(t, frameDuration: 1.0 / 60)
        }
        let intervals = zip(timestamps.dropFirst(), timestamps).map { $0 - $1 }.filter { $0 < 1.5 / 60 }
        let mean = intervals.reduce(0, +) / Double(intervals.count)
        let deviation = (intervals.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(intervals.count)).squareRoot()
        #expect(cadence.count == 3000 && cadence.recent.count == FlipCadence.recentCapacity)
        #expect(Array(cadence.recent) == Array(timestamps.suffix(FlipCadence.recentCapacity)))
        #expect(abs((cadence.rate ?? 0) - 1 / mean) < 1e-9 && abs((cadence.jitter ?? 0) - deviation) < 1e-12)
        #expect(abs((cadence.maxDeviation ?? 0) - (0.018 - 1.0 / 60)) < 1e-12)
    }

    @Test("an input that changes nothing is counted apart, not charged to the next unrelated frame")
    func inputWithoutChange() throws {
        let rig = try DummyDisplayRig(width: 64, height: 48, refresh: 60, start: 0)
        let runtime = rig.makeRuntime()
        let box = Layer()
        box.frame = Rect(x: 0, y: 0, width: 10, height: 10)
        runtime.rootLayer.addSublayer(box)
        runtime.addTouchSource(ScriptedTouchSource(script: try TouchScript(parsing: "at 0.2 drag 30,20 50,20 over 0.1"), start: 0))
        #expect(runtime.run(untilSettled: true) == .settled)
        runtime.run(exitAfter: 1.5 - rig.clock.now, untilSettled: false)
        box.backgroundColor = .white                             // an unrelated change 1.3 s later
        #expect(runtime.run(untilSettled: true) == .settled)
        let stats = runtime.stats
        #expect(stats.inputToFlipMs == nil)
        #expect(stats.inputsWithoutChange == 14)                  // down, 12 motions, up
        #expect(stats.touches == 1)
    }
}

@Suite("Soak input")
struct SoakInputTests {
    @Test("random touches: the same seed gives the same events, in time order, every down lifted, one gesture held at a time")
    func randomTouches() {
        let panel = Size(width: 800, height: 600)
        let a = RandomTouchSource(seed: 7, panel: panel, focus: Point(x: 400, y: 300), start: 0)
        let b = RandomTouchSource(seed: 7, panel: panel, focus: Point(x: 400, y: 300), start: 0)
        let first = a.events(upTo: 600), second = b.events(upTo: 600)
        #expect(first == second && first.count > 1000)
        #expect(zip(first, first.dropFirst()).allSatisfy { $0.time <= $1.time })
        var down = Set<Int>()
        for event in first {
            switch event.kind {
            case .down(let slot, _): #expect(down.insert(slot).inserted)
            case .up(let slot): #expect(down.remove(slot) != nil)
            default: break
            }
        }
        #expect(down.isEmpty || (a.nextEventTime ?? 0) > 600)
        #expect(a.gestures.values.reduce(0, +) > 100 && a.gestures.count == 4)
    }
}

@Suite("Frames out")
struct FramesOutTests {
    @Test("a second recorder on the same directory is refused while the first holds it; an earlier run's frames are removed")
    func oneRunPerDirectory() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("frames-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let stale = directory + "/frame-00099.png"
        FileManager.default.createFile(atPath: stale, contents: Data([1, 2, 3]))
        var first: FrameRecorder? = try FrameRecorder(directory: directory)
        #expect(!FileManager.default.fileExists(atPath: stale))
        do {
            _ = try FrameRecorder(directory: directory)
            Issue.record("a second recorder was allowed")
        } catch {
            #expect("\(error)".contains("another lamina run is writing frames there"), "\(error)")
        }
        first = nil                                              // releases the lock
        #expect(first == nil)
        _ = try FrameRecorder(directory: directory)
    }
}
