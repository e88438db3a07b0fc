import Foundation
import LaminaTestSupport
import Testing
@testable import LaminaGeometry
@testable import LaminaRaster

/// The shaping table's samples drawn by Lamina and by a reference at the same size, baseline
/// and canvas, then compared pixel by pixel. The reference is `hb-view` (HarfBuzz's own
/// renderer: its shaping, FreeType's outlines, cairo's rasterizer; Debian's
/// `libharfbuzz-bin`), run here; for colour emoji, which cairo 1.16 does not draw, it is
/// Skia's render, frozen in `Golden/text-emoji-skia.png`. The bound is the peers' spread: how
/// far a second peer (Skia drawing HarfBuzz's glyphs at their fractional positions) is from
/// `hb-view`, measured by `Benchmarks/compare-text --write` into `Golden/text-bounds.json`;
/// Lamina must be at least as close. (Emoji have one peer, so their bound is Lamina's distance
/// from Skia when the render was checked by eye, plus a quarter.)
@Suite("Shaped text against reference renders")
struct ReferenceRenderTests {
    static let size = 32, margin = 8, ascent = 32, descent = 10
    static let golden = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden")

    /// `hb-view`'s render of `text` in `font`: black on white, the baseline `margin + ascent`
    /// from the top, the first glyph's origin `margin` from the left.
    static func hbView(font: String, text: String) throws -> RGBAImage {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("lamina-hb-view-\(UUID().uuidString).png").path
        defer { try? FileManager.default.removeItem(atPath: out) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/hb-view")
        process.arguments = ["--font-file=" + font, "--font-size=\(size)", "--margin=\(margin)",
                             "--font-extents=\(ascent),\(descent),0", "--output-format=png", "--output-file=" + out,
                             "--text=" + text]
        process.environment = ["LC_ALL": "C.UTF-8"]
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        return try RGBAImage.readPNG(from: out)
    }

    /// The mean absolute difference (1/255, over R, G and B) and the percentage of pixels
    /// whose largest channel differs by more than 2, as `../shared/bench`'s `compare` counts.
    static func difference(_ a: RGBAImage, _ b: RGBAImage) -> (mean: Double, percent: Double) {
        var sum = 0, over = 0
        for i in 0..<(a.width * a.height) {
            var worst = 0
            for c in 0..<3 {
                let d = abs(Int(a.bytes[i * 4 + c]) - Int(b.bytes[i * 4 + c]))
                sum += d
                worst = max(worst, d)
            }
            if worst > 2 { over += 1 }
        }
        let pixels = Double(a.width * a.height)
        return (Double(sum) / (3 * pixels), 100 * Double(over) / pixels)
    }

    struct Bound { var reference: String; var mean: Double; var percent: Double }

    static func bounds() throws -> [String: Bound] {
        let data = try Data(contentsOf: golden.appendingPathComponent("text-bounds.json"))
        let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        let entries = object?["bounds"] as? [String: [String: Any]] ?? [:]
        return entries.compactMapValues { entry in
            guard let reference = entry["reference"] as? String, let mean = entry["mean"] as? Double,
                  let percent = entry["percent"] as? Double else { return nil }
            return Bound(reference: reference, mean: mean, percent: percent)
        }
    }

    @Test("each script drawn within the peers' spread of the reference", arguments: ShapingTableTests.samples)
    func sameAsReference(sample: ShapingTableTests.Sample) throws {
        let hbView = try Self.hbView(font: sample.font, text: sample.text)
        let buffer = PixelBuffer(width: hbView.width, height: hbView.height)
        let canvas = Canvas(target: buffer)
        canvas.clear(.white)
        let font = try Font(path: sample.font)
        let line = font.layout(sample.text, size: Double(Self.size))
        let baseline = Double(Self.margin + Self.ascent)
        canvas.draw(line, font: font, origin: Point(x: Double(Self.margin), y: baseline),
                    width: Double(hbView.width - 2 * Self.margin), alignment: .left, color: .black)
        let mine = RGBAImage(buffer)
        try Self.keepRenders(sample: sample, lamina: mine, hbView: hbView, baseline: baseline)
        let bound = try #require(try Self.bounds()[sample.script], "no bound for \(sample.script) in text-bounds.json")
        let reference = bound.reference == "skia"
            ? try RGBAImage.readPNG(from: Self.golden.appendingPathComponent("text-emoji-skia.png").path)
            : hbView
        try #require(reference.width == mine.width && reference.height == mine.height)
        let found = Self.difference(mine, reference)
        #expect(found.mean <= bound.mean && found.percent <= bound.percent,
                "\(sample.script): \(found.mean) / \(found.percent) % from \(bound.reference), bound \(bound.mean) / \(bound.percent) %")
    }

    /// With `LAMINA_TEXT_RENDERS` naming a folder, the renders and what drew them are kept
    /// there for `Benchmarks/compare-text`.
    static func keepRenders(sample: ShapingTableTests.Sample, lamina: RGBAImage, hbView: RGBAImage, baseline: Double) throws {
        guard let folder = ProcessInfo.processInfo.environment["LAMINA_TEXT_RENDERS"] else { return }
        let index = ShapingTableTests.samples.firstIndex { $0.script == sample.script } ?? 0
        let slug = sample.script.lowercased().replacingOccurrences(of: " ", with: "-")
        let base = URL(fileURLWithPath: folder).appendingPathComponent(slug).path
        try lamina.writePNG(to: base + "-lamina.png")
        try hbView.writePNG(to: base + "-hb-view.png")
        let about: [String: Any] = ["index": index, "slug": slug, "script": sample.script, "font": sample.font,
                                    "text": sample.text, "size": size, "originX": margin, "baseline": baseline,
                                    "width": lamina.width, "height": lamina.height]
        try JSONSerialization.data(withJSONObject: about, options: [.sortedKeys]).write(to: URL(fileURLWithPath: base + ".json"))
    }
}
