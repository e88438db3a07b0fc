import CLinux
import Testing
@testable import LaminaDisplay
@testable import LaminaRaster

/// Reading a framebuffer device's screen info (`fb_var_screeninfo`, linux/fb.h) into a
/// format and a mode: the part of the fbdev backend that needs no device.
@Suite("fbdev screen info")
struct FBDevFormatTests {
    /// A screen info with the given depth and channel layout (offset, length).
    private func info(bits: UInt32, red: (UInt32, UInt32), green: (UInt32, UInt32), blue: (UInt32, UInt32)) -> fb_var_screeninfo {
        var info = fb_var_screeninfo()
        info.xres = 800
        info.yres = 480
        info.bits_per_pixel = bits
        info.red = fb_bitfield(offset: red.0, length: red.1, msb_right: 0)
        info.green = fb_bitfield(offset: green.0, length: green.1, msb_right: 0)
        info.blue = fb_bitfield(offset: blue.0, length: blue.1, msb_right: 0)
        return info
    }

    @Test("XRGB8888 and RGB565 layouts are recognised; BGR, 24-bit and odd lengths are not")
    func formats() {
        #expect(FBDevDevice.pixelFormat(info(bits: 32, red: (16, 8), green: (8, 8), blue: (0, 8))) == .xrgb8888)
        #expect(FBDevDevice.pixelFormat(info(bits: 16, red: (11, 5), green: (5, 6), blue: (0, 5))) == .rgb565)
        #expect(FBDevDevice.pixelFormat(info(bits: 32, red: (0, 8), green: (8, 8), blue: (16, 8))) == nil)   // XBGR
        #expect(FBDevDevice.pixelFormat(info(bits: 24, red: (16, 8), green: (8, 8), blue: (0, 8))) == nil)
        #expect(FBDevDevice.pixelFormat(info(bits: 16, red: (10, 5), green: (5, 5), blue: (0, 5))) == nil)   // XRGB1555
    }

    @Test("the refresh comes from pixclock and the margins: 800x480 with 33.333 MHz and 1056x525 totals is 60.1 Hz")
    func modeFromTimings() {
        var timed = info(bits: 32, red: (16, 8), green: (8, 8), blue: (0, 8))
        timed.pixclock = 30_000                                  // ps per pixel: 33.333 MHz
        timed.left_margin = 46; timed.right_margin = 210; timed.hsync_len = 0      // htotal 1056
        timed.upper_margin = 23; timed.lower_margin = 22; timed.vsync_len = 0      // vtotal 525
        let mode = FBDevDevice.mode(timed)
        #expect(mode.width == 800 && mode.height == 480)
        #expect(mode.clock == 33_333)
        #expect(abs(mode.refreshRate - 33_333_000.0 / (1056 * 525)) < 1e-9)
    }

    @Test("a driver that reports no pixel clock (or a nonsense one) gets 60 Hz")
    func modeWithoutTimings() {
        var plain = info(bits: 16, red: (11, 5), green: (5, 6), blue: (0, 5))
        #expect(abs(FBDevDevice.mode(plain).refreshRate - 60) < 0.05)
        plain.pixclock = 1                                       // 1 THz: not a panel
        #expect(abs(FBDevDevice.mode(plain).refreshRate - 60) < 0.05)
    }
}
