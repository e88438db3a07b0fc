import Foundation
import Testing
@testable import LaminaGeometry
@testable import LaminaRaster

/// Stroke geometry (rule 62) against analytic areas: the summed coverage of a stroke is its
/// area.
@Suite("Strokes")
struct StrokeTests {
    func area(_ path: Path, _ style: StrokeStyle, size: Int = 200) -> Double {
        let canvas = Canvas(target: PixelBuffer(width: size, height: size))
        let polygons = path.stroked(style)
        var total = 0.0
        let mask = canvas.coverage(of: Path(), rule: .nonZero)   // warm, all zero
        #expect(mask.allSatisfy { $0 == 0 })
        var p = Path()
        for polygon in polygons {
            p.move(to: polygon[0])
            for q in polygon.dropFirst() { p.line(to: q) }
            p.close()
        }
        for c in canvas.coverage(of: p, rule: .nonZero) { total += Double(c) }
        return total
    }

    func line(_ a: Point, _ b: Point) -> Path {
        var p = Path()
        p.move(to: a)
        p.line(to: b)
        return p
    }

    @Test("butt, square and round caps on a line")
    func caps() {
        let l = line(Point(x: 40.3, y: 60.7), Point(x: 150.3, y: 60.7))     // length 110
        #expect(abs(area(l, StrokeStyle(width: 8, cap: .butt)) - 110 * 8) < 1e-3)
        #expect(abs(area(l, StrokeStyle(width: 8, cap: .square)) - 118 * 8) < 1e-3)
        let round = area(l, StrokeStyle(width: 8, cap: .round))
        #expect(abs(round - (110 * 8 + Double.pi * 16)) / (110 * 8 + Double.pi * 16) < 1e-3)
        // A diagonal line has the same area.
        let diagonal = line(Point(x: 30, y: 30), Point(x: 30 + 110 / 2.0.squareRoot(), y: 30 + 110 / 2.0.squareRoot()))
        #expect(abs(area(diagonal, StrokeStyle(width: 8, cap: .butt)) - 880) < 1e-2)
    }

    @Test("a closed square with miter joins is the difference of two squares; bevel cuts the corners")
    func joins() {
        let square = Path(rect: Rect(x: 50, y: 50, width: 100, height: 100))
        let w = 10.0
        #expect(abs(area(square, StrokeStyle(width: w, join: .miter)) - (110 * 110 - 90 * 90)) < 1e-2)
        // Each outer corner loses a right triangle with legs w/2.
        // (Written step by step: Swift 6.2's type checker gives up on the one-line sums.)
        let ring: Double = 110.0 * 110.0 - 90.0 * 90.0
        let bevelled = ring - 4.0 * 12.5
        #expect(abs(area(square, StrokeStyle(width: w, join: .bevel)) - bevelled) < 1e-2)
        // Round corners: quarter discs instead of the w/2 squares.
        let squaresOff = ring - 4.0 * 25.0
        let rounded = squaresOff + Double.pi * 25.0
        #expect(abs(area(square, StrokeStyle(width: w, join: .round)) - rounded) / rounded < 1e-4)
    }

    @Test("caps never apply to closed sub-paths (no dot where a close leaves the pen)")
    func closedHasNoCaps() {
        var square = Path(rect: Rect(x: 50, y: 50, width: 100, height: 100))
        square.move(to: Point(x: 20, y: 20))
        square.line(to: Point(x: 30, y: 20))
        let bevelButt = area(square, StrokeStyle(width: 10, cap: .butt, join: .bevel))
        let bevelRound = area(square, StrokeStyle(width: 10, cap: .round, join: .bevel))
        // Only the open 10-long line gains its two round caps: a full disc of radius 5.
        #expect(abs((bevelRound - bevelButt) - Double.pi * 25) / (Double.pi * 25) < 1e-3)
    }

    @Test("the miter limit falls back to bevel past 1/sin(φ/2)")
    func miterLimit() {
        // A 60° angle: 1/sin(30°) = 2.
        var p = Path()
        p.move(to: Point(x: 40, y: 150))
        p.line(to: Point(x: 100, y: 150 - 60 * 3.0.squareRoot()))
        p.line(to: Point(x: 160, y: 150))
        let mitered = area(p, StrokeStyle(width: 6, join: .miter, miterLimit: 2.01))
        let beveled = area(p, StrokeStyle(width: 6, join: .miter, miterLimit: 1.99))
        let bevel = area(p, StrokeStyle(width: 6, join: .bevel))
        #expect(abs(beveled - bevel) < 1e-6)
        // The miter adds the kite beyond the bevel: h² · (cot(30°) − …) computed directly.
        let h = 3.0
        let miterTip = h / sin(Double.pi / 6)                 // distance from corner to tip
        let bevelDepth = h * sin(Double.pi / 6) / sin(Double.pi / 6) * cos(Double.pi / 3)  // corner to bevel chord
        let kite = h * cos(Double.pi / 6) * (miterTip - bevelDepth)  // triangle of base 2h·cos(30°), height tip − chord
        #expect(abs((mitered - bevel) - kite) < 1e-2)
    }

