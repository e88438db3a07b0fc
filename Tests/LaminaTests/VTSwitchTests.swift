import Lamina
@testable import LaminaSceneFiles
@testable import LaminaRuntime
import LaminaDisplay
import LaminaGeometry
import LaminaInput
import LaminaTestSupport
import Testing

/// VT switching in `VT_PROCESS` mode (display-input.md §9) on the dummy KMS device: the
/// runtime's answers to the kernel's release and acquire requests.
@Suite("VT switching")
struct VTSwitchTests {
    /// Records the answers the runtime gives the kernel.
    final class RecordingVT: VTSwitchAcknowledging {
        var answers: [String] = []
        func allowSwitchAway() { answers.append("release") }
        func acknowledgeReturn() { answers.append("acquire") }
    }

    @Test("switching away drops master before allowing the switch; nothing flips until the VT returns, then all is repainted")
    func switchAwayAndBack() throws {
        let rig = try DummyDisplayRig(width: 40, height: 30, refresh: 60, start: 0)
        let log = CapturedLog()
        let runtime = rig.makeRuntime(log: log)
        let vt = RecordingVT()
        runtime.vtSwitch = vt
        let link = runtime.addFlickeringLayer(frame: Rect(x: 2, y: 2, width: 8, height: 8))
        runtime.run(exitAfter: 0.105, untilSettled: false)
        #expect(rig.display.isFlipPending)                     // the switch comes with a flip in flight

        runtime.switchAwayForVT()
        #expect(vt.answers == ["release"] && rig.device.isMasterLost)
        runtime.run(exitAfter: 0.1, untilSettled: false)       // the flip in flight completes
        let flips = rig.device.completedFlips
        runtime.run(exitAfter: 3, untilSettled: false)
        #expect(rig.device.completedFlips == flips)
        #expect(runtime.failedFlips == 0 && log.count(containing: "lost DRM master") == 0)
        #expect(rig.device.modesetCount == 1)

        runtime.returnFromVTSwitch()
        #expect(vt.answers == ["release", "acquire"])
        #expect(!runtime.isOutputPaused && rig.device.modesetCount == 2)
        runtime.run(exitAfter: 0.5, untilSettled: false)
        #expect(rig.device.completedFlips > flips + 25)
        #expect(log.count(containing: "VT switched away") == 1 && log.count(containing: "DRM master regained") == 1)
        link.isPaused = true
        #expect(runtime.run(untilSettled: true) == .settled)
        #expect(Pixels.differing(try #require(rig.device.framebufferImage(rig.display.frontFramebuffer)),
                                 rig.display.shadow) == 0)
    }

    @Test("back on the VT while the other client still holds master: retried each second until it lets go")
    func returnWhileMasterHeld() throws {
        let rig = try DummyDisplayRig(width: 40, height: 30, refresh: 60, start: 0)
        let runtime = rig.makeRuntime()
        runtime.vtSwitch = RecordingVT()
        _ = runtime.addFlickeringLayer(frame: Rect(x: 2, y: 2, width: 8, height: 8))
        runtime.run(exitAfter: 0.1, untilSettled: false)
        runtime.switchAwayForVT()
        rig.device.isMasterHeldElsewhere = true
        runtime.returnFromVTSwitch()
        #expect(runtime.isOutputPaused)
        runtime.run(exitAfter: 2.5, untilSettled: false)
        #expect(runtime.isOutputPaused)
        rig.device.isMasterHeldElsewhere = false
        runtime.run(exitAfter: 1.1, untilSettled: false)
        #expect(!runtime.isOutputPaused && rig.device.modesetCount == 2)
    }

    @Test("touches while switched away are not delivered and do not wake a blanked panel")
    func touchesIgnoredWhileAway() throws {
        let rig = try DummyDisplayRig(width: 40, height: 30, refresh: 60, start: 0)
        let runtime = rig.makeRuntime()
        runtime.vtSwitch = RecordingVT()
        runtime.blankAfter = 0.5
        runtime.addTouchSource(ScriptedTouchSource(script: try TouchScript(parsing: "at 2 tap 5,5"), start: 0))
        runtime.run(exitAfter: 1, untilSettled: false)
        #expect(rig.display.isBlanked)
        runtime.switchAwayForVT()
        runtime.run(exitAfter: 2, untilSettled: false)
        #expect(runtime.stats.touches == 0 && rig.display.isBlanked)
    }
}
