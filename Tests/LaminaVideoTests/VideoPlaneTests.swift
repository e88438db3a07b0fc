import Foundation
import Lamina
import LaminaPixels
import LaminaTestSupport
import Testing
@testable import LaminaVideo

/// Video on the dummy's overlay plane (vkms's: XRGB8888, no scaling), frame by frame on the
/// virtual clock. What the panel shows is the device's composed frame (primary and overlay
/// blended as the CRTC does); what the rasterizer drew is the primary's front buffer.
@Suite("Video on a KMS overlay plane (the dummy's), frame by frame", .serialized)
struct VideoPlaneTests {
    static let frames = SweepClip.frames

    /// A sweep clip on a 320×240 dummy with an overlay plane, in a `SweepScene` at the clip's
    /// own size.
    static func start(loops: Bool) throws -> (String, DummyDisplayRig, Runtime, SweepScene, CapturedLog) {
        let path = try VideoPlayerTests.clip()
        let rig = try DummyDisplayRig(width: SweepClip.width, height: SweepClip.height, refresh: 60, start: 0)
        rig.device.addOverlayPlane()
        SweepScene.source = path
        SweepScene.loops = loops
        let log = CapturedLog()
        let runtime = rig.makeRuntime(log: log)
        return (path, rig, runtime, try runtime.install(SweepScene.self, settings: NoSettings()), log)
    }

    /// At each flip while `done` is false: the frame the panel shows, the one the primary
    /// plane shows (the rasterizer's), and whether the overlay plane was on.
    struct Shown { var time: Double; var panel: Int?; var primary: Int?; var onPlane: Bool }

    static func play(_ rig: DummyDisplayRig, _ runtime: Runtime, until done: () -> Bool,
                     between: ((Int) -> Void)? = nil) -> [Shown] {
        var shown: [Shown] = []
        var last = rig.display.frontFramebuffer
        var steps = 0
        runtime.step()
        while !done(), steps < 20_000, rig.advanceToNextEvent(runtime) {
            steps += 1
            guard rig.display.frontFramebuffer != last else { continue }
            last = rig.display.frontFramebuffer
            let composed = (try? rig.device.captureComposedFrame(crtc: rig.device.crtcID)) ?? nil
            shown.append(Shown(time: rig.clock.now, panel: composed.flatMap { SweepClip.frameShown($0) },
                               primary: SweepClip.frameShown(rig.display.readFront()), onPlane: rig.device.overlayShown != nil))
            between?(shown.count)
        }
        return shown
    }

    /// A 40×40 red badge beside `scene`'s video, off screen (nothing over the video), and the
    /// function moving its left edge to `x` at once.
    static func badge(beside scene: SweepScene) -> (_ x: Double) -> Void {
        let badge = Layer()
        badge.backgroundColor = Color(red: 1, green: 0, blue: 0, alpha: 1)
        badge.frame = Rect(x: 400, y: 10, width: 40, height: 40)
        scene.layer.superlayer?.addSublayer(badge)
        return { x in
            Transaction.begin()
            Transaction.disableActions = true
            badge.position.x = x + 20
            Transaction.commit()
        }
    }

    static func runs(_ shown: [Shown]) -> [(frame: Int?, time: Double)] {
        VideoPlayerTests.runs(shown.map { ($0.time, $0.panel) })
    }

