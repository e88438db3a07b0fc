import Foundation
import Lamina
@testable import LaminaSceneFiles
@testable import LaminaRuntime
import LaminaTools
import LaminaDisplay
import LaminaGeometry
import LaminaLayers
import LaminaRaster
import LaminaScenes
import LaminaTestSupport
import Logging
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Whether the real-kernel display tests run: where `/dev/dri/card0` exists (the VM stage,
/// `scripts/vm-test`, which also sets `LAMINA_REQUIRE_KERNEL=1` so a missing device fails
/// instead of skipping).
enum KernelDisplay {
    static let card = "/dev/dri/card0"
    static var enabled: Bool {
        ProcessInfo.processInfo.environment["LAMINA_REQUIRE_KERNEL"] == "1" || FileManager.default.fileExists(atPath: card)
    }
    static let skipReason: Comment = "needs /dev/dri/card0 (the vkms VM stage runs these: scripts/vm-test)"

    static func quietLogger() -> Logger {
        var logger = Logger(label: "lamina-kernel-test")
        logger.logLevel = .error
        return logger
    }
}

/// An 800x600 frame of this process's own (a 0x5A pattern) on the connected connector's
/// CRTC, as another DRM client would show; needs DRM master; freed on deinit.
final class OtherClientFrame {
    let device: DRMDevice
    let crtc: UInt32
    let mode: KMSMode
    let framebuffer: UInt32
    private let buffer: DumbBuffer
    private let memory: UnsafeMutableRawBufferPointer

    init(device: DRMDevice) throws {
        self.device = device
        let connector = try #require(try device.resources().connectors.first { $0.isConnected })
        mode = try #require(connector.modes.first { $0.width == 800 && $0.height == 600 })
        crtc = try #require(connector.possibleCRTCs.first)
        buffer = try device.createDumbBuffer(width: 800, height: 600, bitsPerPixel: 32)
        memory = try device.mapDumbBuffer(buffer)
        memory.initializeMemory(as: UInt8.self, repeating: 0x5A)
        framebuffer = try device.addFramebuffer(buffer, format: .xrgb8888)
        try device.setCRTC(crtc, framebuffer: framebuffer, connector: connector.id, mode: mode)
    }

    deinit {
        device.removeFramebuffer(framebuffer)
        device.destroyDumbBuffer(buffer, mapping: memory)
    }
}

/// Lamina against the kernel's own DRM/KMS (vkms in the VM): probe, vblank-paced flips
/// driving the display link, the composed frame read back through writeback, and the CRTC
/// restored after SIGTERM. Serialized: only one client can be DRM master.
@Suite("Kernel display (vkms)", .serialized, .enabled(if: KernelDisplay.enabled, KernelDisplay.skipReason))
struct KernelDisplayTests {
    @Test("lamina probe lists vkms: Virtual-1 connected at 1024x768 preferred, a CRTC, planes, atomic, writeback")
    func probe() throws {
        let result = try ChildProcess(CommandLineTests.executable.path, ["probe", "--json"]).finish()
        #expect(result.status == 0, "\(result.stderr)")
        let report = try JSONDecoder().decode(ProbeReport.self, from: Data(result.stdout.utf8))
        let card = try #require(report.cards.first { $0.path == KernelDisplay.card })
        #expect(card.error == nil)
        let connector = try #require(card.connectors.first { $0.name == "Virtual-1" })
        #expect(connector.connected)
        #expect(connector.modes.count >= 30)
        let preferred = try #require(connector.modes.first { $0.preferred })
        #expect(preferred.width == 1024 && preferred.height == 768)
        #expect(abs(preferred.refreshHz - 60) < 0.5)
        #expect(card.crtcs.count == 1 && connector.possibleCRTCs == card.crtcs)
        #expect(card.atomic)
        #expect(card.writebackConnector != nil)
        #expect(card.planes.contains { $0.kind == .primary && $0.formats.contains("XR24") && $0.formats.contains("RG16") })
        #expect(card.planes.contains { $0.kind == .cursor })
        // vkms's fbdev emulation, with two screens of memory in the VM.
        let framebuffer = try #require(report.framebuffers.first { $0.path == "/dev/fb0" })
        #expect(framebuffer.error == nil && framebuffer.driver == "vkmsdrmfb")
        #expect(framebuffer.width == 1024 && framebuffer.height == 768 && framebuffer.format == "xrgb8888")
        #expect(framebuffer.twoScreens == true)
    }

    @Test("flips complete on the kernel's vblanks for 5 s (every interval a whole number of refresh periods) and every display-link timestamp is a flip's kernel timestamp")
    func flipPacing() throws {
        let device = try DRMDevice(path: KernelDisplay.card)
        let display = try Display(device: device)
        defer { display.close() }
        let clock = SystemClock()
        let runtime = Runtime(display: display, clock: clock, background: .black, logger: KernelDisplay.quietLogger())
        var linkStamps: [(timestamp: Double, now: Double)] = []
        _ = runtime.addFlickeringLayer(frame: Rect(x: 100, y: 100, width: 64, height: 64)) { link in
            linkStamps.append((link.timestamp, clock.now))
        }
        #expect(runtime.run(exitAfter: 5.5, untilSettled: false) == .timeLimit)
        let flips = runtime.recentFlipTimestamps
        try #require(flips.count > 20)
        let span = flips.last! - flips.first!
        let rate = Double(flips.count - 1) / span
        #expect(span >= 5)
        // Paced by the kernel at whatever speed the (emulated) machine draws: never faster
        // than the refresh, each flip on a vblank of vkms's grid.
        let period = 1 / display.mode.refreshRate
        #expect(rate <= display.mode.refreshRate * 1.001, "flip rate \(rate) Hz")
        #expect(KernelPacing.onVblankGrid(flips, period: period),
                "intervals off the \(period * 1000) ms grid: \(zip(flips, flips.dropFirst()).map { ($1 - $0) * 1000 }.prefix(40))")
        print("flip pacing in the VM: \(String(format: "%.1f", rate)) Hz on a \(String(format: "%.3f", display.mode.refreshRate)) Hz mode")
        // The link's timestamps come from the flip events (after the first, re-synced frame),
        // on CLOCK_MONOTONIC: never in the future, never far behind.
        let flipSet = Set(flips)
        let fromFlips = linkStamps.dropFirst().filter { flipSet.contains($0.timestamp) }.count
        #expect(fromFlips == linkStamps.count - 1)
        for stamp in linkStamps { #expect(stamp.timestamp <= stamp.now && stamp.now - stamp.timestamp < 0.5) }
    }

    @Test("the frame read back through writeback is pixel-identical to the dummy backend's rendering of the same scene")
    func writebackMatchesDummy() throws {
        let device = try DRMDevice(path: KernelDisplay.card)
        let display = try Display(device: device)
        defer { display.close() }
        let runtime = Runtime(display: display, clock: SystemClock(), background: Color(red8: 0x0F, green8: 0x11, blue8: 0x15),
                              logger: KernelDisplay.quietLogger())
        _ = try runtime.install(ElasticField.self, settings: ElasticField.Settings())
        #expect(runtime.run(exitAfter: 10, untilSettled: true) == .settled)
        let kernelFrame = try #require(try display.captureComposedFrame(), "vkms has a writeback connector")

        let clock = VirtualClock(start: 0)
        let dummy = try Display(device: DummyKMSDevice(clock: clock, modes: [display.mode]))
        let reference = Runtime(display: dummy, clock: clock, background: runtime.background, logger: KernelDisplay.quietLogger())
        _ = try reference.install(ElasticField.self, settings: ElasticField.Settings())
        #expect(reference.run(untilSettled: true) == .settled)
        let dummyFrame = try #require(try dummy.captureComposedFrame())
        #expect(kernelFrame.width == 1024 && kernelFrame.height == 768)
        #expect(Pixels.differing(kernelFrame, dummyFrame) == 0)
        #expect(Pixels.differing(kernelFrame, display.shadow) == 0)
    }

    @Test("SIGTERM ends the daemon cleanly and puts back the CRTC it found (framebuffer and mode)")
    func sigtermRestoresCRTC() throws {
        // This process sets up a CRTC of its own (800x600, a test pattern), then lets go of
        // DRM master so the daemon can take the display.
        let device = try DRMDevice(path: KernelDisplay.card)
        let own = try OtherClientFrame(device: device)
        let (crtc, framebuffer, mode) = (own.crtc, own.framebuffer, own.mode)
        try device.dropMaster()

        let listener = try NotifySocketListener()
        let daemon = try ChildProcess(CommandLineTests.executable.path, ["run", "--backend", "drm", "--exit-after", "60"],
                                      environment: ["NOTIFY_SOCKET": listener.path])
        let ready = listener.wait(for: "READY=1", limit: 60)
        let during = try device.crtcState(crtc)
        daemon.signal(SIGTERM)
        let result = daemon.finish()
        #expect(ready, "the daemon announced its first flip: \(result.stderr)")
        #expect(during.framebuffer != framebuffer && during.mode?.width == 1024)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("stopped (signal)"))
        let after = try device.crtcState(crtc)
        #expect(after.framebuffer == framebuffer)
        #expect(after.mode == mode)
    }

    /// Forces the vkms connector's status and announces it as the kernel announces a
    /// hotplug: a `change` uevent on the card with `HOTPLUG=1` (a synthetic uevent; vkms
    /// itself never signals one), which udevd relays to Lamina's monitor.
    private func plug(_ state: String) throws {
        try state.write(toFile: "/sys/class/drm/card0-Virtual-1/status", atomically: false, encoding: .utf8)
        try "change \(UUID().uuidString.lowercased()) HOTPLUG=1".write(toFile: "/sys/class/drm/card0/uevent",
                                                                      atomically: false, encoding: .utf8)
    }

    @Test("a connector unplugged goes dark without stopping the link; plugged back it is lit and flips again (udev hotplug)")
    func hotplugThroughUdev() throws {
        let device = try DRMDevice(path: KernelDisplay.card)
        let clock = SystemClock()
        let display = try Display(device: device, virtualMode: KMSMode.cea1080p60, clock: clock)
        defer {
            try? "detect".write(toFile: "/sys/class/drm/card0-Virtual-1/status", atomically: false, encoding: .utf8)
            display.close()
        }
        let log = CapturedLog()
        let runtime = Runtime(display: display, clock: clock, background: .black, logger: log.logger())
        var linkCalls = 0
        _ = runtime.addFlickeringLayer(frame: Rect(x: 10, y: 10, width: 20, height: 20)) { _ in linkCalls += 1 }
        runtime.run(exitAfter: 0.5, untilSettled: false)
        #expect(display.isLit)

        try plug("off")
        #expect(runtime.run(until: { !display.isLit }), "\(log.lines)")
        // The virtual output keeps the link running (about 60 calls a second at full speed).
        let callsWhileDark = linkCalls
        #expect(runtime.run(until: { linkCalls - callsWhileDark >= 30 }))

        try plug("on")
        #expect(runtime.run(until: { display.isLit }), "\(log.lines)")
        let flips = runtime.flipCount
        #expect(runtime.run(until: { runtime.flipCount - flips >= 30 }))
        #expect(KernelPacing.onVblankGrid(Array(runtime.recentFlipTimestamps.suffix(20)), period: 1 / display.mode.refreshRate))
        #expect(log.count(containing: "display disconnected") == 1 && log.count(containing: "display connected: Virtual-1") == 1)
    }

    @Test("the VT is in graphics mode while the daemon shows, and back in text mode after SIGTERM")
    func consoleMuted() throws {
        let config = NSTemporaryDirectory() + "lamina-console-\(UUID().uuidString.prefix(8)).toml"
        try "[display]\nbackend = \"drm\"\nconsole = \"/dev/tty1\"\n".write(toFile: config, atomically: true, encoding: .utf8)
        defer { unlink(config) }
        #expect(ConsoleMute.displayMode(path: "/dev/tty1") == 0)             // KD_TEXT before
        let listener = try NotifySocketListener()
        let daemon = try ChildProcess(CommandLineTests.executable.path, ["run", "--config", config, "--exit-after", "60"],
                                      environment: ["NOTIFY_SOCKET": listener.path])
        let ready = listener.wait(for: "READY=1", limit: 60)
        let during = ConsoleMute.displayMode(path: "/dev/tty1")
        daemon.signal(SIGTERM)
        let result = daemon.finish()
        #expect(ready && result.status == 0, "\(result.stderr)")
        #expect(during == 1)                                                  // KD_GRAPHICS while shown
        #expect(ConsoleMute.displayMode(path: "/dev/tty1") == 0)
        #expect(result.stderr.contains("console /dev/tty1 muted"))
    }
}
