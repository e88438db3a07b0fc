import LaminaTestSupport
import Testing
@testable import LaminaGeometry
@testable import LaminaRaster

@Suite("Text")
struct TextTests {
    @Test("a missing font file is a typed error naming it")
    func missingFont() {
        #expect(throws: FontError.self) { try Font(path: "/nonexistent/font.ttf") }
    }

    @Test("advances add up; DejaVu's kerning tightens AV (GPOS, as its kern table has it within FreeType's 1/64 px)")
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
        #expect(abs(drawnAV - (a + v + font.kerning(font.glyphIndex(for: "A"), font.glyphIndex(for: "V"), size: size))) <= 1.0 / 64)
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

@Suite("Text layout")
struct TextLayoutTests {
    func inkRange(_ buffer: PixelBuffer) -> (Int, Int) {
        var lo = buffer.width, hi = -1
        for y in 0..<buffer.height {
            for x in 0..<buffer.width where buffer[x, y] != 0xFFFF_FFFF {
                lo = min(lo, x)
                hi = max(hi, x)
            }
        }
        return (lo, hi)
    }

    @Test("alignment places the line's advance box inside the given width")
    func alignment() throws {
        let font = try Font()
        let line = font.layout("Ok", size: 30)
        var starts: [TextAlignment: Int] = [:]
        for alignment in [TextAlignment.left, .center, .right] {
            let buffer = PixelBuffer(width: 300, height: 40)
            let canvas = Canvas(target: buffer)
            canvas.clear(.white)
            canvas.draw(line, font: font, origin: Point(x: 20, y: 32), width: 260, alignment: alignment, color: .black)
            starts[alignment] = inkRange(buffer).0
        }
        let slack = 260 - line.width
        #expect(abs(Double(starts[.center]! - starts[.left]!) - slack / 2) <= 1)
        #expect(abs(Double(starts[.right]! - starts[.left]!) - slack) <= 1)
    }

    @Test("tail truncation fits the width and ends with an ellipsis; text that fits is untouched")
    func truncation() throws {
        let font = try Font()
        let full = font.layout("Temperature in the boiler room", size: 16)
        #expect(!full.isTruncated)
        let cut = font.layout("Temperature in the boiler room", size: 16, maxWidth: 100)
        #expect(cut.isTruncated)
        #expect(cut.width <= 100 && cut.width > 80)
        #expect(cut.glyphs.last?.index == font.glyphIndex(for: "\u{2026}"))
        #expect(font.layout("Short", size: 16, maxWidth: 100).glyphs.count == 5)
        #expect(font.layout("Temperature", size: 16, maxWidth: 1).glyphs.count == 1)   // only the ellipsis
    }
}

@Suite("Glyph coverage cache")
struct GlyphCacheTests {
    @Test("a glyph at an integer pen position from the cache equals filling its outline there")
    func cacheIsExact() throws {
        let font = try Font()
        for character in ["g", "Q", "&"] {
            let index = font.glyphIndex(for: Unicode.Scalar(character)!)
            let cached = PixelBuffer(width: 60, height: 60), direct = PixelBuffer(width: 60, height: 60)
            let a = Canvas(target: cached), b = Canvas(target: direct)
            b.pipeline = .reference      // glyph masks are the reference rasterizer's coverage
            a.clear(.white)
            b.clear(.white)
            a.draw(text: character, font: font, size: 33, origin: Point(x: 12, y: 40), color: Color(red: 0.1, green: 0.2, blue: 0.7))
            b.fill(font.glyph(index, size: 33).path, color: Color(red: 0.1, green: 0.2, blue: 0.7),
                   transform: AffineTransform(translationX: 12, y: 40))
            let differing = Pixels.differing(cached, direct)
            #expect(differing == 0, "\(character)")
        }
    }

    @Test("fractional pens snap to 1/16 px across and 1/4 px down")
    func subpixelGrid() throws {
        let font = try Font()
        let drawn = PixelBuffer(width: 60, height: 60), expected = PixelBuffer(width: 60, height: 60)
        let a = Canvas(target: drawn), b = Canvas(target: expected)
        b.pipeline = .reference      // glyph masks are the reference rasterizer's coverage
        a.clear(.white)
        b.clear(.white)
        a.draw(text: "o", font: font, size: 30, origin: Point(x: 10.3, y: 40.1), color: .black)
        // 10.3 → 10 + 5/16 (10.3125), 40.1 → 40 (nearest quarter).
        b.fill(font.glyph(font.glyphIndex(for: "o"), size: 30).path, color: .black,
               transform: AffineTransform(translationX: 10.3125, y: 40))
        let differing = Pixels.differing(drawn, expected)
        #expect(differing == 0)
    }

    @Test("text is identical in both pipelines (and the SIMD mask blend): translucent, overlapping, cut by the canvas edges",
          arguments: 0..<4)
    func pipelinesAgree(seed: UInt64) throws {
        let font = try Font()
        var rng = DifferentialTests.SplitMix(state: seed &* 104_729 &+ 3)
        let reference = PixelBuffer(width: 150, height: 70), fast = PixelBuffer(width: 150, height: 70)
        let r = Canvas(target: reference), f = Canvas(target: fast)
        r.pipeline = .reference
        for canvas in [r, f] { canvas.clear(Color(red8: 200, green8: 60, blue8: 90, alpha8: 255)) }
        for _ in 0..<12 {
            let text = String((0..<8).map { _ in "AVWgjQ&@%Tyq".randomElement(using: &rng)! })
            let size = Double.random(in: 6...40, using: &rng)
            let origin = Point(x: Double.random(in: -30...140, using: &rng), y: Double.random(in: 0...90, using: &rng))
            let color = Color(red8: UInt8.random(in: 0...255, using: &rng), green8: UInt8.random(in: 0...255, using: &rng),
                              blue8: UInt8.random(in: 0...255, using: &rng), alpha8: UInt8.random(in: 1...255, using: &rng))
            for canvas in [r, f] { _ = canvas.draw(text: text, font: font, size: size, origin: origin, color: color) }
        }
        #expect(Pixels.differing(reference, fast) == 0)
    }
}
