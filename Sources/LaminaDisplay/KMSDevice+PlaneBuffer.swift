/// A mapped XRGB8888 dumb buffer with a framebuffer over it: what the overlay plane scans out,
/// whether Lamina copies frames into it (`OverlayScanout`) or lends it to a decoder
/// (`ScanoutBuffers`).
struct PlaneBuffer {
    var dumb: DumbBuffer
    var memory: UnsafeMutableRawBufferPointer
    var framebuffer: UInt32
}

extension KMSDevice {
    /// A plane buffer of `width × height`, or nil when the device cannot make, map or frame
    /// one (what was made is freed).
    func makePlaneBuffer(width: Int, height: Int) -> PlaneBuffer? {
        guard let dumb = try? createDumbBuffer(width: width, height: height, bitsPerPixel: 32) else { return nil }
        guard let memory = try? mapDumbBuffer(dumb) else {
            destroyDumbBuffer(dumb, mapping: nil)
            return nil
        }
        guard let framebuffer = try? addFramebuffer(dumb, format: .xrgb8888) else {
            destroyDumbBuffer(dumb, mapping: memory)
            return nil
        }
        return PlaneBuffer(dumb: dumb, memory: memory, framebuffer: framebuffer)
    }

    /// Removes the framebuffer, unmaps and destroys the buffer.
    func free(_ buffer: PlaneBuffer) {
        removeFramebuffer(buffer.framebuffer)
        destroyDumbBuffer(buffer.dumb, mapping: buffer.memory)
    }
}
