import Foundation
import Lamina
@testable import LaminaSceneFiles
@testable import LaminaRuntime
import LaminaGeometry
import LaminaTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

@Suite("systemd notification")
struct SystemdNotifierTests {
    typealias Listener = NotifySocketListener

    @Test("without NOTIFY_SOCKET nothing is sent")
    func inactive() {
        #expect(!SystemdNotifier(environment: [:]).isActive)
        #expect(!SystemdNotifier(environment: ["NOTIFY_SOCKET": "relative"]).notify("READY=1"))
    }

    @Test("READY=1 is sent when the first flip completes, not when the frame is drawn")
    func readyAfterFirstFlip() throws {
        let listener = try Listener()
        let rig = try DummyDisplayRig(width: 16, height: 16, start: 0)
        let runtime = rig.makeRuntime()
        runtime.notifier = SystemdNotifier(environment: ["NOTIFY_SOCKET": listener.path])
        runtime.step()                                   // draws and flips the first frame
        #expect(runtime.renderedFrames == 1 && rig.display.isFlipPending)
        #expect(listener.messages().isEmpty)
        rig.advanceToNextEvent(runtime)                  // the flip completes
        let messages = listener.messages()
        #expect(messages.count == 1)
        #expect(messages.first?.hasPrefix("READY=1\nSTATUS=showing Virtual-1 16x16") == true)
        runtime.run(exitAfter: 1, untilSettled: false)
        #expect(listener.messages().isEmpty)             // once only
    }

    @Test("WATCHDOG_USEC gives the period; a WATCHDOG_PID of another process turns it off")
    func watchdogPeriod() {
        #expect(SystemdNotifier(environment: ["WATCHDOG_USEC": "20000000"]).watchdogInterval == 20)
        #expect(SystemdNotifier(environment: ["WATCHDOG_USEC": "20000000", "WATCHDOG_PID": "\(getpid())"]).watchdogInterval == 20)
        #expect(SystemdNotifier(environment: ["WATCHDOG_USEC": "20000000", "WATCHDOG_PID": "1"]).watchdogInterval == nil)
        #expect(SystemdNotifier(environment: [:]).watchdogInterval == nil)
    }

    /// A runtime with a 2 s watchdog reporting to `listener`, and the times of its pings.
    private func watchedRuntime(_ rig: DummyDisplayRig, _ listener: Listener) -> Runtime {
        let runtime = rig.makeRuntime()
        runtime.notifier = SystemdNotifier(environment: ["NOTIFY_SOCKET": listener.path, "WATCHDOG_USEC": "2000000"])
        return runtime
    }

    @Test("pings follow flips at most every half period while frames run, and idle vblank probes keep them going")
    func watchdogFromFlips() throws {
        let listener = try Listener()
        let rig = try DummyDisplayRig(width: 16, height: 16, refresh: 60, start: 0)
        let runtime = watchedRuntime(rig, listener)
        let link = runtime.addFlickeringLayer(frame: Rect(x: 2, y: 2, width: 4, height: 4))
        var messages: [String] = []
        for _ in 0..<10 {                                                         // read as systemd would
            runtime.run(exitAfter: 1, untilSettled: false)
            messages += listener.messages()
        }
        #expect(runtime.watchdogPings >= 10 && runtime.watchdogPings <= 11)       // every 1 s of 10
        link.isPaused = true
        let flipsBefore = rig.device.completedFlips
        let pingsBefore = runtime.watchdogPings
        for _ in 0..<10 {                                                         // idle: nothing flips
            runtime.run(exitAfter: 1, untilSettled: false)
            messages += listener.messages()
        }
        #expect(rig.device.completedFlips <= flipsBefore + 1)
        #expect(runtime.watchdogPings - pingsBefore >= 9)                         // probed vblanks
        #expect(runtime.stats.idleWakeUps <= 10)                                  // the 10 run deadlines; probes are work
        #expect(messages.filter { $0 == "WATCHDOG=1" }.count == runtime.watchdogPings)
    }

    @Test("a lost DRM master stops the pings; a blanked panel keeps them; STATUS says which")
    func watchdogStopsWithoutOutput() throws {
        let listener = try Listener()
        let rig = try DummyDisplayRig(width: 16, height: 16, refresh: 60, start: 0)
        let runtime = watchedRuntime(rig, listener)
        _ = runtime.addFlickeringLayer(frame: Rect(x: 2, y: 2, width: 4, height: 4))
        runtime.run(exitAfter: 2, untilSettled: false)
        rig.device.isMasterLost = true
        rig.device.isMasterHeldElsewhere = true
        runtime.run(exitAfter: 0.1, untilSettled: false)
        let pings = runtime.watchdogPings
        let lost = listener.messages()
        runtime.run(exitAfter: 6, untilSettled: false)
        #expect(runtime.watchdogPings == pings)
        #expect(lost.contains("STATUS=paused: another client has the display (DRM master lost)"), "\(lost)")

        let blankRig = try DummyDisplayRig(width: 16, height: 16, refresh: 60, start: 0)
        let blanking = watchedRuntime(blankRig, listener)
        blanking.blankAfter = 1
        blanking.run(exitAfter: 1.5, untilSettled: false)
        #expect(blankRig.display.isBlanked)
        let before = blanking.watchdogPings
        let blanked = listener.messages()
        blanking.run(exitAfter: 6, untilSettled: false)
        #expect(blanking.watchdogPings - before >= 5)
        #expect(blanked.contains("STATUS=blanked (idle); a touch wakes it"), "\(blanked)")
    }
}
