import Foundation
import Testing
@testable import LaminaAnimation

/// WPT css-easing output tests as data (Fixtures/wpt-css-easing.json, each row naming its
/// source file and test), plus rules 89–91 by hand.
@Suite("CSS easing: extrapolated cubic-bezier, steps(), linear() (rules 89–91)")
struct WebEasingTests {
    struct Row: Decodable {
        struct Keyframe: Decodable {
            var cubicBezier: [Double]?
            var steps: String?
        }
        var source: String
        var effect: [Double]
        var keyframe: Keyframe
        var timeMs: Double
        var durationMs: Double
        var expectedLeft: Double
        var tolerance: Double
    }

    static func rows() throws -> [Row] {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Fixtures/wpt-css-easing.json")
        struct File: Decodable { var rows: [Row] }
        return try JSONDecoder().decode(File.self, from: Data(contentsOf: url)).rows
    }

    @Test("every ported WPT row: left = 100 px · keyframe(effect(t / duration))")
    func wptRows() throws {
        let rows = try Self.rows()
        #expect(rows.count == 77)
        for row in rows {
            let e = row.effect
            let effect = WebEasing.cubicBezier(e[0], e[1], e[2], e[3])
            let keyframe: WebEasing
            if let k = row.keyframe.cubicBezier {
                keyframe = .cubicBezier(k[0], k[1], k[2], k[3])
            } else {
                let css = try #require(row.keyframe.steps)
                keyframe = try #require(WebEasing(css: css), "\(row.source)")
            }
            let left = 100 * keyframe(effect(min(row.timeMs / row.durationMs, 1)))
            #expect(abs(left - row.expectedLeft) <= row.tolerance + 1e-9, "\(row.source) at \(row.timeMs) ms: \(left)")
        }
    }

    @Test("steps(): the before flag moves a step landing exactly on p back; jump-none and jump-both counts (rule 90)")
    func steps() {
        #expect(WebEasing.steps(2, .jumpEnd)(0.5) == 0.5)
        #expect(WebEasing.steps(2, .jumpEnd)(0.5, before: true) == 0)
        #expect(WebEasing.steps(2, .jumpStart)(0) == 0.5)
        #expect(WebEasing.steps(2, .jumpStart)(0, before: true) == 0)      // clamped at 0 for p ≥ 0
        #expect(WebEasing.steps(3, .jumpNone)(0.5) == 0.5)                // 3 values: 0, 0.5, 1
        #expect(WebEasing.steps(1, .jumpBoth)(0.2) == 0.5)
        #expect(WebEasing(css: "steps(1, jump-none)") == nil)             // jump-none needs two steps
    }

    @Test("linear(): missing inputs filled, decreasing inputs raised, equal inputs take the later output, ends extrapolate (rule 91)")
    func linear() {
        let spread = WebEasing.linear([(0, nil), (0.25, nil), (1, nil)])    // inputs 0, 0.5, 1
        #expect(spread(0.25) == 0.125 && spread(0.75) == 0.625)
        let lastMissing = WebEasing.linear([(0, nil), (1, 0.5), (0.5, nil)]) // last input = max(1, 0.5)
        #expect(lastMissing(0.75) == 0.75)
        let identity = WebEasing.linear([(0, nil), (1, nil)])
        #expect(identity(1.5) == 1.5 && identity(-0.5) == -0.5)
        let jump = WebEasing.linear([(0, nil), (0.3, 0.5), (0.7, 0.5), (1, nil)])
        #expect(jump(0.5) == 0.7)
        let raised = WebEasing.linear([(0, nil), (0.5, 0.6), (0.8, 0.4), (1, nil)])   // 0.4 → 0.6
        #expect(raised(0.6) == 0.8 && abs(raised(0.8) - 0.9) < 1e-12)
    }

    @Test("CSS extrapolates where Core Animation clamps (rule 89 vs rule 12)")
    func clampVersusExtrapolate() {
        #expect(TimingFunction.easeIn(1.5) == 1)
        // ease-in ends at x2 = 1 with y2 = 1: the tangent comes from the far point, slope 1/0.58.
        #expect(abs(WebEasing(css: "ease-in")!(1.5) - (1 + 0.5 / 0.58)) < 1e-12)
        // ease-out starts with x1 = y1 = 0: the far point again, slope y2/x2 = 1/0.58.
        #expect(abs(WebEasing(css: "ease-out")!(-0.5) - (-0.5 / 0.58)) < 1e-12)
        // A vertical start tangent (x1 = 0, y1 ≠ 0) continues flat.
        #expect(WebEasing.cubicBezier(0, 1.5, 1, 1.5)(-0.3) == 0)
    }
}