    @Test("a stroked circle is a ring of area 2πr·w")
    func ring() {
        let r = 60.0, w = 7.0
        let a = area(Path(circleCenter: Point(x: 100.5, y: 99.25), radius: r), StrokeStyle(width: w))
        #expect(abs(a - 2 * Double.pi * r * w) / (2 * Double.pi * r * w) < 1e-3)
    }

    @Test("zero-length sub-paths draw the cap shape (rule 62, Lamina choice)")
    func dots() {
        let dot = line(Point(x: 100, y: 100), Point(x: 100, y: 100))
        #expect(area(dot, StrokeStyle(width: 10, cap: .butt)) == 0)
        #expect(abs(area(dot, StrokeStyle(width: 10, cap: .square)) - 100) < 1e-6)
        #expect(abs(area(dot, StrokeStyle(width: 10, cap: .round)) - Double.pi * 25) / (Double.pi * 25) < 1e-3)
    }

    @Test("a transformed stroke scales its width")
    func transformed() {
        let canvas = Canvas(target: PixelBuffer(width: 100, height: 100))
        canvas.clear(.black)
        canvas.stroke(line(Point(x: 10, y: 10), Point(x: 40, y: 10)), style: StrokeStyle(width: 2), color: .white,
                      transform: AffineTransform(scaleX: 2, y: 2))
        // 60 x 4 device pixels from (20, 18) to (80, 22).
        #expect(canvas.target[50, 18] == 0xFFFF_FFFF && canvas.target[50, 21] == 0xFFFF_FFFF)
        #expect(canvas.target[50, 17] == 0xFF00_0000 && canvas.target[50, 22] == 0xFF00_0000)
    }

    @Test("repeated points are removed in place as a filter would: each point unlike the one before it kept, in order")
    func repeatedPointsRemoved() {
        var rng = DifferentialTests.SplitMix(state: 29)
        for _ in 0..<500 {
            // Few distinct values, so runs of equal points are common, at the ends too.
            let values = (0..<Int.random(in: 0...12, using: &rng)).map { _ in
                Point(x: Double(Int.random(in: 0...2, using: &rng)), y: 0)
            }
            var expected: [Point] = []
            for p in values where expected.last != p { expected.append(p) }
            var points = values
            Path.removeRepeatedPoints(&points)
            #expect(points == expected, "\(values)")
        }
    }

    @Test("a path's repeated points stroke as if they were not there, dashed or trimmed too")
    func repeatedPointsStrokeAlike() {
        var plain = Path(), repeated = Path()
        let corners = [Point(x: 20, y: 20), Point(x: 120, y: 40), Point(x: 60, y: 150), Point(x: 170, y: 170)]
        plain.move(to: corners[0])
        repeated.move(to: corners[0])
        repeated.line(to: corners[0])
        for c in corners.dropFirst() {
            plain.line(to: c)
            repeated.line(to: c)
            repeated.line(to: c)
        }
        let styles = [StrokeStyle(width: 9, cap: .round, join: .round),
                      StrokeStyle(width: 7, cap: .square, join: .miter, dashPattern: [30, 0, 12, 10]),
                      StrokeStyle(width: 5, join: .bevel, start: 0.2, end: 0.8)]
        for style in styles {
            #expect(repeated.stroked(style) == plain.stroked(style))
        }
    }

    @Test("a dash ending on a corner strokes as that dash drawn alone, with square caps and miter joins")
    func dashEndingOnACorner() {
        var path = Path()
        path.move(to: Point(x: 20, y: 20))
        path.line(to: Point(x: 20, y: 60))
        path.line(to: Point(x: 60, y: 60))
        path.line(to: Point(x: 60, y: 100))
        var dashes = Path()
        dashes.move(to: Point(x: 20, y: 20))
        dashes.line(to: Point(x: 20, y: 60))
        dashes.move(to: Point(x: 30, y: 60))
        dashes.line(to: Point(x: 60, y: 60))
        dashes.line(to: Point(x: 60, y: 70))
        dashes.move(to: Point(x: 60, y: 80))
        dashes.line(to: Point(x: 60, y: 100))
        let style = StrokeStyle(width: 6, cap: .square, join: .miter)
        var dashed = style
        dashed.dashPattern = [40, 10]
        #expect(area(path, dashed) == area(dashes, style))
        #expect(path.stroked(dashed) == dashes.stroked(style))
    }
}
