import Foundation
import Lamina
@testable import LaminaSceneFiles
@testable import LaminaRuntime
import LaminaDisplay
import LaminaGeometry
import LaminaRaster
import LaminaScenes
import LaminaTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The fbdev backend on the kernel's own framebuffer device: vkms's fbdev emulation
/// (`vkmsdrmfb`, two screens of memory in the VM: `drm_fbdev_overalloc=200`).
extension KernelDisplayTests {
    @Test("fbdev on /dev/fb0, panned and single buffered: the elastic field is the dummy's frame and the CRTC scans it out",
          arguments: [true, false])
    func fbdevMatchesDummy(panning: Bool) throws {
        // The console shares the framebuffer: muted, it draws no cursor over the picture.
        let console = try ConsoleMute.mute(path: "/dev/tty1").get()
        defer { console.restore() }
        let device = try FBDevDevice(path: "/dev/fb0", clock: SystemClock(), allowPanning: panning)
        #expect(device.driverName == "vkmsdrmfb")
        #expect(device.isDoubleBuffered == panning)
        let display = try Display(device: device, format: device.format)
        defer { display.close() }
        let background = Color(red8: 0x0F, green8: 0x11, blue8: 0x15)
        let runtime = Runtime(display: display, clock: device.clock, background: background, logger: KernelDisplay.quietLogger())
        _ = try runtime.install(ElasticField.self, settings: ElasticField.Settings())
        #expect(runtime.run(exitAfter: 10, untilSettled: true) == .settled)
        #expect(runtime.flipCount >= 1)

        let clock = VirtualClock(start: 0)
        let dummy = try Display(device: DummyKMSDevice(clock: clock, modes: [display.mode]))
        let reference = Runtime(display: dummy, clock: clock, background: background, logger: KernelDisplay.quietLogger())
        _ = try reference.install(ElasticField.self, settings: ElasticField.Settings())
        #expect(reference.run(untilSettled: true) == .settled)
        let dummyFrame = try #require(try dummy.captureComposedFrame())

        let shown = try #require(try display.captureComposedFrame())
        #expect(Pixels.differing(shown, dummyFrame) == 0)
        // What the CRTC composes, through writeback: this process is the only DRM client, so
        // it is master; the emulation's deferred I/O flushes within 50 ms.
        usleep(200_000)
        let card = try DRMDevice(path: KernelDisplay.card)
        let crtc = try #require(try card.resources().crtcs.first)
        let scanned = try #require(try card.captureComposedFrame(crtc: crtc))
        #expect(scanned.width == display.width && scanned.height == display.height)
        #expect(Pixels.differing(scanned, dummyFrame) == 0)
    }
}
