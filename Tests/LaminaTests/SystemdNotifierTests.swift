import Foundation
import Lamina
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
}
