import Foundation
import Lamina
import LaminaPixels
import LaminaTestSupport
import Testing
@testable import LaminaVideo

/// A video layer filling the screen, showing a ``SweepClip`` (every frame known).
final class SweepScene: Scene {
    static let name = "video-sweep"
    static let summary = "a video layer filling the screen"
    nonisolated(unsafe) static var source = ""
    nonisolated(unsafe) static var loops = false
    let layer: VideoLayer
    let player: VideoPlayer
    var events: [VideoPlayer.Event] = []

    init(context: SceneContext, settings: NoSettings) throws {
        player = try VideoPlayer(source: try VideoSource(Self.source), context: context, loops: Self.loops)
        layer = VideoLayer(player: player)
        layer.frame = Rect(x: 0, y: 0, width: context.screenSize.width, height: context.screenSize.height)
        layer.contentsGravity = .resize
        context.rootLayer.addSublayer(layer)
        player.onEvent = { [unowned self] event in self.events.append(event) }
    }
}

@Suite("Video layers on the dummy display, frame by frame on the virtual clock", .serialized)
struct VideoPlayerTests {
    static let width = SweepClip.width, height = SweepClip.height, frames = SweepClip.frames

    static func clip() throws -> String { try SweepClip.make() }

    static func frameShown(_ screen: PixelBuffer) -> Int? { SweepClip.frameShown(screen) }

    /// A fresh sweep clip on a 320×240 dummy display at 60 Hz, in a `SweepScene`: the clip's
    /// path (for the caller to remove), the rig, the runtime and the scene.
    static func start(loops: Bool) throws -> (String, DummyDisplayRig, Runtime, SweepScene) {
        let path = try clip()
        SweepScene.source = path
        SweepScene.loops = loops
        let rig = try DummyDisplayRig(width: width, height: height, refresh: 60, start: 0)
        let runtime = rig.makeRuntime()
        return (path, rig, runtime, try runtime.install(SweepScene.self, settings: NoSettings()))
    }

    /// The frame shown at each presented vblank while the player plays, stepping the runtime a
    /// device event at a time.
    static func play(_ rig: DummyDisplayRig, _ runtime: Runtime, _ scene: SweepScene, until done: () -> Bool) -> [(time: Double, frame: Int?)] {
        var shown: [(Double, Int?)] = []
        var last = rig.display.frontFramebuffer
        var steps = 0
        runtime.step()                      // the turn that asks for the first vblank
        while !done(), steps < 20_000, rig.advanceToNextEvent(runtime) {
            steps += 1
            if rig.display.frontFramebuffer != last {
                last = rig.display.frontFramebuffer
                shown.append((rig.clock.now, frameShown(rig.display.readFront())))
            }
        }
        return shown
    }

    /// Runs of equal frames: (frame, first time shown).
    static func runs(_ shown: [(time: Double, frame: Int?)]) -> [(frame: Int?, time: Double)] {
        var runs: [(Int?, Double)] = []
        for (time, frame) in shown where runs.last?.0 != frame || runs.isEmpty { runs.append((frame, time)) }
        return runs
    }

    @Test("a 30 fps clip on a 60 Hz display: every frame in order, each for two vblanks (1/30 s), then ended and idle")
    func everyFrameOnce() throws {
        let (path, rig, runtime, scene) = try Self.start(loops: false)
        defer { try? FileManager.default.removeItem(atPath: path) }
        scene.player.play()
        let shown = Self.play(rig, runtime, scene) { scene.events.contains(.ended) }
        let runs = Self.runs(shown)
        #expect(runs.map(\.frame) == (0..<Self.frames).map { Optional($0) }, "frames in order: \(runs.map(\.frame))")
        for (a, b) in zip(runs, runs.dropFirst()) {
            #expect(abs(b.time - a.time - 1.0 / 30) < 1e-6, "frame \(a.frame ?? -1) shown for \(b.time - a.time) s")
        }
        #expect(scene.events == [.ready, .ended])
        #expect(scene.player.statistics.shown == Self.frames && scene.player.statistics.dropped == 0 && scene.player.statistics.late == 0)
        #expect(scene.player.statistics.decoded == Self.frames)
        // The decoder named is one `lamina probe` lists, highest rank first.
        let available = try VideoDecoderInfo.available()
        #expect(available.contains { $0.name == scene.player.statistics.decoder }, "\(String(describing: scene.player.statistics.decoder))")
        #expect(zip(available, available.dropFirst()).allSatisfy { $0.rank >= $1.rank })
        #expect(available.allSatisfy { $0.kind.contains("Decoder") && $0.kind.contains("Video") })
        #expect(runtime.run(untilSettled: true) == .settled, "an ended video lets the daemon sleep")
    }

