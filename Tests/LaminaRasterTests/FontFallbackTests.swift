import Foundation
import LaminaTestSupport
import Testing
@testable import LaminaGeometry
@testable import LaminaRaster

/// Characters a face lacks drawn from another: the configured fallbacks, then the installed
/// face fontconfig finds; emoji in colour from Noto Color Emoji's bitmaps.
@Suite("Fallback fonts and colour emoji")
struct FontFallbackTests {
    static let emojiFont = "/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf"

    @Test("characters DejaVu Sans lacks come from installed faces that have them: no missing-glyph box")
    func foundByFontconfig() throws {
        let font = try Font()
        let line = font.layout("Kiosk 你好 ๑๒๓", size: 20)
        #expect(!line.glyphs.contains { $0.index == 0 })
        #expect(!line.fallbacks.isEmpty)
        for glyph in line.glyphs where glyph.face > 0 {
            #expect(line.face(of: glyph, in: font) !== font)
        }
        // The Latin stays in DejaVu Sans, at the same advances as without fallbacks.
        #expect(Array(line.glyphs.prefix(5).map(\.face)) == [0, 0, 0, 0, 0])
        #expect(line.glyphs[6].x == font.layout("Kiosk ", size: 20).width)
    }

    @Test("without fontconfig and with no fallbacks, a missing character is the face's box; a configured fallback has it")
    func configured() throws {
        let font = try Font()
        font.findsFallbacks = false
        #expect(font.layout("你", size: 20).glyphs.map(\.index) == [0])
        let cjk = try Font(path: "/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf")
        font.fallbacks = [cjk]
        let line = font.layout("a你", size: 20)
        #expect(line.glyphs.map(\.face) == [0, 1] && line.fallbacks.first === cjk)
        #expect(line.glyphs[1].index == cjk.layout("你", size: 20).glyphs[0].index)
        // Each face's advance in its own units per em (DejaVu's 2048, Droid's 1000).
        #expect(abs(line.width - (font.layout("a", size: 20).width + cjk.layout("你", size: 20).width)) < 1e-9)
    }

    @Test("an emoji sequence (skin tone, family, flag) is one colour glyph from the emoji face, as hb-shape shapes it there")
    func emojiSequences() throws {
        let font = try Font()
        font.findsFallbacks = false
        font.fallbacks = [try Font(path: Self.emojiFont)]
        let text = "👍🏽👨‍👩‍👧🇩🇪"
        let line = font.layout(text, size: 32)
        let expected = try ShapingTableTests.hbShape(font: Self.emojiFont, text: text)
        #expect(line.glyphs.map { UInt32($0.index) } == expected.map(\.index))
        let emoji = try #require(line.fallbacks.first)
        #expect(emoji.hasColorGlyphs && line.glyphs.allSatisfy { $0.face == 1 })
        // DejaVu Sans has U+263A: drawn in it unless emoji presentation is asked for (U+FE0F).
        let plain = font.layout("\u{263A}\u{FE0E}", size: 32)
        #expect(plain.glyphs.allSatisfy { $0.face == 0 })
        let colour = font.layout("\u{263A}\u{FE0F}", size: 32)
        #expect(colour.glyphs.first.map { colour.face(of: $0, in: font).hasColorGlyphs } == true)
    }

    @Test("a colour glyph scaled by area keeps its coverage: alpha summed scales with the area")
    func scaledByArea() throws {
        let emoji = try Font(path: Self.emojiFont)
        let index = try #require(emoji.layout("😀", size: 20).glyphs.first?.index)
        func alphaSum(_ size: Double) throws -> Double {
            let image = try #require(emoji.colorGlyphImage(index, size: size)).image
            return (0..<image.height).reduce(0.0) { sum, y in
                sum + (0..<image.width).reduce(0.0) { $0 + Double(image[$1, y] >> 24) }
            }
        }
        let strike = try alphaSum(109)            // Noto Color Emoji's one strike: unscaled
        for size in [13.0, 24, 40, 72] {
            let scaled = try alphaSum(size), scale = size / 109
            let image = try #require(emoji.colorGlyphImage(index, size: size)).image
            // Each target pixel rounds its mean by at most half a level.
            #expect(abs(scaled - strike * scale * scale) <= 0.5 * Double(image.width * image.height) + 1, "\(size)")
        }
    }

    @Test("a line of scripts and emoji in DejaVu Sans with its fallbacks (checked by eye once, then frozen)")
    func fallbackGolden() throws {
        let buffer = PixelBuffer(width: 560, height: 120)
        let canvas = Canvas(target: buffer)
        canvas.clear(.white)
        let font = try Font()
        canvas.draw(font.layout("Kiosk 你好 สวัสดี नमस्ते", size: 28), font: font, origin: Point(x: 12, y: 44), color: .black)
        canvas.draw(font.layout("Ready 👍🏽 👨‍👩‍👧 🇩🇪 ☺️ ☺︎", size: 28), font: font, origin: Point(x: 12, y: 100),
                    color: Color(red: 0.1, green: 0.2, blue: 0.6, alpha: 1))
        let golden = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden/fallback.png").path
        let mismatch = try Golden.compare(buffer, to: golden)
        #expect(mismatch == nil, "\(mismatch ?? "")")
    }
}

extension FontFallbackTests {
    @Test("characters no face has cost a bounded number of fontconfig lookups: 16 a paragraph, 1,024 a face")
    func lookupsBounded() throws {
        let font = try Font()
        // Characters of Supplementary Private Use Area-A, which no installed face has.
        func missing(_ k: Int) -> String { String(String.UnicodeScalarView((0..<100).map { Unicode.Scalar(0xF0000 + k * 100 + $0)! })) }
        let line = font.layout(missing(0), size: 12)
        #expect(line.glyphs.allSatisfy { $0.index == 0 } && line.glyphs.count == 100)
        #expect(font.fallbackLookups == Font.maximumFallbackLookupsPerParagraph)
        for k in 1...70 { _ = font.layout(missing(k), size: 12) }
        #expect(font.fallbackLookups == Font.maximumFallbackLookups)
    }
}
