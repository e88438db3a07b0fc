import Lamina
@testable import LaminaSceneFiles
@testable import LaminaRuntime
import LaminaDisplay
import LaminaGeometry
import LaminaInput
import LaminaLayers
import LaminaTestSupport
import Testing

/// Idle blanking with wake on touch (display-input.md §10) on the dummy KMS device.
@Suite("Idle blanking")
struct IdleBlankingTests {
    @Test("after blank_after seconds without a touch the panel is turned off and nothing flips or runs links")
    func blanksWhenIdle() throws {
        let rig = try DummyDisplayRig(width: 40, height: 30, refresh: 60, start: 0)
        let log = CapturedLog()
        let runtime = rig.makeRuntime(log: log)
        runtime.blankAfter = 2
        var linkCalls = 0
        _ = runtime.addFlickeringLayer(frame: Rect(x: 2, y: 2, width: 8, height: 8)) { _ in linkCalls += 1 }
        runtime.run(exitAfter: 1.95, untilSettled: false)
        #expect(!rig.device.isPoweredOff)                              // animating is not a touch, yet not idle
        runtime.run(exitAfter: 0.1, untilSettled: false)
        #expect(rig.device.isPoweredOff)
        #expect(rig.display.isBlanked)
        #expect(log.count(containing: "display blanked after 2 s without a touch") == 1)
        let flips = rig.device.completedFlips, calls = linkCalls
        runtime.run(exitAfter: 10, untilSettled: false)
        #expect(rig.device.completedFlips == flips)
        #expect(linkCalls == calls)
        #expect(runtime.blankCount == 1 && rig.device.powerOffCount == 1)
    }

    @Test("a touch wakes the panel; that touch is swallowed, the next one is delivered")
    func wakingTouchSwallowed() throws {
        let rig = try DummyDisplayRig(width: 64, height: 48, refresh: 60, start: 0)
        let log = CapturedLog()
        let runtime = rig.makeRuntime(log: log)
        runtime.blankAfter = 1
        let button = Layer()
        button.frame = Rect(x: 0, y: 0, width: 64, height: 48)
        button.backgroundColor = .white
        runtime.rootLayer.addSublayer(button)
        var taps = 0
        runtime.dispatcher.addGestureRecognizer(TapGestureRecognizer { r in if r.state == .ended { taps += 1 } }, to: button)
        // A two-finger touch wakes the panel: both fingers are swallowed until both lift,
        // though the first lifts before the second (at 3.08) and a motion comes between.
        let script = try TouchScript(parsing: """
            at 3.0 tap 10,10 hold 0.2
            at 3.05 tap 30,30
            at 4.0 tap 20,20
            """)
        runtime.addTouchSource(ScriptedTouchSource(script: script, start: 0))
        runtime.run(exitAfter: 2.9, untilSettled: false)
        #expect(rig.device.isPoweredOff)
        runtime.run(exitAfter: 0.5, untilSettled: false)
        #expect(!rig.device.isPoweredOff)
        #expect(taps == 0)
        #expect(log.count(containing: "display woken by a touch") == 1)
        runtime.run(exitAfter: 0.7, untilSettled: false)
        #expect(taps == 1)                                                  // the tap at 4.0
        #expect(!rig.device.isPoweredOff)                                   // idle counts from 4.08
        runtime.run(exitAfter: 1, untilSettled: false)
        #expect(rig.device.isPoweredOff && rig.device.powerOffCount == 2)
    }

    @Test("while blanked the loop sleeps: no wake-ups, and waking shows the animation where it is now")
    func blankedIsIdle() throws {
        let rig = try DummyDisplayRig(width: 40, height: 30, refresh: 60, start: 0)
        let runtime = rig.makeRuntime()
        runtime.blankAfter = 0.5
        _ = runtime.addFlickeringLayer(frame: Rect(x: 2, y: 2, width: 8, height: 8))
        runtime.addTouchSource(ScriptedTouchSource(script: try TouchScript(parsing: "at 20 tap 5,5"), start: 0))
        runtime.run(exitAfter: 19.9, untilSettled: false)
        let stats = runtime.stats
        #expect(stats.idleSeconds > 19.3)
        #expect(stats.idleWakeUps == 1)                                     // the run's deadline; blanking is work
        let flips = rig.device.completedFlips
        runtime.run(exitAfter: 0.5, untilSettled: false)
        #expect(rig.device.completedFlips > flips + 20)                     // lit and animating again
        #expect(rig.device.modesetCount == 1)                              // DPMS, not a new modeset
    }

    @Test("flips refused again and again (the CRTC was turned off behind Lamina) lead to a new modeset")
    func persistentRefusalSetsModeAgain() throws {
        let rig = try DummyDisplayRig(width: 32, height: 32, refresh: 60, start: 0)
        let log = CapturedLog()
        let runtime = rig.makeRuntime(log: log)
        let link = runtime.addFlickeringLayer(frame: Rect(x: 2, y: 2, width: 8, height: 8))
        runtime.run(exitAfter: 0.1, untilSettled: false)
        // Another client turns the output off without telling Lamina.
        try rig.device.setPower(false, connector: rig.display.connector.id)
        runtime.run(exitAfter: 0.5, untilSettled: false)
        // The flip in flight completes as the output turns off; the next flip and the vblank
        // queries after it are refused, and the fifth refusal in a row sets the mode again.
        #expect(runtime.failedFlips >= 1 && runtime.failedFlips <= Runtime.refusalsBeforeModeset)
        #expect(rig.device.modesetCount == 2 && !rig.device.isPoweredOff)
        #expect(log.count(containing: "refused:") == 1)
        #expect(log.count(containing: "refused 5 times in a row: mode set again") == 1)
        link.isPaused = true
        #expect(runtime.run(untilSettled: true) == .settled)
        #expect(Pixels.differing(try #require(rig.device.framebufferImage(rig.display.frontFramebuffer)),
                                 rig.display.shadow) == 0)
    }
}
