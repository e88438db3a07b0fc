import CDRM
import LaminaPixels
#if canImport(Glibc)
import Glibc
#endif

/// Reading the composed frame back through a writeback connector (vkms has one): what the
/// CRTC actually scanned out, all planes composed, for tests against the real kernel.
extension DRMDevice {
    /// The frame `crtc` composes now, captured through the writeback connector with one
    /// atomic commit (`CRTC_ID`, `WRITEBACK_FB_ID`, `WRITEBACK_OUT_FENCE_PTR`) and its
    /// out-fence. Nil when the device has no writeback connector or no atomic support.
    public func captureComposedFrame(crtc: UInt32) throws(KMSError) -> PixelBuffer? {
        guard supportsWriteback, let connector = try resources().writebackConnector else { return nil }
        guard let state = drmModeGetCrtc(fd, crtc) else { throw KMSError(call: "drmModeGetCrtc", errno: errno) }
        let width = Int(state.pointee.mode.hdisplay), height = Int(state.pointee.mode.vdisplay)
        drmModeFreeCrtc(state)
        guard width > 0, height > 0 else { return nil }

        let buffer = try createDumbBuffer(width: width, height: height, bitsPerPixel: 32)
        var mapping: UnsafeMutableRawBufferPointer?
        var framebuffer: UInt32?
        defer {
            if let framebuffer { removeFramebuffer(framebuffer) }
            destroyDumbBuffer(buffer, mapping: mapping)
        }
        mapping = try mapDumbBuffer(buffer)
        framebuffer = try addFramebuffer(buffer, format: .xrgb8888)

        let type = UInt32(DRM_MODE_OBJECT_CONNECTOR)
        var fence: Int32 = -1
        guard let request = drmModeAtomicAlloc() else { throw KMSError(call: "drmModeAtomicAlloc", errno: errno) }
        defer { drmModeAtomicFree(request) }
        let fencePointer = withUnsafeMutablePointer(to: &fence) { UInt64(UInt(bitPattern: $0)) }
        _ = drmModeAtomicAddProperty(request, connector, try propertyID(of: connector, type: type, named: "CRTC_ID"), UInt64(crtc))
        _ = drmModeAtomicAddProperty(request, connector, try propertyID(of: connector, type: type, named: "WRITEBACK_FB_ID"),
                                     UInt64(framebuffer!))
        _ = drmModeAtomicAddProperty(request, connector,
                                     try propertyID(of: connector, type: type, named: "WRITEBACK_OUT_FENCE_PTR"), fencePointer)
        let ret = drmModeAtomicCommit(fd, request, UInt32(DRM_MODE_ATOMIC_ALLOW_MODESET), nil)
        if ret != 0 { throw KMSError(call: "drmModeAtomicCommit", errno: Self.errnoOf(ret), detail: "writeback") }
        if fence >= 0 {
            var waiting = pollfd(fd: fence, events: Int16(POLLIN), revents: 0)
            let ready = poll(&waiting, 1, 2000)
            Glibc.close(fence)
            if ready <= 0 { throw KMSError(call: "poll", errno: ready < 0 ? errno : 62, detail: "writeback fence") }
        }
        return PixelBuffer(xrgb8888: mapping!.baseAddress!, pitch: buffer.pitch, width: width, height: height)
    }
}
