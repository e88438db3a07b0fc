import CHarfBuzz
import Foundation
import LaminaTestSupport
import Testing
@testable import LaminaGeometry
@testable import LaminaRaster

/// Shaping checked against `hb-shape` (Debian's `libharfbuzz-bin`): the same font file, the
/// same text, HarfBuzz's own command line reading the face its own way; Lamina's glyph
/// indices, clusters, advances and offsets (font units) must be the command's exactly.
@Suite("Text shaping against hb-shape")
struct ShapingTableTests {
    struct Sample: CustomTestStringConvertible, Sendable {
        var script: String
        var font: String
        var text: String
        var testDescription: String { script }
    }

    static let noto = "/usr/share/fonts/truetype/noto/"
    static let samples: [Sample] = [
        Sample(script: "Arabic", font: noto + "NotoSansArabic-Regular.ttf", text: "مرحبا بالعالم"),
        Sample(script: "Persian", font: noto + "NotoNaskhArabic-Regular.ttf", text: "سلام دنیا، چطوری؟"),
        Sample(script: "Hebrew with points", font: noto + "NotoSansHebrew-Regular.ttf", text: "שָׁלוֹם עוֹלָם"),
        Sample(script: "Thai", font: noto + "NotoSansThai-Regular.ttf", text: "ผู้ใหญ่สวัสดีชาวโลก"),
        Sample(script: "Devanagari", font: noto + "NotoSansDevanagari-Regular.ttf", text: "नमस्ते क्षत्रिय दुनिया"),
        Sample(script: "Bengali", font: noto + "NotoSansBengali-Regular.ttf", text: "আমি বাংলায় গান গাই"),
        Sample(script: "Tamil", font: noto + "NotoSansTamil-Regular.ttf", text: "வணக்கம் உலகம்"),
        Sample(script: "Khmer", font: noto + "NotoSansKhmer-Regular.ttf", text: "សួស្តីពិភពលោក"),
        Sample(script: "Vietnamese", font: noto + "NotoSans-Regular.ttf", text: "Tiếng Việt có dấu"),
        Sample(script: "decomposed Latin", font: noto + "NotoSans-Regular.ttf", text: "Cafe\u{301} na\u{303}o u\u{308}ber"),
        Sample(script: "Latin kerning and ligatures", font: Font.defaultPath, text: "AVATAR office fluffy"),
        Sample(script: "CJK", font: "/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf", text: "你好，世界"),
        Sample(script: "emoji sequences", font: noto + "NotoColorEmoji.ttf", text: "👍🏽👨‍👩‍👧🇩🇪"),
    ]

    /// What `hb-shape` gives for `text` in `font`: glyph, cluster, advance and offsets.
    static func hbShape(font: String, text: String) throws -> [ShapedGlyph] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/hb-shape")
        process.arguments = ["--output-format=json", "--no-glyph-names", font, "--text=" + text]
        process.environment = ["LC_ALL": "C.UTF-8"]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let glyphs = try JSONSerialization.jsonObject(with: data) as? [[String: Int]] ?? []
        return glyphs.map {
            ShapedGlyph(index: UInt32($0["g"] ?? -1), cluster: $0["cl"] ?? -1, advance: Int32($0["ax"] ?? 0),
                        offsetX: Int32($0["dx"] ?? 0), offsetY: Int32($0["dy"] ?? 0), isRightToLeft: false)
        }
    }

    @Test("glyphs, clusters, advances and offsets are hb-shape's", arguments: samples)
    func sameAsHbShape(sample: Sample) throws {
        let font = try Font(path: sample.font)
        let shaped = try #require(font.shaped(sample.text, direction: nil))
        let expected = try Self.hbShape(font: sample.font, text: sample.text)
        #expect(!expected.isEmpty)
        // Both count clusters in Unicode scalars (hb-shape's default; `--utf8-clusters` would
        // count bytes). Direction is compared through the order, not the flag.
        let mine = shaped.glyphs.map { ShapedGlyph(index: $0.index, cluster: $0.cluster, advance: $0.advance,
                                                   offsetX: $0.offsetX, offsetY: $0.offsetY, isRightToLeft: false) }
        let theirs = expected
        #expect(mine == theirs)
        #expect(!shaped.glyphs.contains { $0.index == 0 }, "every character has a glyph in \(sample.font)")
    }
}

