import Testing
@testable import LaminaGeometry
@testable import LaminaRaster

@Suite("Scanout conversion")
struct ScanoutConversionTests {
    @Test("RGB565 without dithering rounds each channel; pure colours map to their extremes")
    func rounding() {
        let buffer = PixelBuffer(width: 4, height: 1)
        buffer[0, 0] = 0xFFFF_0000; buffer[1, 0] = 0xFF00_FF00; buffer[2, 0] = 0xFF00_00FF; buffer[3, 0] = 0xFF80_8080
        var out = [UInt16](repeating: 0, count: 4)
        out.withUnsafeMutableBytes { buffer.copyRGB565(into: $0.baseAddress!, pitch: 8, dither: false) }
        #expect(out[0] == 0xF800 && out[1] == 0x07E0 && out[2] == 0x001F)
        // 128 → round(128·31/255) = 16, round(128·63/255) = 32.
        let grey: UInt16 = 16 << 11 | 32 << 5 | 16
        #expect(out[3] == grey)
    }

    @Test("ordered dithering keeps every flat level's mean within half a step, and the extremes exact")
    func dithering() {
        for level in stride(from: 0, through: 255, by: 5) {
            let buffer = PixelBuffer(width: 4, height: 4)
            buffer.fill(pixel: 0xFF00_0000 | UInt32(level) << 16 | UInt32(level) << 8 | UInt32(level))
            var out = [UInt16](repeating: 0, count: 16)
            out.withUnsafeMutableBytes { buffer.copyRGB565(into: $0.baseAddress!, pitch: 8) }
            let reds: [Double] = out.map { (v: UInt16) -> Double in Double(v >> 11) * 255 / 31 }
            let greens: [Double] = out.map { (v: UInt16) -> Double in Double((v >> 5) & 63) * 255 / 63 }
            let meanRed: Double = reds.reduce(0, +) / 16
            let meanGreen: Double = greens.reduce(0, +) / 16
            #expect(abs(meanRed - Double(level)) <= 255.0 / 31 / 2 + 1e-9, "level \(level)")
            #expect(abs(meanGreen - Double(level)) <= 255.0 / 63 / 2 + 1e-9, "level \(level)")
            if level == 0 { #expect(out.allSatisfy { $0 == 0 }) }
            if level == 255 { #expect(out.allSatisfy { $0 == 0xFFFF }) }
        }
    }

    @Test("only the damaged region is written, by pitch")
    func region() {
        let buffer = PixelBuffer(width: 5, height: 3)
        buffer.fill(pixel: 0xFF12_3456)
        var memory = [UInt32](repeating: 0xDEAD_BEEF, count: 8 * 3)     // pitch 32 bytes
        memory.withUnsafeMutableBytes { buffer.copyXRGB8888(into: $0.baseAddress!, pitch: 32, region: PixelRect(x0: 1, y0: 1, x1: 3, y1: 2)) }
        #expect(memory[8 + 1] == 0xFF12_3456 && memory[8 + 2] == 0xFF12_3456)
        #expect(memory[8 + 0] == 0xDEAD_BEEF && memory[8 + 3] == 0xDEAD_BEEF && memory[1] == 0xDEAD_BEEF)
        var small = [UInt16](repeating: 7, count: 6 * 3)
        small.withUnsafeMutableBytes { buffer.copyRGB565(into: $0.baseAddress!, pitch: 12, region: PixelRect(x0: 2, y0: 0, x1: 4, y1: 1)) }
        #expect(small[2] != 7 && small[3] != 7 && small[1] == 7 && small[4] == 7 && small[6 + 2] == 7)
    }
}