    @Test("a clip at its own size goes on the overlay plane: every frame once, 1/30 s each, none drawn by the rasterizer, no damage")
    func everyFrameOnPlane() throws {
        let (path, rig, runtime, scene, log) = try Self.start(loops: false)
        defer { try? FileManager.default.removeItem(atPath: path) }
        scene.player.play()
        let shown = Self.play(rig, runtime) { scene.events.contains(.ended) }
        let runs = Self.runs(shown)
        #expect(runs.map(\.frame) == (0..<Self.frames).map { Optional($0) }, "frames in order: \(runs.map(\.frame))")
        for (a, b) in zip(runs, runs.dropFirst()) {
            #expect(abs(b.time - a.time - 1.0 / 30) < 1e-6, "frame \(a.frame ?? -1) shown for \(b.time - a.time) s")
        }
        let withVideo = shown.filter { $0.panel != nil }
        #expect(!withVideo.isEmpty && withVideo.allSatisfy { $0.onPlane }, "every frame of the clip came on the plane")
        #expect(withVideo.allSatisfy { $0.primary == nil }, "the rasterizer drew none of them")
        let placement = try #require(rig.device.overlayShown)
        #expect(placement.destination == PixelRect(width: 320, height: 240))
        #expect(placement.source == Rect(x: 0, y: 0, width: 320, height: 240))
        #expect(rig.device.overlayTests.asked == 1 && rig.device.overlayTests.refused == 0, "tested once: the placement never changed")
        // After the first frame on the plane, a new frame there damages nothing in the primary.
        #expect(rig.device.flipDamage.suffix(withVideo.count - 1).allSatisfy { $0?.isEmpty == true },
                "\(rig.device.flipDamage.suffix(withVideo.count - 1))")
        #expect(runtime.overlayFrames >= Self.frames)
        #expect(SweepClip.frameShown(rig.display.screenImage()) == Self.frames - 1, "a screenshot shows the plane's frame")
        #expect(scene.player.statistics.shown == Self.frames && scene.player.statistics.dropped == 0)
        #expect(log.lines.contains { $0.contains("video on overlay plane 35: 320x240 at") }, "\(log.lines)")
        // Once a frame is on the plane the decoder is lent the plane's buffers (decision 148):
        // only the frames decoded before then, which the pipeline's queues bound, are copied.
        #expect(log.lines.contains { $0.contains("frames written into the overlay plane's memory") }, "\(log.lines)")
        let copied = rig.display.overlayFramesCopied, inPlace = rig.display.overlayFramesInPlace
        #expect(copied + inPlace == Self.frames && copied <= VideoDecoder.scanoutBufferCount, "copied \(copied), in place \(inPlace)")
    }

    @Test("a layer moved over the video sends it to composition, and moved away back to the plane, with no frame lost or black")
    func layerAboveAndBack() throws {
        let (path, rig, runtime, scene, log) = try Self.start(loops: true)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let move = Self.badge(beside: scene)
        scene.player.play()
        // A flip per frame of the clip: 20 flips with the badge away, 20 with it over the
        // video, then away again.
        let shown = Self.play(rig, runtime, until: { scene.player.statistics.shown > 2 * Self.frames + 1 }) { count in
            if count == 20 { move(10) }
            if count == 40 { move(400) }
        }
        try #require(shown.count > 50, "\(shown.count) flips")
        #expect(shown.allSatisfy { $0.panel != nil }, "the bars are on the panel at every flip")
        let runs = Array(Self.runs(shown).prefix(2 * Self.frames + 1))
        #expect(runs.map(\.frame) == (0...2 * Self.frames).map { Optional($0 % Self.frames) }, "\(runs.map(\.frame))")
        for (a, b) in zip(runs, runs.dropFirst()) { #expect(abs(b.time - a.time - 1.0 / 30) < 1e-6) }
        let phases = [shown[2..<20], shown[21..<40], shown[41...]]
        #expect(phases[0].allSatisfy { $0.onPlane && $0.primary == nil }, "on the plane before the badge came")
        #expect(phases[1].allSatisfy { !$0.onPlane && $0.primary == $0.panel }, "composited under the badge")
        #expect(phases[2].allSatisfy { $0.onPlane && $0.primary == nil }, "on the plane again once it left")
        #expect(log.lines.contains { $0.contains("video composited again") })
        #expect(scene.player.statistics.dropped == 0 && scene.player.statistics.late == 0)
    }

    @Test("buffers lent to the decoder are given back after a second off the plane, freed, and lent again when it returns; no frame lost")
    func scanoutGivenBack() throws {
        let (path, rig, runtime, scene, log) = try Self.start(loops: true)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let move = Self.badge(beside: scene)
        scene.player.play()
        let lentLine = "frames written into the overlay plane's memory"
        var whileLent = 0, afterGivingBack = 0
        // A flip per frame of the clip: 20 on the plane, 100 under the badge (more than
        // `framesOffPlaneKept`), then on the plane again.
        let shown = Self.play(rig, runtime, until: { scene.player.statistics.shown > 6 * Self.frames }) { count in
            if count == 20 { whileLent = rig.device.dumbBufferCount; move(10) }
            if count == 119 { afterGivingBack = rig.device.dumbBufferCount }
            if count == 120 { move(400) }
        }
        try #require(shown.count > 150, "\(shown.count) flips")
        #expect(shown.allSatisfy { $0.panel != nil }, "the bars are on the panel at every flip")
        let runs = Array(Self.runs(shown).prefix(5 * Self.frames + 1))
        #expect(runs.map(\.frame) == (0...5 * Self.frames).map { Optional($0 % Self.frames) }, "\(runs.map(\.frame))")
        #expect(scene.player.statistics.dropped == 0 && scene.player.statistics.late == 0)
        #expect(log.lines.filter { $0.contains(lentLine) }.count == 2, "lent, given back, lent again: \(log.lines)")
        #expect(log.lines.contains { $0.contains("frames in GStreamer's buffers again") })
        #expect(afterGivingBack == whileLent - VideoDecoder.scanoutBufferCount,
                "the lent buffers are freed: \(whileLent) dumb buffers while lent, \(afterGivingBack) after")
        #expect(shown[125...].allSatisfy { $0.onPlane && $0.primary == nil }, "on the plane again")
    }

    @Test("a bar touching the video's edge leaves it on the plane; overlapping it by one pixel does not")
    func touchingIsNotCovering() throws {
        for overlap in [0.0, 1.0] {
            let (path, rig, runtime, scene, _) = try Self.start(loops: false)
            defer { try? FileManager.default.removeItem(atPath: path) }
            rig.device.overlayScales = true
            let bar = Layer()
            bar.backgroundColor = Color(red: 0.1, green: 0.2, blue: 0.6, alpha: 1)
            Transaction.begin()
            Transaction.disableActions = true
            scene.layer.frame = Rect(x: 0, y: 0, width: 320, height: 180)
            bar.frame = Rect(x: 0, y: 180 - overlap, width: 320, height: 60 + overlap)
            scene.layer.superlayer?.addSublayer(bar)
            Transaction.commit()
            scene.player.play()
            _ = Self.play(rig, runtime) { scene.player.statistics.shown >= 5 }
            #expect((rig.device.overlayShown != nil) == (overlap == 0), "overlap \(overlap): \(String(describing: rig.device.overlayShown))")
        }
    }

    @Test("ten loops on the plane: frame 0 follows frame 29 a thirtieth of a second later, never a black frame")
    func tenLoopsOnPlane() throws {
        let (path, rig, runtime, scene, _) = try Self.start(loops: true)
        defer { try? FileManager.default.removeItem(atPath: path) }
        scene.player.play()
        let passes = 10
        let shown = Self.play(rig, runtime) { scene.player.statistics.shown > passes * Self.frames + 1 }
        #expect(shown.allSatisfy { $0.panel != nil }, "no flip without the bars")
        #expect(shown.dropFirst(2).allSatisfy { $0.onPlane }, "all on the plane")
        let runs = Array(Self.runs(shown).prefix(passes * Self.frames + 1))
        #expect(runs.map(\.frame) == (0...passes * Self.frames).map { Optional($0 % Self.frames) })
        for (a, b) in zip(runs, runs.dropFirst()) { #expect(abs(b.time - a.time - 1.0 / 30) < 1e-6) }
        #expect(scene.player.statistics.dropped == 0 && scene.player.statistics.late == 0)
    }

    @Test("a scaled video is tested with the driver: refused without plane scaling (composited), taken with it")
    func scaledIsTested() throws {
        for scales in [false, true] {
            let (path, rig, runtime, scene, log) = try Self.start(loops: false)
            defer { try? FileManager.default.removeItem(atPath: path) }
            rig.device.overlayScales = scales
            Transaction.begin()
            Transaction.disableActions = true
            scene.layer.frame = Rect(x: 40, y: 30, width: 160, height: 120)
            Transaction.commit()
            scene.player.play()
            _ = Self.play(rig, runtime) { scene.player.statistics.shown >= 10 }
            if scales {
                #expect(rig.device.overlayShown?.destination == PixelRect(x0: 40, y0: 30, x1: 200, y1: 150))
                #expect(rig.device.overlayShown?.source == Rect(x: 0, y: 0, width: 320, height: 240))
                #expect(rig.device.overlayTests.refused == 0)
            } else {
                #expect(rig.device.overlayShown == nil)
                #expect(rig.device.overlayTests == (asked: 1, refused: 1), "asked once, the answer kept: \(rig.device.overlayTests)")
                #expect(log.lines.contains { $0.contains("the overlay plane was refused") && $0.contains("does not scale") }, "\(log.lines)")
                #expect(runtime.overlayFrames == 0)
            }
        }
    }

    @Test("a half-transparent, rotated or clipped-round video is composited without asking the driver")
    func ineligibleNeverAsked() throws {
        let changes: [(String, (VideoLayer) -> Void)] = [
            ("opacity", { $0.opacity = 0.5 }),
            ("rotation", { $0.transform = Transform3D(rotationAngle: 0.1, x: 0, y: 0, z: 1) }),
            ("rounded clip", { $0.cornerRadius = 12; $0.masksToBounds = true }),
            ("border", { $0.borderWidth = 2; $0.borderColor = Color(red: 1, green: 1, blue: 1, alpha: 1) }),
            ("not allowed", { $0.usesOverlayPlane = false }),
        ]
        for (what, change) in changes {
            let (path, rig, runtime, scene, _) = try Self.start(loops: false)
            defer { try? FileManager.default.removeItem(atPath: path) }
            Transaction.begin()
            Transaction.disableActions = true
            change(scene.layer)
            Transaction.commit()
            scene.player.play()
            _ = Self.play(rig, runtime) { scene.player.statistics.shown >= 5 }
            #expect(rig.device.overlayTests.asked == 0 && rig.device.overlayShown == nil, "\(what)")
            #expect(runtime.overlayFrames == 0, "\(what)")
        }
    }
}