@Suite("Bidirectional text and shaped lines")
struct BidiTests {
    /// Clusters in visual order (left to right).
    func visualClusters(_ text: String, direction: TextDirection? = nil) throws -> [Int] {
        try #require(try Font().shaped(text, direction: direction)).glyphs.map(\.cluster)
    }

    @Test("a Hebrew word inside English text is reversed in place; the paragraph stays left to right")
    func hebrewInEnglish() throws {
        let font = try Font()
        #expect(try visualClusters("abc \u{5D0}\u{5D1}\u{5D2} def") == [0, 1, 2, 3, 6, 5, 4, 7, 8, 9, 10])
        #expect(font.layout("abc \u{5D0}\u{5D1}\u{5D2} def", size: 20).direction == .leftToRight)
    }

    @Test("a Hebrew paragraph runs right to left with its numbers and Latin word left to right (rules W, N, L2)")
    func englishInHebrew() throws {
        // Levels: Hebrew and the spaces 1, the digits and "abc" 2: reversed inside, then all.
        #expect(try visualClusters("\u{5E9}\u{5DC}\u{5D5}\u{5DD} 123 abc") == [9, 10, 11, 8, 5, 6, 7, 4, 3, 2, 1, 0])
        #expect(try Font().layout("\u{5E9}\u{5DC}\u{5D5}\u{5DD} 123 abc", size: 20).direction == .rightToLeft)
    }

    @Test("a forced direction overrides the first strong character; brackets pair (rule N0)")
    func forcedDirection() throws {
        #expect(try visualClusters("abc", direction: .rightToLeft) == [0, 1, 2])
        #expect(try Font().layout("abc", size: 10, direction: .rightToLeft).direction == .rightToLeft)
        // In a right-to-left paragraph, "(b)" after a Hebrew letter: the pair takes the
        // paragraph's direction (the strong type before it is right to left), so the whole
        // is reversed and each bracket is drawn mirrored: the leftmost glyph, for ")", is "(".
        let font = try Font()
        #expect(try visualClusters("\u{5D0} (b)") == [4, 3, 2, 1, 0])
        let shaped = try #require(font.shaped("\u{5D0} (b)", direction: nil))
        #expect(shaped.glyphs.first?.index == font.glyphIndex(for: "("))
        #expect(shaped.glyphs[2].index == font.glyphIndex(for: ")"))
    }

    @Test("a run is split where the script changes; spaces, digits and marks go with the piece before them")
    func scriptPieces() {
        let scalars = "ab \u{E01}\u{E02}. 12".unicodeScalars.map(\.value)
        let pieces = TextShaper.scriptPieces(scalars, start: 0, count: scalars.count)
        #expect(pieces.map(\.start) == [0, 3])
        #expect(pieces.map(\.count) == [3, 6])
        #expect(pieces.map { hb_script_to_iso15924_tag($0.script) } == [0x4C61_746E, 0x5468_6169])   // 'Latn', 'Thai'
        let digits = "12 34".unicodeScalars.map(\.value)
        #expect(TextShaper.scriptPieces(digits, start: 0, count: digits.count).map(\.count) == [5])
    }

    @Test("the rule L2 orders runs: reverse every maximal sequence at each level from the highest to the lowest odd one")
    func ruleL2() {
        #expect(BidiParagraph.visualOrder(levels: [0, 1, 0]) == [0, 1, 2])
        #expect(BidiParagraph.visualOrder(levels: [1, 2, 1]) == [2, 1, 0])
        #expect(BidiParagraph.visualOrder(levels: [1, 1, 2, 2, 1]) == [4, 2, 3, 1, 0])
        #expect(BidiParagraph.visualOrder(levels: [0, 2, 1, 2, 0]) == [0, 3, 2, 1, 4])
        #expect(BidiParagraph.visualOrder(levels: []) == [])
    }

    @Test("carets: left to right from the left end; right to left from the right end; across a ligature by share")
    func carets() throws {
        let font = try Font()
        let latin = font.layout("abc", size: 20)
        #expect(latin.caretX(scalarOffset: 0) == 0)
        #expect(abs(latin.caretX(scalarOffset: 3) - latin.width) < 1e-9)
        #expect(latin.caretX(scalarOffset: 1) == latin.glyphs[1].x)
        let hebrew = font.layout("\u{5D0}\u{5D1}\u{5D2}", size: 20)
        #expect(abs(hebrew.caretX(scalarOffset: 0) - hebrew.width) < 1e-9)
        #expect(hebrew.caretX(scalarOffset: 3) == 0)
        let between = hebrew.caretX(scalarOffset: 1)
        #expect(between > 0 && between < hebrew.width)
        // DejaVu's "ffi" is one glyph for three characters: the carets inside split it in thirds.
        let office = font.layout("office", size: 30)
        #expect(office.glyphs.count == 4)
        let ligature = office.glyphs[1]
        #expect(ligature.cluster == 1)
        #expect(abs(office.caretX(scalarOffset: 2) - (ligature.x + ligature.advance / 3)) < 1e-9)
        #expect(abs(office.caretX(scalarOffset: 3) - (ligature.x + 2 * ligature.advance / 3)) < 1e-9)
    }

