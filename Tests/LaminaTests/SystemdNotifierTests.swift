import Foundation
import Lamina
import LaminaTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

@Suite("systemd notification")
struct SystemdNotifierTests {
    /// A bound datagram socket standing in for systemd's notify socket.
    final class Listener {
        let fd: Int32
        let path: String

        init() throws {
            path = NSTemporaryDirectory() + "lamina-notify-\(UUID().uuidString.prefix(8))"
            fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            withUnsafeMutableBytes(of: &address.sun_path) { raw in
                for (i, b) in path.utf8.enumerated() { raw[i] = b }
            }
            let status = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
            }
            guard status == 0 else { throw POSIXError(.EADDRINUSE) }
        }

        deinit {
            close(fd)
            unlink(path)
        }

        /// Every datagram waiting, without blocking.
        func messages() -> [String] {
            var out: [String] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let n = recv(fd, &buffer, buffer.count, Int32(MSG_DONTWAIT))
                if n <= 0 { break }
                out.append(String(decoding: buffer[0..<n], as: UTF8.self))
            }
            return out
        }
    }

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
