import Testing
@testable import LaminaRaster

/// Line break opportunities against the rules of UAX #14 they come from, and lines wrapped,
/// limited and truncated by `Font.layoutLines`.
@Suite("Line breaking (UAX #14)")
struct LineBreakingTests {
    static let noto = "/usr/share/fonts/truetype/noto/"

    @Test("opportunities follow UAX #14's rules and never split a grapheme cluster", arguments: [
        ("Hello, world", [7]),                       // LB18: after spaces
        ("state-of-the-art", [6, 9, 13]),            // LB21: after a hyphen, never before it
        ("(a) b", [4]),                              // LB14, LB13: not after "(" nor before ")"
        ("wait !", []),                              // LB13: not before "!", even after spaces
        ("日本語", [1, 2]),                            // LB31: between ideographs
        ("👩\u{200D}👩\u{200D}👧 ok", [6]),          // a ZWJ sequence is one cluster
        ("👍🏽👍", [2]),                                // not between an emoji and its skin tone
    ])
    func opportunities(text: String, expected: [Int]) {
        let found = LineBreaks.opportunities(in: text)
        #expect(found.map(\.offset) == expected)
        #expect(found.allSatisfy { !$0.isMandatory })
    }

    @Test("a line separator is a mandatory break")
    func mandatory() {
        #expect(LineBreaks.opportunities(in: "a\u{2028}b") == [.init(offset: 2, isMandatory: true)])
    }

    @Test("greedy: each line takes every word that fits, spaces at a break are dropped")
    func greedy() throws {
        let font = try Font()
        let width = font.layout("The quick brown", size: 20).width
        let lines = font.layoutLines("The quick brown fox jumps", size: 20, width: width, wraps: true)
        #expect(lines.map(\.text) == ["The quick brown", "fox jumps"])
        // One pixel narrower and "brown" no longer fits on the first line.
        let narrower = font.layoutLines("The quick brown fox", size: 20, width: width - 1, wraps: true)
        #expect(narrower.map(\.text) == ["The quick", "brown fox"])
    }

    @Test("a word wider than the line is broken between its characters, at least one a line")
    func longWord() throws {
        let font = try Font()
        let width = font.layout("Super", size: 20).width
        let lines = font.layoutLines("Supercalifragilistic", size: 20, width: width, wraps: true)
        #expect(lines.first?.text == "Super")
        #expect(lines.map(\.text).joined() == "Supercalifragilistic")
        #expect(lines.allSatisfy { $0.width <= width + 1e-9 })
        let tiny = font.layoutLines("abc", size: 20, width: 1, wraps: true)
        #expect(tiny.map(\.text) == ["a", "b", "c"])
    }

    @Test("ideographs wrap without spaces")
    func ideographs() throws {
        let font = try Font(path: "/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf")
        let width = font.layout("你好世", size: 20).width
        let lines = font.layoutLines("你好世界你好世界", size: 20, width: width, wraps: true)
        #expect(lines.map(\.text) == ["你好世", "界你好", "世界"])
    }

    @Test("every line of a right-to-left paragraph runs right to left, even one that begins in Latin")
    func rightToLeftParagraph() throws {
        let font = try Font()            // DejaVu Sans has Hebrew and Latin
        let width = font.layout("שלום world", size: 20).width
        let lines = font.layoutLines("שלום world שלום עולם", size: 20, width: width, wraps: true)
        #expect(lines.map(\.text) == ["שלום world", "שלום עולם"])
        #expect(lines.allSatisfy { $0.direction == .rightToLeft })
        let latinFirst = font.layoutLines("שלום abc שלום", size: 20, width: font.layout("שלום", size: 20).width, wraps: true)
        #expect(latinFirst.map(\.text) == ["שלום", "abc", "שלום"])
        #expect(latinFirst.allSatisfy { $0.direction == .rightToLeft })
    }

    @Test("wrapping keeps every character, and no line is wider than its width unless one character is",
          arguments: [37.0, 80, 150, 333])
    func wrappingProperties(width: Double) throws {
        let font = try Font()
        var random = DifferentialTests.SplitMix(state: UInt64(width))
        let words = ["a", "kiosk", "state-of-the-art", "Ünïcödé", "x", "supercalifragilistic", "(b)", "end."]
        for _ in 0..<40 {
            let text = (0..<Int.random(in: 0..<12, using: &random)).map { _ in words.randomElement(using: &random)! }.joined(separator: " ")
            let lines = font.layoutLines(text, size: 16, width: width, wraps: true)
            #expect(lines.map(\.text).joined().filter { $0 != " " } == text.filter { $0 != " " })
            for line in lines where line.text.count > 1 { #expect(line.width <= width + 1e-6, "\(line.text)") }
            #expect(lines.allSatisfy { $0.text.first != " " || $0.text.count == 1 } || text.hasPrefix(" "))
        }
    }

    @Test("truncation at the start, middle and end keeps the most characters that fit with the ellipsis")
    func truncation() throws {
        let font = try Font()
        let text = "Lamina draws every frame", characters = Array(text)
        let width = font.layout(text, size: 20).width / 2
        for mode in [TextTruncation.start, .middle, .end] {
            let line = font.truncatedLine(text, size: 20, width: width, truncation: mode)
            #expect(line.isTruncated && line.width <= width)
            let kept = line.text.count - 1
            func cut(_ k: Int) -> String {
                switch mode {
                case .start: "…" + String(characters.suffix(k))
                case .middle: String(characters.prefix((k + 1) / 2)) + "…" + String(characters.suffix(k / 2))
                default: String(characters.prefix(k)) + "…"
                }
            }
            #expect(line.text == cut(kept), "\(mode)")
            #expect(font.layout(cut(kept + 1), size: 20).width > width, "\(mode): one more character would fit")
        }
        #expect(font.truncatedLine(text, size: 20, width: width, truncation: .none).text == text)
        #expect(font.truncatedLine("short", size: 20, width: 500, truncation: .end).text == "short")
    }

    @Test("a line limit: the last line holds the rest, cut with an ellipsis unless truncation is none")
    func lineLimit() throws {
        let font = try Font()
        let width = font.layout("alpha beta", size: 20).width
        let text = "alpha beta gamma delta epsilon zeta\nsecond paragraph"
        let all = font.layoutLines(text, size: 20, width: width, wraps: true)
        #expect(all.count > 3)
        let limited = font.layoutLines(text, size: 20, width: width, wraps: true, truncation: .end, maximumLines: 2)
        #expect(limited.count == 2 && limited[0].text == all[0].text)
        #expect(limited[1].isTruncated && limited[1].text.hasSuffix("…") && limited[1].text.hasPrefix("gamma"))
        let clipped = font.layoutLines(text, size: 20, width: width, wraps: true, maximumLines: 2)
        #expect(clipped.map(\.text) == Array(all.prefix(2).map(\.text)))
        // The last paragraph's line fits: no ellipsis when nothing is hidden.
        let exact = font.layoutLines("alpha\nbeta", size: 20, width: width, truncation: .end, maximumLines: 2)
        #expect(exact.map(\.text) == ["alpha", "beta"])
    }
}

extension LineBreakingTests {
    @Test("a long unbreakable text in a narrow box wraps a cluster a line, each line once")
    func pathological() throws {
        let font = try Font()
        let text = String(repeating: "x", count: 4096)
        let lines = font.layoutLines(text, size: 12, width: 1, wraps: true)
        #expect(lines.count == 4096 && lines.allSatisfy { $0.text == "x" })
    }
}