    @Test("a right-to-left line cut to fit ends with the ellipsis on its left")
    func rightToLeftTruncation() throws {
        let font = try Font(path: ShapingTableTests.noto + "NotoSansArabic-Regular.ttf")
        let text = "مرحبا بالعالم مرحبا بالعالم"
        let full = font.layout(text, size: 20)
        let cut = font.layout(text, size: 20, maxWidth: full.width / 2)
        #expect(cut.isTruncated && cut.width <= full.width / 2)
        #expect(cut.direction == .rightToLeft)
        let ellipsis = try #require(font.shaped("\u{2026}", direction: .rightToLeft)?.glyphs.first?.index)
        #expect(cut.glyphs.first?.index == ellipsis)
    }

    @Test("a paragraph is shaped once whatever the size it is laid out at; the cache is bounded")
    func shapedOnce() throws {
        let font = try Font()
        let before = font.paragraphsShaped
        for size in stride(from: 8.0, through: 80, by: 4) { _ = font.layout("Pressure 2.4 bar", size: size) }
        #expect(font.paragraphsShaped == before + 1)
        for k in 0..<(Font.maximumShapedParagraphs + 10) { _ = font.layout("label \(k)", size: 12) }
        #expect(font.shapedParagraphCount <= Font.maximumShapedParagraphs)
    }
}

@Suite("Shaped text drawn")
struct ShapedDrawingTests {
    @Test("every sample of the table drawn with its font, right-to-left lines against the right edge (checked by eye once, then frozen)")
    func samplesGolden() throws {
        let samples = ShapingTableTests.samples
        let rowHeight = 44.0, width = 640
        let buffer = PixelBuffer(width: width, height: Int(rowHeight) * samples.count + 12)
        let canvas = Canvas(target: buffer)
        canvas.clear(.white)
        for (k, sample) in samples.enumerated() {
            let font = try Font(path: sample.font)
            let line = font.layout(sample.text, size: 26)
            let baseline = 34 + Double(k) * rowHeight
            canvas.draw(line, font: font, origin: Point(x: 12, y: baseline), width: Double(width - 24),
                        alignment: line.direction == .rightToLeft ? .right : .left, color: .black)
        }
        let golden = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden/shaping.png").path
        let mismatch = try Golden.compare(buffer, to: golden)
        #expect(mismatch == nil, "\(mismatch ?? "")")
    }
}

@Suite("Fonts by family")
struct FontLookupTests {
    @Test("fontconfig finds an installed family at a weight; a missing family is an error, not another family")
    func families() throws {
        #expect(try Font(family: "DejaVu Sans").path.hasSuffix("/DejaVuSans.ttf"))
        #expect(try Font(family: "DejaVu Sans", weight: .bold).path.hasSuffix("/DejaVuSans-Bold.ttf"))
        #expect(try Font(family: "dejavu sans mono").path.hasSuffix("/DejaVuSansMono.ttf"))      // any case
        do {
            _ = try Font(family: "No Such Family")
            Issue.record("a missing family was found")
        } catch {
            #expect(error.reason.hasPrefix("no face of this family is installed"))
        }
        #expect(throws: FontError.self) { try Font(family: "") }
        #expect(throws: FontError.self) { try Font(family: String(repeating: "x", count: 300)) }
    }

    @Test("a font path that is not a regular file is refused before FreeType reads it (a FIFO would block)")
    func notRegular() throws {
        let fifo = NSTemporaryDirectory() + "lamina-font-fifo-\(getpid())"
        #expect(mkfifo(fifo, 0o600) == 0)
        defer { unlink(fifo) }
        do {
            _ = try Font(path: fifo)
            Issue.record("a FIFO was opened")
        } catch {
            #expect(error.reason == "is not a regular file")
        }
        #expect(throws: FontError.self) { try Font(path: "/etc") }
    }
}
