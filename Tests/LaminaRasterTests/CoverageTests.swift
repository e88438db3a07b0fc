import CLaminaKernels
import Foundation
import Testing
@testable import LaminaGeometry
@testable import LaminaRaster

/// Exactness of the coverage rasterizer against analytic areas.
@Suite("Coverage")
struct CoverageTests {
    func coverage(_ path: Path, width: Int = 64, height: Int = 64, rule: FillRule = .nonZero) -> [Float] {
        Canvas(target: PixelBuffer(width: width, height: height)).coverage(of: path, rule: rule)
    }

    func sum(_ mask: [Float]) -> Double { mask.reduce(0) { $0 + Double($1) } }

    @Test("a circle's summed coverage is πr² within 0.1 %", arguments: [
        (10.0, 32.3, 31.7), (23.45, 50.5, 49.25), (90.0, 101.1, 99.9), (200.0, 256.0, 256.0),
    ])
    func circleArea(radius: Double, cx: Double, cy: Double) {
        let size = Int(2 * max(cx, cy)) + 4
        let path = Path(ovalIn: Rect(x: cx - radius, y: cy - radius, width: 2 * radius, height: 2 * radius))
        let area = sum(coverage(path, width: size, height: size))
        let expected = Double.pi * radius * radius
        #expect(abs(area - expected) / expected < 0.001, "area \(area) vs \(expected)")
    }

    @Test("the fast core's 8-bit coverage is the float coverage's rounding, for every sum either rule sees")
    func alphaMatchesCoverage() {
        // Every magnitude up to and past full coverage, both signs, and the wrapping extremes.
        let full = Int32(LAMINA_FULL_COVERAGE)
        var sums = Array(-full - 3...2 * full + 3)
        sums += [Int32.min, Int32.min + 1, Int32.max, Int32.max - 1, 4 * full, -4 * full + 1]
        var mismatches = 0
        for sum in sums {
            for (alpha, coverage) in [(NonZeroRule().alpha(sum), NonZeroRule().coverage(sum)),
                                      (EvenOddRule().alpha(sum), EvenOddRule().coverage(sum))]
            where alpha != UInt32(coverage * 255 + 0.5) {
                mismatches += 1
            }
        }
        #expect(mismatches == 0)
    }

