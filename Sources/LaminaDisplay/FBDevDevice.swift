import CLinux
import LaminaPixels
import SystemPackage
#if canImport(Glibc)
import Glibc
#endif

/// A Linux framebuffer device (`/dev/fb0`) behind the KMS device contract, for boards
/// without KMS (display-input.md §11): one connector (`fb0`) with the framebuffer's mode,
/// and its two "dumb buffers" are the two halves of a framebuffer twice the screen's height,
/// flipped by panning (`FBIOPAN_DISPLAY`). Where the driver cannot pan (or cannot give a
/// virtual height of two screens) both buffers are the visible memory itself: single
/// buffered, drawn in place. fbdev reports no vblanks, so they are predicted on `clock` at
/// the rate the mode's timings give (60 Hz when the driver gives none), like the dummy's.
public final class FBDevDevice: KMSDevice {
    /// The device node, such as `/dev/fb0`.
    public let path: String
    /// The open descriptor.
    public let fd: Int32
    /// The driver's name (`fix.id`), such as `vkmsdrmfb`.
    public let driverName: String
    /// The framebuffer's own pixel format, drawn in directly.
    public let format: PixelFormat
    /// The framebuffer's one mode.
    public let mode: KMSMode
    /// True when the two buffers are panned between; false: one buffer, drawn in place.
    public let isDoubleBuffered: Bool
    /// The driver's memory holds two screens (it can pan if it also takes the virtual size).
    public let hasMemoryForTwoScreens: Bool
    /// The clock its predicted vblanks are timed on.
    public let clock: MonotonicClock

    private let pitch: Int
    private let memory: UnsafeMutableRawBufferPointer
    private let savedVar: fb_var_screeninfo
    private var current: fb_var_screeninfo
    private var vblanks: VBlankGrid?
    private var pending: [(kind: VBlankEvent.Kind, sequence: UInt64)] = []
    /// The buffer (1 or 2) panned to.
    private var shown: UInt32 = 1
    /// The buffers handed out.
    private var allocated: Set<UInt32> = []
    static let connectorID: UInt32 = 1
    static let crtcID: UInt32 = 1

    /// Opens `path`, reads its mode and format, and asks for a virtual height of two screens
    /// to pan between (unless `allowPanning` is false).
    public init(path: String = "/dev/fb0", clock: MonotonicClock, allowPanning: Bool = true) throws(KMSError) {
        let fd = Glibc.open(path, O_RDWR | O_CLOEXEC)
        guard fd >= 0 else { throw KMSError(call: "open", errno: errno, detail: path) }
        var info = fb_var_screeninfo()
        var fixed = fb_fix_screeninfo()
        guard ioctl(fd, UInt(FBIOGET_VSCREENINFO), &info) == 0, ioctl(fd, UInt(FBIOGET_FSCREENINFO), &fixed) == 0 else {
            let error = errno
            Glibc.close(fd)
            throw KMSError(call: "FBIOGET_VSCREENINFO", errno: error, detail: path)
        }
        guard let format = Self.pixelFormat(info) else {
            Glibc.close(fd)
            throw KMSError(call: "FBIOGET_VSCREENINFO", errno: Errno.invalidArgument,
                           detail: "\(path): \(info.bits_per_pixel) bits per pixel with red at \(info.red.offset) is neither XRGB8888 nor RGB565")
        }
        savedVar = info
        let height = Int(info.yres)
        // Two screens to pan between: offered already, or asked for.
        if allowPanning && info.yres_virtual < 2 * info.yres && Int(fixed.smem_len) >= 2 * height * Int(fixed.line_length) {
            var taller = info
            taller.yres_virtual = 2 * info.yres
            taller.yoffset = 0
            if ioctl(fd, UInt(FBIOPUT_VSCREENINFO), &taller) == 0 {
                _ = ioctl(fd, UInt(FBIOGET_VSCREENINFO), &info)
                _ = ioctl(fd, UInt(FBIOGET_FSCREENINFO), &fixed)
            }
        }
        let length = Int(fixed.smem_len)
        guard let base = mmap(nil, length, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0), base != MAP_FAILED else {
            let error = errno
            Glibc.close(fd)
            throw KMSError(call: "mmap", errno: error, detail: path)
        }
        self.path = path
        self.fd = fd
        self.clock = clock
        self.format = format
        pitch = Int(fixed.line_length)
        memory = UnsafeMutableRawBufferPointer(start: base, count: length)
        driverName = withUnsafeBytes(of: fixed.id) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        hasMemoryForTwoScreens = length >= 2 * height * pitch
        isDoubleBuffered = allowPanning && info.yres_virtual >= 2 * info.yres && hasMemoryForTwoScreens
        current = info
        mode = Self.mode(info)
    }

