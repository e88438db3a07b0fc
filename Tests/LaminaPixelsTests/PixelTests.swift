import LaminaGeometry
import LaminaPixels
import Testing

/// The pixel buffer, its rectangles and its conversion into scanout memory, against values
/// worked out by hand from the formats' definitions (DRM's XRGB8888 and RGB565).
@Suite("Pixels")
struct PixelTests {
    @Test("rectangles are half-open: union, intersection, area and emptiness")
    func rectangles() {
        let a = PixelRect(x0: 0, y0: 0, x1: 4, y1: 3), b = PixelRect(x0: 2, y0: 1, x1: 6, y1: 5)
        #expect(a.area == 12 && b.area == 16)
        #expect(a.union(b) == PixelRect(x0: 0, y0: 0, x1: 6, y1: 5))
        #expect(a.intersection(b) == PixelRect(x0: 2, y0: 1, x1: 4, y1: 3) && a.intersection(b).area == 4)
        let apart = a.intersection(PixelRect(x0: 4, y0: 0, x1: 8, y1: 3))     // touching edges share no pixel
        #expect(apart.isEmpty && apart.area == 0)
        #expect(a.union(apart) == a && apart.union(a) == a)
        #expect(PixelRect(width: 3, height: 2) == PixelRect(x0: 0, y0: 0, x1: 3, y1: 2))
    }

    @Test("a buffer's own pixels start on a cache line, whatever its size (64-byte vector rows never straddle two lines)")
    func cacheLineAligned() {
        for (w, h) in [(1920, 1080), (1, 1), (37, 23), (0, 5), (4096, 3)] {
            let buffer = PixelBuffer(width: w, height: h)
            #expect(UInt(bitPattern: buffer.pixels.baseAddress!) % 64 == 0, "\(w)x\(h)")
            let uncleared = PixelBuffer(unclearedWidth: w, height: h)
            #expect(UInt(bitPattern: uncleared.pixels.baseAddress!) % 64 == 0, "\(w)x\(h), uncleared")
        }
    }

    @Test("a padded buffer: fills clip to the buffer and leave the padding alone; a copy is tight")
    func paddedBuffer() {
        let buffer = PixelBuffer(width: 3, height: 2, stride: 5)
        buffer.pixels.update(repeating: 0xDEAD_BEEF)
        buffer.fill(pixel: 0xFF00_0000)
        buffer.fill(pixel: 0xFFFF_0000, x0: -4, y0: 1, x1: 2, y1: 9)
        #expect(buffer[0, 0] == 0xFF00_0000 && buffer[0, 1] == 0xFFFF_0000 && buffer[1, 1] == 0xFFFF_0000 && buffer[2, 1] == 0xFF00_0000)
        #expect(buffer.pixels[3] == 0xDEAD_BEEF && buffer.pixels[9] == 0xDEAD_BEEF)        // the padding of both rows
        let copy = buffer.copy()
        #expect(copy.stride == 3 && copy[1, 1] == 0xFFFF_0000 && copy[2, 0] == 0xFF00_0000)
    }

    @Test("XRGB8888 round trip over a damaged region only; RGB565 without dither rounds each channel to its nearest level")
    func scanout() {
        let buffer = PixelBuffer(width: 2, height: 2)
        buffer[0, 0] = 0xFF12_3456; buffer[1, 0] = 0xFFFF_FFFF; buffer[0, 1] = 0xFF80_8080; buffer[1, 1] = 0xFF00_0000
        var memory = [UInt32](repeating: 0xAAAA_AAAA, count: 4 * 2)               // pitch of 4 pixels
        memory.withUnsafeMutableBytes { buffer.copyXRGB8888(into: $0.baseAddress!, pitch: 16, region: PixelRect(x0: 1, y0: 0, x1: 2, y1: 2)) }
        #expect(memory[0] == 0xAAAA_AAAA && memory[1] == 0xFFFF_FFFF && memory[5] == 0xFF00_0000)
        memory.withUnsafeMutableBytes { buffer.copyXRGB8888(into: $0.baseAddress!, pitch: 16) }
        let back = memory.withUnsafeBytes { PixelBuffer(xrgb8888: $0.baseAddress!, pitch: 16, width: 2, height: 2) }
        #expect(back[0, 0] == 0xFF12_3456 && back[0, 1] == 0xFF80_8080)

        var rgb565 = [UInt16](repeating: 0, count: 4)
        rgb565.withUnsafeMutableBytes { buffer.copyRGB565(into: $0.baseAddress!, pitch: 4, dither: false) }
        // 0x12 → round(18·31/255) = 2, 0x34 → round(52·63/255) = 13, 0x56 → round(86·31/255) = 10.
        let expected: UInt16 = 2 << 11 | 13 << 5 | 10
        #expect(rgb565[0] == expected)
        #expect(rgb565[1] == 0xFFFF && rgb565[3] == 0)
        // 0x80 → 16 of 31, 32 of 63, 16 of 31; read back by bit replication.
        #expect(rgb565[2] == UInt16(16 << 11 | 32 << 5 | 16))
        let wide = rgb565.withUnsafeBytes { PixelBuffer(rgb565: $0.baseAddress!, pitch: 4, width: 2, height: 2) }
        #expect(wide[0, 1] == 0xFF84_8284 && wide[1, 0] == 0xFFFF_FFFF)
    }
}
