import Foundation
@testable import Lamina
@testable import LaminaSceneFiles
@testable import LaminaRuntime
import LaminaAnimation
import LaminaDisplay
import LaminaGeometry
import LaminaInput
import LaminaLayers
import LaminaRaster
import LaminaScenes
import LaminaTestSupport
import SystemPackage
import Testing

@Suite("Runtime on the fake vblank source")
struct RuntimeTests {
    @Test("the first frame is drawn, then an idle tree produces no frames and no wake-ups")
    func idleProducesNothing() throws {
        let rig = try DummyDisplayRig(width: 64, height: 48, start: 0)
        let runtime = rig.makeRuntime(background: .white)
        #expect(runtime.run(untilSettled: true) == .settled)
        #expect(runtime.renderedFrames == 1)
        #expect(rig.device.completedFlips == 1)
        #expect(rig.device.nextEventTime == nil)                               // nothing scheduled
        let idleStart = rig.clock.now
        #expect(runtime.run(exitAfter: 10, untilSettled: false) == .timeLimit)
        #expect(runtime.renderedFrames == 1 && rig.device.completedFlips == 1)
        #expect(rig.clock.now == idleStart + 10)                               // one jump, no ticks
        let shown = try #require(rig.device.framebufferImage(rig.display.frontFramebuffer))
        #expect(shown[3, 3] == 0xFFFF_FFFF)
    }

    @Test("a running display link is called once per vblank with flip timestamps; pausing it stops the frames")
    func linkTimestamps() throws {
        let rig = try DummyDisplayRig(width: 32, height: 32, refresh: 60, start: 0)
        let runtime = rig.makeRuntime()
        var stamps: [(Double, Double)] = []
        var link: DisplayLink?
        link = runtime.addDisplayLink { l in
            stamps.append((l.timestamp, l.targetTimestamp))
            if stamps.count == 10 { link?.isPaused = true }
        }
        runtime.run(untilSettled: true)
        #expect(stamps.count == 10)
        for (i, (t, target)) in stamps.enumerated() {
            #expect(abs(t - Double(i) / 60) < 1e-12)                           // vblank grid from the modeset
            #expect(abs(target - t - 1.0 / 60) < 1e-12)
        }
        let frames = runtime.renderedFrames
        runtime.run(exitAfter: 1, untilSettled: false)
        #expect(runtime.renderedFrames == frames)
    }

    @Test("a failed flip is logged and survived: the frame is retried")
    func failedFlip() throws {
        let rig = try DummyDisplayRig(width: 16, height: 16, start: 0)
        rig.device.failNextFlips = [Errno.invalidArgument, Errno.invalidArgument]
        let runtime = rig.makeRuntime(background: .white)
        #expect(runtime.run(untilSettled: true) == .settled)
        #expect(runtime.failedFlips == 2)
        #expect(runtime.renderedFrames == 1)
        #expect(rig.device.framebufferImage(rig.display.frontFramebuffer)?[0, 0] == 0xFFFF_FFFF)
    }

    @Test("the elastic field bulges under a tap by the overshoot and springs back to rest")
    func elasticField() throws {
        let rig = try DummyDisplayRig(width: 400, height: 200, start: 0)
        let runtime = rig.makeRuntime()
        var settings = ElasticField.Settings()
        settings.size = Size(width: 200, height: 60)
        settings.overshootAmount = 10
        let scene = try runtime.install(ElasticField.self, settings: settings)
        var topY: [Double] = []
        let probe = runtime.addDisplayLink { link in
            if case .point(let p)? = scene.controlPoints[0].presentationValue(forKeyPath: "position", at: link.targetTimestamp) {
                topY.append(p.y)
            }
        }
        probe.isPaused = false
        runtime.run(exitAfter: 0.1, untilSettled: false)
        probe.isPaused = true
        topY.removeAll()
        probe.isPaused = false
        runtime.addTouchSource(ScriptedTouchSource(script: try TouchScript(parsing: "at 0.05 tap 200,100"), start: rig.clock.now))
        var linkFrames = 0
        let counter = runtime.addDisplayLink { _ in linkFrames += 1 }
        _ = counter
        runtime.run(exitAfter: 1.2, untilSettled: false)
        probe.isPaused = true
        counter.invalidate()
        #expect(scene.taps == 1)
        // Outward throw reaches about the overshoot (ζ = 0.9 barely overshoots), then the
        // loose spring rings past rest, and everything ends exactly at rest.
        let minimum = try #require(topY.min()), maximum = try #require(topY.max())
        #expect(minimum < -9.5 && minimum > -11)
        #expect(maximum > 2)                                                   // rings inward past rest
        #expect(topY.last == 0)
        #expect(scene.link.isPaused)
        #expect(scene.controlPoints.allSatisfy { $0.animationKeys().isEmpty })
        // The path at rest has straight edges through the edge midpoints.
        let path = try #require(scene.field.presentation() as? ShapeLayer).path
        #expect(path == ElasticField.path(size: settings.size, cornerRadius: settings.cornerRadius,
                                          controls: ElasticField.restPositions(settings.size)))
        #expect(linkFrames > 30)
    }

    @Test("the shape tracks the control points in the frame being drawn (no one-frame lag)")
    func noLag() throws {
        let rig = try DummyDisplayRig(width: 400, height: 200, start: 0)
        let runtime = rig.makeRuntime()
        var settings = ElasticField.Settings()
        settings.size = Size(width: 200, height: 60)
        let scene = try runtime.install(ElasticField.self, settings: settings)
        runtime.run(untilSettled: true)
        scene.bounce()
        runtime.step()                                                         // the loop's turn: commit, wake
        var checked = 0
        for _ in 0..<20 {
            guard rig.advanceToNextEvent(runtime) else { break }
            let field = try #require(scene.field.presentation() as? ShapeLayer)
            // The drawn path is the one through the control points as presented in this frame.
            let expected = ElasticField.path(size: settings.size, cornerRadius: settings.cornerRadius,
                                             controls: field.sublayers.map(\.position))
            #expect(field.path == expected)
            checked += 1
        }
        #expect(checked == 20)
    }
}

@Suite("Contact sheet")
struct ContactSheetTests {
    @Test("the changed region is the union of differing pixels plus the margin")
    func changedRegion() {
        let a = PixelBuffer(width: 100, height: 80), b = PixelBuffer(width: 100, height: 80), c = PixelBuffer(width: 100, height: 80)
        b[40, 30] = 0xFFFF_FFFF
        c[60, 50] = 0xFFFF_FFFF
        let region = ContactSheet.changedRegion([a, b, c])
        let m = ContactSheet.margin
        #expect(region.x0 == 40 - m && region.y0 == 30 - m && region.x1 == 61 + m && region.y1 == 51 + m)
        #expect(ContactSheet.changedRegion([a, a]) == PixelRect(width: 100, height: 80))
        let sheet = ContactSheet.make(from: [a, b, c])
        let tileWidth = 61 + m - (40 - m)
        #expect(sheet.width == 3 * tileWidth + 4 * ContactSheet.gap)
    }
}