    deinit {
        munmap(memory.baseAddress, memory.count)
        Glibc.close(fd)
    }

    public var name: String { "\(path) (\(driverName), fbdev)" }

    /// The scanout format a framebuffer's channel layout is, if Lamina can draw it.
    public static func pixelFormat(_ info: fb_var_screeninfo) -> PixelFormat? {
        switch (info.bits_per_pixel, info.red.offset, info.green.offset, info.blue.offset) {
        case (32, 16, 8, 0) where info.red.length == 8 && info.green.length == 8 && info.blue.length == 8: return .xrgb8888
        case (16, 11, 5, 0) where info.red.length == 5 && info.green.length == 6 && info.blue.length == 5: return .rgb565
        default: return nil
        }
    }

    /// The framebuffer's mode: its size, and timings from `pixclock` (picoseconds per pixel)
    /// and the margins; a driver that gives no pixel clock gets 60 Hz.
    public static func mode(_ info: fb_var_screeninfo) -> KMSMode {
        let width = Int(info.xres), height = Int(info.yres)
        let htotal = width + Int(info.left_margin + info.right_margin + info.hsync_len)
        let vtotal = height + Int(info.upper_margin + info.lower_margin + info.vsync_len)
        if info.pixclock > 0 {
            let kHz = Int((1e9 / Double(info.pixclock)).rounded())
            let candidate = KMSMode(name: "\(width)x\(height)", width: width, height: height, clock: kHz,
                                    htotal: htotal, vtotal: vtotal, isPreferred: true)
            if (10...240).contains(candidate.refreshRate) { return candidate }
        }
        let clock = Int((60 * Double(htotal * vtotal) / 1000).rounded())
        return KMSMode(name: "\(width)x\(height)", width: width, height: height, clock: clock,
                       htotal: htotal, vtotal: vtotal, isPreferred: true)
    }

    public func resources() throws(KMSError) -> KMSResources {
        let connector = KMSConnector(id: Self.connectorID, name: "fb0", isConnected: true, modes: [mode],
                                     possibleCRTCs: [Self.crtcID])
        let plane = KMSPlane(id: 1, kind: .primary, formats: [format.fourcc], possibleCRTCs: [Self.crtcID])
        return KMSResources(connectors: [connector], crtcs: [Self.crtcID], planes: [plane])
    }

    /// Buffer 1 is the top screen, buffer 2 the bottom one (the top again when single
    /// buffered); the size is the framebuffer's, whatever is asked.
    public func createDumbBuffer(width: Int, height: Int, bitsPerPixel: Int) throws(KMSError) -> DumbBuffer {
        guard width == mode.width, height == mode.height, bitsPerPixel == format.bitsPerPixel else {
            throw KMSError(call: "fbdev buffer", errno: Errno.invalidArgument, detail: "\(width)x\(height)x\(bitsPerPixel) is not the framebuffer's")
        }
        guard let handle = ([1, 2] as [UInt32]).first(where: { !allocated.contains($0) }) else {
            throw KMSError(call: "fbdev buffer", errno: Errno.resourceBusy, detail: "both buffers are in use")
        }
        allocated.insert(handle)
        return DumbBuffer(handle: handle, width: width, height: height, bitsPerPixel: bitsPerPixel,
                          pitch: pitch, size: pitch * height)
    }

    private func offset(_ handle: UInt32) -> Int { isDoubleBuffered && handle == 2 ? mode.height * pitch : 0 }

    public func mapDumbBuffer(_ buffer: DumbBuffer) throws(KMSError) -> UnsafeMutableRawBufferPointer {
        UnsafeMutableRawBufferPointer(rebasing: memory[offset(buffer.handle) ..< offset(buffer.handle) + buffer.size])
    }

    public func destroyDumbBuffer(_ buffer: DumbBuffer, mapping: UnsafeMutableRawBufferPointer?) {
        allocated.remove(buffer.handle)
    }

    public func addFramebuffer(_ buffer: DumbBuffer, format: PixelFormat) throws(KMSError) -> UInt32 {
        guard format == self.format else {
            throw KMSError(call: "fbdev framebuffer", errno: Errno.invalidArgument, detail: "the framebuffer is \(self.format.rawValue)")
        }
        return buffer.handle
    }

    public func removeFramebuffer(_ id: UInt32) {}

