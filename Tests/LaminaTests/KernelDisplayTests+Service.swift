import Foundation
import Lamina
@testable import LaminaSceneFiles
@testable import LaminaRuntime
import LaminaDisplay
import LaminaTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The systemd protocol against the real display (issue 7): the daemon on vkms under a
/// notify socket this test listens on, as systemd would run it with `WatchdogSec=1`.
extension KernelDisplayTests {
    @Test("READY=1 comes with the daemon's frame already on the CRTC; WATCHDOG=1 follows the flips and stops while the loop is stuck")
    func readyAndWatchdog() throws {
        let config = try daemonConfig("console = \"none\"")
        defer { unlink(config) }
        let device = try DRMDevice(path: KernelDisplay.card)
        try? device.dropMaster()
        let crtc = try #require(try device.resources().crtcs.first)
        let listener = try NotifySocketListener()
        let clock = SystemClock()
        let started = clock.now
        let daemon = try ChildProcess(CommandLineTests.executable.path, ["run", "--config", config, "--exit-after", "60"],
                                      environment: ["NOTIFY_SOCKET": listener.path, "WATCHDOG_USEC": "1000000"])
        var stopped = false
        defer { if !stopped { daemon.signal(SIGKILL); _ = daemon.finish() } }
        try #require(listener.wait(for: "READY=1", limit: 60))
        let readyAfter = clock.now - started
        let shown = try device.crtcState(crtc)
        #expect(shown.mode?.width == 1024 && shown.framebuffer != 0)

        /// WATCHDOG=1 datagrams arriving within `seconds`.
        func pings(over seconds: Double) -> Int {
            let end = clock.now + seconds
            var count = 0
            while clock.now < end {
                var ready = pollfd(fd: listener.fd, events: Int16(POLLIN), revents: 0)
                _ = poll(&ready, 1, Int32(max(1, min(100, (end - clock.now) * 1000))))
                count += listener.messages().filter { $0 == "WATCHDOG=1" }.count
            }
            return count
        }
        _ = listener.messages()
        let running = pings(over: 3)                       // idle screen: vblank probes every 0.5 s
        daemon.signal(SIGSTOP)                             // a stuck loop
        _ = listener.messages()
        let stuck = pings(over: 2)
        daemon.signal(SIGCONT)
        let resumed = pings(over: 3)
        daemon.signal(SIGTERM)
        let result = daemon.finish()
        stopped = true
        // Six pings in 3 s at full speed; an emulated machine under load may send fewer.
        #expect(running >= 2, "\(running) pings in 3 s")
        #expect(stuck == 0)
        #expect(resumed >= 1)
        #expect(result.status == 0, "\(result.stderr)")
        print("vkms: process start to READY=1 (first flip completed) in \(Int(readyAfter * 1000)) ms; watchdog pings: \(running) in 3 s running, \(stuck) stuck, \(resumed) in 3 s after")
    }
}
