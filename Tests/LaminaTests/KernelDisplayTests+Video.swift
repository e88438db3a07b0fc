import Foundation
import Lamina
@testable import LaminaRuntime
import LaminaDisplay
import LaminaGeometry
import LaminaLayers
import LaminaPixels
import LaminaSystem
import LaminaTestSupport
import Testing

/// A sweep clip at its own size at (100, 80), and a badge that can be moved over it.
final class KernelVideoScene: Scene {
    static let name = "kernel-video"
    static let summary = "a looping sweep clip and a badge"
    nonisolated(unsafe) static var source = ""
    static let origin = (x: 100, y: 80)
    let player: VideoPlayer
    let badge = Layer()

    init(context: SceneContext, settings: NoSettings) throws {
        player = try VideoPlayer(source: try VideoSource(Self.source), context: context, loops: true)
        let layer = VideoLayer(player: player)
        layer.frame = Rect(x: Double(Self.origin.x), y: Double(Self.origin.y), width: Double(SweepClip.width), height: Double(SweepClip.height))
        context.rootLayer.addSublayer(layer)
        badge.backgroundColor = Color(red: 0.9, green: 0.1, blue: 0.1)
        badge.frame = Rect(x: 700, y: 500, width: 60, height: 60)
        context.rootLayer.addSublayer(badge)
        player.play()
    }
}

/// Video on vkms's overlay plane (`enable_overlay`): the plane's atomic state and what the
/// CRTC composes, read back through writeback.
extension KernelDisplayTests {
    /// GStreamer's tools and plugins make and decode the clip: the amd64 VM's root (the host's)
    /// has them; the arm64 VM's clean Debian 13 root does not, and the overlay commits this
    /// holds are the same Swift on both.
    static let hasGStreamer = FileManager.default.isExecutableFile(atPath: "/usr/bin/gst-launch-1.0")

    @Test("video on vkms's overlay plane: the plane scans it out (atomic state), the frame read back has the sweep at its place, a layer over it sends it to composition and back, and loops show no black frame",
          .enabled(if: hasGStreamer, "needs gst-launch-1.0 and GStreamer's plugins (the amd64 VM has them, the arm64 VM's clean root not)"))
    func videoOnOverlayPlane() throws {
        let path = try SweepClip.make()
        defer { try? FileManager.default.removeItem(atPath: path) }
        KernelVideoScene.source = path
        let device = try DRMDevice(path: KernelDisplay.card)
        let display = try Display(device: device)
        defer { display.close() }
        let overlay = try #require(display.overlayPlane, "vkms lists an overlay plane (enable_overlay=1)")
        let log = CapturedLog()
        let runtime = Runtime(display: display, clock: SystemClock(), background: Color(red: 0.2, green: 0.2, blue: 0.2),
                              logger: log.logger())
        let scene = try runtime.install(KernelVideoScene.self, settings: NoSettings())
        let origin = KernelVideoScene.origin
        func composed() throws -> PixelBuffer { try #require(try display.captureComposedFrame(), "vkms has writeback") }
        func moveBadge(to point: Point) {
            Transaction.begin()
            Transaction.disableActions = true
            scene.badge.position = point
            Transaction.commit()
        }

        #expect(runtime.run(until: { runtime.overlayPlacement != nil && scene.player.statistics.shown > 3 }), "\(log.lines)")
        let placement = try #require(runtime.overlayPlacement)
        #expect(placement.plane == overlay.id)
        #expect(placement.destination == PixelRect(x0: origin.x, y0: origin.y, x1: origin.x + SweepClip.width, y1: origin.y + SweepClip.height))
        let state = try #require(device.planeState(overlay.id))
        #expect(state.framebuffer != 0 && state.crtc == display.crtc, "the overlay plane scans out a framebuffer on the CRTC")
        #expect(SweepClip.frameShown(try composed(), x: origin.x, y: origin.y) != nil, "the sweep on the panel, at its place")
        #expect(SweepClip.frameShown(display.readFront(), x: origin.x, y: origin.y) == nil, "not drawn into the primary")

        moveBadge(to: Point(x: 150, y: 110))                       // over the video's top-left corner
        #expect(runtime.run(until: { runtime.overlayPlacement == nil && device.planeState(overlay.id)?.framebuffer == 0 }),
                "\(log.lines)")
        runtime.run(exitAfter: 0.3, untilSettled: false)
        #expect(SweepClip.frameShown(try composed(), x: origin.x, y: origin.y) != nil, "composited: still on the panel")
        #expect(SweepClip.frameShown(display.readFront(), x: origin.x, y: origin.y) != nil, "drawn into the primary")

        moveBadge(to: Point(x: 730, y: 530))
        #expect(runtime.run(until: { runtime.overlayPlacement != nil && device.planeState(overlay.id)?.framebuffer != 0 }),
                "\(log.lines)")

        // Ten passes of the one-second clip, the panel read back twice a pass: never black.
        // Frames passed, shown or dropped: real time goes on however slow the machine is.
        func passed() -> Int { scene.player.statistics.shown + scene.player.statistics.dropped }
        let start = passed(), onPlaneBefore = runtime.overlayFrames
        var samples: [Int?] = []
        while passed() < start + 10 * SweepClip.frames, samples.count < 8 * Int(KernelPacing.patience) {
            runtime.run(exitAfter: 0.5, untilSettled: false)
            samples.append(SweepClip.frameShown(try composed(), x: origin.x, y: origin.y))
        }
        #expect(passed() >= start + 10 * SweepClip.frames, "ten passes played")
        // How many frames reach the glass depends on the machine (an emulated one drops
        // many); that they come on the plane, and the bars at every read-back, does not.
        #expect(samples.count >= 5 && samples.allSatisfy { $0 != nil }, "\(samples)")
        #expect(runtime.overlayFrames > onPlaneBefore && runtime.overlayPlacement != nil
                && device.planeState(overlay.id)?.framebuffer != 0, "still on the plane")
        // The decoder writes into vkms's dumb buffers, lent by the display (decision 148).
        #expect(display.overlayFramesInPlace > 0 && log.lines.contains { $0.contains("frames written into the overlay plane's memory") },
                "frames shown from the plane's own memory: \(display.overlayFramesInPlace) in place, \(display.overlayFramesCopied) copied")
        print("video on vkms's overlay plane \(overlay.id): \(runtime.overlayFrames) frames on the plane "
              + "(\(display.overlayFramesInPlace) in place, \(display.overlayFramesCopied) copied), \(samples.count) read back, "
              + "\(scene.player.statistics.shown) shown, \(scene.player.statistics.dropped) dropped, \(scene.player.statistics.late) late")
    }
}
