import Testing
@testable import LaminaGeometry
@testable import LaminaRaster

@Suite("Text")
struct TextTests {
    @Test("a missing font file is a typed error naming it")
    func missingFont() {
        #expect(throws: FontError.self) { try Font(path: "/nonexistent/font.ttf") }
    }

    @Test("advances add up; DejaVu's kern table tightens AV")
    func advancesAndKerning() throws {
        let font = try Font()
        let canvas = Canvas(target: PixelBuffer(width: 300, height: 60))
        let size = 40.0
        let a = font.glyph(font.glyphIndex(for: "A"), size: size).advance
        let v = font.glyph(font.glyphIndex(for: "V"), size: size).advance
        #expect(a > 20 && a < 35)                                   // DejaVu's A is 0.684 em
        #expect(abs(a - 0.684 * size) < 0.05)
        let drawnA = canvas.draw(text: "A", font: font, size: size, origin: Point(x: 10, y: 45), color: .black)
        #expect(drawnA == a)
        let drawnAV = canvas.draw(text: "AV", font: font, size: size, origin: Point(x: 10, y: 45), color: .black)
        #expect(font.hasKerning)
        #expect(drawnAV < a + v - 0.5)                             // kerned tighter
        #expect(abs(drawnAV - (a + v + font.kerning(font.glyphIndex(for: "A"), font.glyphIndex(for: "V"), size: size))) < 1e-9)
    }

    @Test("glyphs sit on the baseline: ink between cap height and baseline, none below for 'H'")
    func baseline() throws {
        let font = try Font()
        let buffer = PixelBuffer(width: 60, height: 60)
        let canvas = Canvas(target: buffer)
        canvas.clear(.white)
        canvas.draw(text: "H", font: font, size: 40, origin: Point(x: 10, y: 45), color: .black)
        var top = 60, bottom = 0
        for y in 0..<60 {
            for x in 0..<60 where buffer[x, y] != 0xFFFF_FFFF {
                top = min(top, y)
                bottom = max(bottom, y)
            }
        }
        #expect(bottom == 44)                                       // the baseline is y = 45
        #expect(abs(Double(45 - top) - 0.729 * 40) < 1.5)          // DejaVu cap height 0.729 em
    }
}