    @Test("a rectangle offset by half a pixel gives exactly 0.5 on edges and 0.25 on corners")
    func halfPixelRectangle() {
        let mask = coverage(Path(rect: Rect(x: 10.5, y: 20.5, width: 8, height: 5)))
        func c(_ x: Int, _ y: Int) -> Float { mask[y * 64 + x] }
        #expect(c(10, 20) == 0.25 && c(18, 20) == 0.25 && c(10, 25) == 0.25 && c(18, 25) == 0.25)
        for x in 11...17 {
            #expect(c(x, 20) == 0.5)
            #expect(c(x, 25) == 0.5)
            for y in 21...24 { #expect(c(x, y) == 1) }
        }
        for y in 21...24 {
            #expect(c(10, y) == 0.5)
            #expect(c(18, y) == 0.5)
        }
        #expect(c(9, 22) == 0 && c(19, 22) == 0 && c(14, 19) == 0 && c(14, 26) == 0)
        #expect(sum(mask) == 40)
    }

    @Test("past the fixed-point core's 4 M pixels a side the spans come from the reference, exact")
    func beyondFixedPointRange() {
        let width = FixedPointCoverage.maximumSide + 10
        let rasterizer = CoverageRasterizer(width: width, height: 3)
        var sink = DifferentialTests.RecordingSink(coverage: [Float](repeating: 0, count: 3 * 64), width: 64, originX: width - 64)
        // Far right of the canvas, recorded relative to x = width - 64.
        let x0 = Double(width - 64)
        rasterizer.rasterizeSpans([[Point(x: x0 + 10.5, y: 0.5), Point(x: x0 + 20.5, y: 0.5), Point(x: x0 + 20.5, y: 2),
                                    Point(x: x0 + 10.5, y: 2)]], rule: .nonZero, into: &sink)
        #expect(sink.coverage[0 * 64 + 12] == 0.5 && sink.coverage[1 * 64 + 12] == 1 && sink.coverage[1 * 64 + 10] == 0.5)
        #expect(sink.coverage[2 * 64 + 12] == 0 && sink.coverage[1 * 64 + 20] == 0.5 && sink.coverage[1 * 64 + 21] == 0)
    }

    @Test("even-odd holes are empty; non-zero fills same-direction rings and empties reversed ones")
    func fillRules() {
        var path = Path(rect: Rect(x: 4, y: 4, width: 40, height: 40))
        let inner = Rect(x: 14, y: 14, width: 20, height: 20)
        path.append(contentsOf: Path(rect: inner))
        let evenOdd = coverage(path, rule: .evenOdd)
        let nonZero = coverage(path, rule: .nonZero)
        for y in 14..<34 {
            for x in 14..<34 {
                #expect(evenOdd[y * 64 + x] == 0)
                #expect(nonZero[y * 64 + x] == 1)
            }
        }
        #expect(evenOdd[6 * 64 + 6] == 1)
        #expect(sum(evenOdd) == 40 * 40 - 20 * 20)
        // The inner square drawn the other way round: winding 0 inside, a hole for both rules.
        var reversed = Path(rect: Rect(x: 4, y: 4, width: 40, height: 40))
        reversed.move(to: Point(x: 14, y: 14))
        reversed.line(to: Point(x: 14, y: 34))
        reversed.line(to: Point(x: 34, y: 34))
        reversed.line(to: Point(x: 34, y: 14))
        reversed.close()
        #expect(sum(coverage(reversed, rule: .nonZero)) == 40 * 40 - 20 * 20)
    }

    @Test("a polygon's summed coverage equals its shoelace area")
    func polygonArea() {
        let points = [Point(x: 3.3, y: 5.1), Point(x: 50.7, y: 9.9), Point(x: 41.2, y: 58.4),
                      Point(x: 20.05, y: 30.6), Point(x: 7.9, y: 44.4)]
        var path = Path()
        path.move(to: points[0])
        for p in points.dropFirst() { path.line(to: p) }
        path.close()
        var shoelace = 0.0
        for i in points.indices {
            let a = points[i], b = points[(i + 1) % points.count]
            shoelace += a.x * b.y - b.x * a.y
        }
        let mask = coverage(path)
        #expect(abs(sum(mask) - abs(shoelace) / 2) < 1e-3)
        #expect(mask.allSatisfy { $0 >= 0 && $0 <= 1 })
    }

    @Test("area beyond the canvas edges still covers the pixels inside")
    func clippedAtEdges() {
        // A rectangle from x = −20.25 to 10.75 and y = −3 to 70: inside the 64x64 canvas it
        // covers columns 0…9 fully and 0.75 of column 10, rows 0…63.
        let mask = coverage(Path(rect: Rect(x: -20.25, y: -3, width: 31, height: 73)))
        #expect(abs(sum(mask) - 10.75 * 64) < 1e-6)
        #expect(mask[5 * 64 + 0] == 1 && mask[5 * 64 + 10] == 0.75 && mask[5 * 64 + 11] == 0)
        // A triangle poking out of the right edge: clipped area is exact.
        var triangle = Path()
        triangle.move(to: Point(x: 40, y: 0))
        triangle.line(to: Point(x: 100, y: 30))
        triangle.line(to: Point(x: 40, y: 60))
        triangle.close()
        // Inside x < 64: a trapezoid with heights 60 at x = 40 and 60·(36/60) = 36 at x = 64.
        #expect(abs(sum(coverage(triangle)) - (60 + 36) / 2 * 24) < 1e-3)
    }

    @Test("a vertex at 2e19 (issue 13's out-of-bounds write) is clipped away exactly: the band it makes inside the canvas has its analytic area")
    func farVertex() {
        // (10,10) → (2e19,2e19) → (10,50): inside a 200x100 canvas, the band between y = x and
        // y = x + 40 from x = 10: 40 · 50 while it fits (x ≤ 60), then ∫₆₀¹⁰⁰ (100 − x) dx = 800.
        let data = "M10,10 L2e19,2e19 L10,50 Z"
        let path = try! Path(svgPathData: data)
        #expect(abs(sum(coverage(path, width: 200, height: 100)) - 2800) < 1e-3 * 2800)
        let canvas = Canvas(target: PixelBuffer(width: 200, height: 100))
        canvas.fill(path, color: .white)                      // the fast sweep, which wrote out of bounds
        canvas.stroke(path, style: StrokeStyle(width: 3, cap: .round, join: .round), color: .white)
        #expect(canvas.target[30, 50] == 0xFFFF_FFFF && canvas.target[30, 5] == 0)
    }

    @Test("a nearly horizontal sliver deposits its exact area")
    func sliver() {
        var path = Path()
        path.move(to: Point(x: 2, y: 10))
        path.line(to: Point(x: 60, y: 10.5))
        path.line(to: Point(x: 60, y: 11))
        path.line(to: Point(x: 2, y: 10.5))
        path.close()
        #expect(abs(sum(coverage(path)) - 58 * 0.5) < 1e-4)
    }
}

@Suite("Path")
struct PathTests {
    @Test("flattened curves stay within the tolerance of the curve")
    func flatteningTolerance() {
        var path = Path()
        path.move(to: Point(x: 0, y: 0))
        path.cubic(to: Point(x: 100, y: 0), control1: Point(x: 10, y: 80), control2: Point(x: 90, y: -60))
        let tolerance = 0.05
        let polyline = path.flattened(tolerance: tolerance)[0]
        #expect(polyline.first == Point(x: 0, y: 0) && polyline.last == Point(x: 100, y: 0))
        // Sample the true curve finely; every sample must be near the polyline.
        func curve(_ t: Double) -> Point {
            let u = 1 - t
            return u * u * u * Point(x: 0, y: 0) + 3 * u * u * t * Point(x: 10, y: 80)
                + 3 * u * t * t * Point(x: 90, y: -60) + t * t * t * Point(x: 100, y: 0)
        }
        func distance(_ p: Point, _ a: Point, _ b: Point) -> Double {
            let ab = b - a, ap = p - a
            let t = max(0, min(1, (ap.x * ab.x + ap.y * ab.y) / (ab.x * ab.x + ab.y * ab.y)))
            return p.distance(to: a + ab * t)
        }
        for i in 0...2000 {
            let p = curve(Double(i) / 2000)
            let d = zip(polyline, polyline.dropFirst()).map { distance(p, $0, $1) }.min()!
            #expect(d <= tolerance)
        }
    }

    @Test("an oval starts at (maxX, midY) and its bounds are the rect (rule 65)")
    func oval() {
        let path = Path(ovalIn: Rect(x: 10, y: 20, width: 40, height: 30))
        #expect(path.elements.first == .move(to: Point(x: 50, y: 35)))
        let bounds = Rect.boundingBox(of: path.flattened(tolerance: 0.001).flatMap { $0 })
        #expect(abs(bounds.minX - 10) < 1e-9 && abs(bounds.maxX - 50) < 1e-9)
        #expect(abs(bounds.minY - 20) < 1e-9 && abs(bounds.maxY - 50) < 1e-9)
    }

    @Test("transforming a path maps every point")
    func applying() {
        let path = Path(rect: Rect(x: 0, y: 0, width: 2, height: 1)).applying(AffineTransform(scaleX: 3, y: 2))
        #expect(path.controlPointBounds == Rect(x: 0, y: 0, width: 6, height: 2))
    }
}

extension Path {
    mutating func append(contentsOf other: Path) {
        for e in other.elements { append(e) }
    }
}