    @Test("a looping clip plays ten passes with no gap and no black frame: frame 0 follows frame 29 a thirtieth of a second later")
    func gaplessLoops() throws {
        let (path, rig, runtime, scene) = try Self.start(loops: true)
        defer { try? FileManager.default.removeItem(atPath: path) }
        scene.player.play()
        let passes = 10
        // Until the eleventh pass's first frame is on screen: ten whole passes shown.
        let shown = Self.play(rig, runtime, scene) { scene.player.statistics.shown > passes * Self.frames + 1 }
        #expect(shown.allSatisfy { $0.frame != nil }, "no frame without the bars")
        let runs = Array(Self.runs(shown).prefix(passes * Self.frames + 1))
        #expect(runs.map(\.frame) == (0...passes * Self.frames).map { Optional($0 % Self.frames) },
                "\(runs.enumerated().filter { $0.element.frame != $0.offset % Self.frames }.prefix(5).map { ($0.offset, $0.element.frame) })")
        for (a, b) in zip(runs, runs.dropFirst()) {
            #expect(abs(b.time - a.time - 1.0 / 30) < 1e-6, "frame \(a.frame ?? -1) at \(a.time) shown for \(b.time - a.time) s")
        }
        #expect(scene.player.statistics.dropped == 0 && scene.player.statistics.late == 0)
        #expect(!scene.events.contains(.ended))
    }

    @Test("rate 2 shows every frame for one vblank; a seek while paused shows the frame at its position; pause holds")
    func rateSeekPause() throws {
        let (path, rig, runtime, scene) = try Self.start(loops: false)
        defer { try? FileManager.default.removeItem(atPath: path) }
        scene.player.rate = 2
        scene.player.play()
        let fast = Self.runs(Self.play(rig, runtime, scene) { scene.events.contains(.ended) })
        // Sixty frames a second on a 60 Hz display: each frame for one vblank, none dropped.
        #expect(fast.map(\.frame) == (0..<Self.frames).map { Optional($0) }, "\(fast.map(\.frame))")
        for (a, b) in zip(fast, fast.dropFirst()) { #expect(abs(b.time - a.time - 1.0 / 60) < 1e-6) }
        #expect(scene.player.statistics.dropped == 0)
        scene.player.rate = 1
        scene.player.seek(to: 0.5)
        _ = Self.play(rig, runtime, scene) { false }
        #expect(Self.frameShown(rig.display.readFront()) == 15, "the frame at 0.5 s")
        #expect(!scene.player.isPlaying && abs(scene.player.currentTime - 0.5) < 1e-6)
        scene.player.play()
        let resumed = Self.runs(Self.play(rig, runtime, scene) { scene.player.currentTime >= 0.6 })
        #expect(resumed.first?.frame == 16, "playing goes on from the seek: \(resumed.map(\.frame))")
        scene.player.pause()
        #expect(runtime.run(untilSettled: true) == .settled, "a paused video lets the daemon sleep")
        let held = Self.frameShown(rig.display.readFront())
        #expect(held == Int((scene.player.currentTime * 30).rounded()), "the frame shown is the playhead's")
        runtime.run(exitAfter: 1, untilSettled: false)
        #expect(Self.frameShown(rig.display.readFront()) == held)
    }

    @Test("run by the loop itself, a 30 fps clip on 60 Hz wakes it once a frame, not once a vblank: each frame drawn a vblank ahead and shown at its target")
    func oneWakeUpPerFrame() throws {
        let (path, rig, runtime, scene) = try Self.start(loops: true)
        defer { try? FileManager.default.removeItem(atPath: path) }
        var shown: [(position: Double, vblank: Double)] = []
        scene.player.onFrameShown = { shown.append(($0, $1)) }
        scene.player.play()
        runtime.run(exitAfter: 1, untilSettled: false)         // on time for half a second, the link settles on every second vblank
        let (wakesBefore, flipsBefore, missedBefore, firstShown) = (runtime.wakeUps, rig.display.presentedFrames,
                                                                   rig.display.missedVBlanks, shown.count)
        runtime.run(exitAfter: 2, untilSettled: false)
        let frames = shown[firstShown...]
        #expect(frames.count == 60, "two seconds at 30 fps")
        for (a, b) in zip(frames, frames.dropFirst()) {
            #expect(abs(b.vblank - a.vblank - 2.0 / 60) < 1e-9, "every second vblank")
            let step = (b.position - a.position + Double(Self.frames) / 30).truncatingRemainder(dividingBy: Double(Self.frames) / 30)
            #expect(abs(step - 1.0 / 30) < 0.001, "the next frame of the clip (positions are whole milliseconds)")
        }
        #expect(rig.display.presentedFrames - flipsBefore == 60 && rig.display.missedVBlanks == missedBefore,
                "each frame flipped once, at the vblank it was drawn for")
        // Reading each flip's completion as it came would be two wake-ups a frame.
        #expect(runtime.wakeUps - wakesBefore <= 62, "\(runtime.wakeUps - wakesBefore) wake-ups for 60 frames")
        #expect(scene.player.statistics.dropped == 0 && scene.player.statistics.late == 0)
    }
}
