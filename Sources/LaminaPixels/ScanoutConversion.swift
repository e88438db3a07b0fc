/// Writing the premultiplied working buffer into scanout memory, for a damaged region only.
/// Premultiplied pixels over black are exactly the colour shown, so alpha is dropped.
extension PixelBuffer {
    private func clamped(_ r: PixelRect?) -> PixelRect? {
        let x0 = max(0, r?.x0 ?? 0), y0 = max(0, r?.y0 ?? 0)
        let x1 = min(width, r?.x1 ?? width), y1 = min(height, r?.y1 ?? height)
        return x0 < x1 && y0 < y1 ? PixelRect(x0: x0, y0: y0, x1: x1, y1: y1) : nil
    }

    /// An opaque image read back from XRGB8888 memory whose rows are `pitch` bytes apart (the
    /// X bytes ignored): the inverse of `copyXRGB8888`, for read-back and checks.
    public convenience init(xrgb8888 memory: UnsafeRawPointer, pitch: Int, width: Int, height: Int) {
        self.init(width: width, height: height)
        for y in 0..<height {
            let row = (memory + y * pitch).assumingMemoryBound(to: UInt32.self)
            for x in 0..<width { self[x, y] = row[x] | 0xFF00_0000 }
        }
    }

    /// An opaque image read back from RGB565 memory whose rows are `pitch` bytes apart, each
    /// channel widened to 8 bits by bit replication: the inverse of `copyRGB565` up to its
    /// dithering, for read-back and checks.
    public convenience init(rgb565 memory: UnsafeRawPointer, pitch: Int, width: Int, height: Int) {
        self.init(width: width, height: height)
        for y in 0..<height {
            let row = (memory + y * pitch).assumingMemoryBound(to: UInt16.self)
            for x in 0..<width {
                let v = UInt32(row[x])
                let r = (v >> 11) & 31, g = (v >> 5) & 63, b = v & 31
                self[x, y] = 0xFF00_0000 | ((r << 3 | r >> 2) << 16) | ((g << 2 | g >> 4) << 8) | (b << 3 | b >> 2)
            }
        }
    }

    /// Copies `region` (default: all) into XRGB8888 memory whose rows are `pitch` bytes apart.
    public func copyXRGB8888(into memory: UnsafeMutableRawPointer, pitch: Int, region: PixelRect? = nil) {
        guard let r = clamped(region) else { return }
        for y in r.y0..<r.y1 {
            (memory + y * pitch + r.x0 * 4).copyMemory(from: pixels.baseAddress! + y * stride + r.x0,
                                                      byteCount: (r.x1 - r.x0) * 4)
        }
    }

    /// The 4x4 Bayer matrix, thresholds 0…15.
    static let bayer: [UInt32] = [0, 8, 2, 10, 12, 4, 14, 6, 3, 11, 1, 9, 15, 7, 13, 5]

    /// Converts `region` into RGB565 (little-endian, R 15–11, G 10–5, B 4–0) in memory whose
    /// rows are `pitch` bytes apart. With `dither` (the default, **Lamina choice**) a 4x4
    /// ordered dither spreads the lost low bits so gradients do not band; without it each
    /// channel is rounded to the nearest level.
    public func copyRGB565(into memory: UnsafeMutableRawPointer, pitch: Int, region: PixelRect? = nil, dither: Bool = true) {
        guard let r = clamped(region) else { return }
        for y in r.y0..<r.y1 {
            let row = (memory + y * pitch).assumingMemoryBound(to: UInt16.self)
            let source = pixels.baseAddress! + y * stride
            for x in r.x0..<r.x1 {
                let p = source[x]
                let red = p >> 16 & 0xFF, green = p >> 8 & 0xFF, blue = p & 0xFF
                let r5: UInt32, g6: UInt32, b5: UInt32
                if dither {
                    let t = Self.bayer[(y & 3) * 4 + (x & 3)]
                    // Threshold in units of the lost bits: 3 bits for red/blue, 2 for green.
                    r5 = min(31, (red * 31 + t * 255 / 16) / 255)
                    g6 = min(63, (green * 63 + t * 255 / 16) / 255)
                    b5 = min(31, (blue * 31 + t * 255 / 16) / 255)
                } else {
                    r5 = (red * 31 + 127) / 255
                    g6 = (green * 63 + 127) / 255
                    b5 = (blue * 31 + 127) / 255
                }
                row[x] = UInt16(r5 << 11 | g6 << 5 | b5)
            }
        }
    }
}