    /// Pans to the buffer and starts the predicted vblanks.
    public func setCRTC(_ crtc: UInt32, framebuffer: UInt32, connector: UInt32, mode: KMSMode) throws(KMSError) {
        guard crtc == Self.crtcID, connector == Self.connectorID, mode == self.mode else {
            throw KMSError(call: "fbdev modeset", errno: Errno.invalidArgument)
        }
        try pan(to: framebuffer)
        _ = lamina_ioctl_value(fd, UInt(FBIOBLANK), UInt(FB_BLANK_UNBLANK))
        vblanks = VBlankGrid(epoch: clock.now, period: 1 / mode.refreshRate)
        pending.removeAll()
    }

    /// `FBIOPAN_DISPLAY` to the buffer's screen (nothing to do when single buffered).
    private func pan(to framebuffer: UInt32) throws(KMSError) {
        shown = framebuffer
        guard isDoubleBuffered else { return }
        var info = current
        info.xoffset = 0
        info.yoffset = UInt32(offset(framebuffer) / pitch)
        guard ioctl(fd, UInt(FBIOPAN_DISPLAY), &info) == 0 else {
            throw KMSError(call: "FBIOPAN_DISPLAY", errno: errno, detail: path)
        }
        current.yoffset = info.yoffset
    }

    public func pageFlipMethod(crtc: UInt32) -> String {
        isDoubleBuffered ? "fbdev panning between two buffers" : "fbdev, single buffered (the driver cannot pan)"
    }

    /// Pans at once (most drivers latch the offset at the next vblank) and reports the flip
    /// at the next predicted vblank.
    public func pageFlip(crtc: UInt32, framebuffer: UInt32, damage: PixelRect?) throws(KMSError) {
        guard let vblanks else { throw KMSError(call: "FBIOPAN_DISPLAY", errno: Errno.invalidArgument, detail: "not set up") }
        if pending.contains(where: { $0.kind == .pageFlip }) { throw KMSError(call: "FBIOPAN_DISPLAY", errno: Errno.resourceBusy) }
        try pan(to: framebuffer)
        pending.append((.pageFlip, vblanks.next(after: clock.now)))
    }

    public func queueVBlankEvent(crtc: UInt32) throws(KMSError) {
        guard let vblanks else { throw KMSError(call: "vblank", errno: Errno.invalidArgument) }
        pending.append((.sequence, vblanks.next(after: clock.now)))
    }

    public func currentVBlank(crtc: UInt32) throws(KMSError) -> (sequence: UInt64, timestamp: Double) {
        guard let vblanks else { throw KMSError(call: "vblank", errno: Errno.invalidArgument) }
        let sequence = vblanks.latest(atOrBefore: clock.now)
        return (sequence, vblanks.time(sequence))
    }

    public var eventDescriptor: Int32? { nil }

    public var nextEventTime: Double? {
        guard let vblanks, let first = pending.map(\.sequence).min() else { return nil }
        return vblanks.time(first)
    }

    public func handleEvents(_ handler: (VBlankEvent) -> Void) throws(KMSError) {
        guard let vblanks else { return }
        let now = clock.now
        let due = pending.filter { vblanks.time($0.sequence) <= now }.sorted { $0.sequence < $1.sequence }
        pending.removeAll { vblanks.time($0.sequence) <= now }
        for event in due {
            handler(VBlankEvent(kind: event.kind, crtc: Self.crtcID, sequence: event.sequence, timestamp: vblanks.time(event.sequence)))
        }
    }

    /// Puts back the virtual size and pan offset found at open.
    public func restoreSavedState() {
        var info = savedVar
        _ = ioctl(fd, UInt(FBIOPUT_VSCREENINFO), &info)
        vblanks = nil
        pending.removeAll()
    }

    public var hotplugDescriptor: Int32? { nil }
    public func takeHotplug() -> Bool { false }

    /// `FBIOBLANK`: powerdown or unblank.
    public func setPower(_ on: Bool, connector: UInt32) throws(KMSError) {
        let level = on ? FB_BLANK_UNBLANK : FB_BLANK_POWERDOWN
        guard lamina_ioctl_value(fd, UInt(FBIOBLANK), UInt(level)) == 0 else {
            throw KMSError(call: "FBIOBLANK", errno: errno, detail: path)
        }
    }

    /// fbdev has no master: another VT's console simply draws too.
    public func dropMaster() throws(KMSError) {}
    public func acquireMaster() throws(KMSError) {}

    /// The screen the framebuffer shows now, read from its memory.
    public func captureComposedFrame(crtc: UInt32) throws(KMSError) -> PixelBuffer? {
        let base = memory.baseAddress! + offset(shown)
        switch format {
        case .xrgb8888: return PixelBuffer(xrgb8888: base, pitch: pitch, width: mode.width, height: mode.height)
        case .rgb565: return PixelBuffer(rgb565: base, pitch: pitch, width: mode.width, height: mode.height)
        }
    }
}
