import Testing
@testable import LaminaGeometry
@testable import LaminaRaster

/// The balanced flattening (`Path.flattened(tolerance:)`, decision 14): a curve's polyline
/// keeps its area and stays within the tolerance of it.
@Suite("Flattening")
struct FlatteningTests {
    /// The signed shoelace area of closed polygons.
    static func area(_ polygons: [[Point]]) -> Double {
        var total = 0.0
        for polygon in polygons {
            for (i, a) in polygon.enumerated() {
                let b = polygon[(i + 1) % polygon.count]
                total += a.x * b.y - b.x * a.y
            }
        }
        return total / 2
    }

    static func randomPoint(_ g: inout DifferentialTests.SplitMix) -> Point {
        Point(x: Double.random(in: -100...100, using: &g), y: Double.random(in: -100...100, using: &g))
    }

    @Test("a parabola's balanced polyline of two chords or more has its exact area (⅔ of the control triangle)")
    func parabolaAreaIsExact() {
        // A parabola's chord loss over each step is the same multiple of its second difference,
        // so the balancing move gives it back exactly, end chords included.
        var g = DifferentialTests.SplitMix(state: 14)
        for _ in 0..<50 {
            let p0 = Self.randomPoint(&g), c = Self.randomPoint(&g), p = Self.randomPoint(&g)
            var path = Path()
            path.move(to: p0)
            path.quad(to: p, control: c)
            path.close()
            let exact = (2.0 / 3.0) * ((c.x - p0.x) * (p.y - p0.y) - (c.y - p0.y) * (p.x - p0.x)) / 2
            for tolerance in [0.01, 0.1, 1, 10] {
                let polygons = path.flattened(tolerance: tolerance)
                // One chord has no point to move (a nearly straight curve at a coarse tolerance).
                guard polygons[0].count > 2 else { continue }
                #expect(abs(Self.area(polygons) - exact) <= 1e-9 * max(1, abs(exact)),
                        "tolerance \(tolerance): \(Self.area(polygons)) vs \(exact), \(polygons[0].count) points")
            }
        }
    }

    @Test("a circle's polyline at the default tolerance keeps its area within 0.05 % (the chords alone would lose 0.3–1.5 %)",
          arguments: [5.0, 10, 40, 200])
    func circleAreaIsKept(radius: Double) {
        let path = Path(ovalIn: Rect(x: -radius, y: -radius, width: 2 * radius, height: 2 * radius))
        // The Bézier circle's own area, from a polyline whose chords lose under 10⁻⁸ of it.
        let curve = Self.area(path.flattened(tolerance: 1e-7))
        let polyline = Self.area(path.flattened())
        #expect(abs(polyline - curve) / curve < 5e-4, "\(polyline) vs \(curve)")
    }

    @Test("every point and chord midpoint of a cubic's polyline is within the tolerance of the curve (⁴⁄₃ of it for two chords)")
    func staysWithinTolerance() {
        var g = DifferentialTests.SplitMix(state: 29)
        for _ in 0..<16 {
            let p0 = Self.randomPoint(&g), c1 = Self.randomPoint(&g), c2 = Self.randomPoint(&g), p3 = Self.randomPoint(&g)
            var path = Path()
            path.move(to: p0)
            path.cubic(to: p3, control1: c1, control2: c2)
            for tolerance in [0.1, 0.5] {
                let points = path.flattened(tolerance: tolerance)[0]
                let n = points.count - 1
                let bound = (n == 2 ? 4.0 / 3.0 : 1.0) * tolerance
                // The distance to the curve near parameter t, from 2,000 samples a chord either
                // side: never less than the true distance, and over it by about 10⁻⁴ px.
                func distance(_ q: Point, near t: Double) -> Double {
                    let from = max(0, t - 1 / Double(n)), to = min(1, t + 1 / Double(n))
                    return (0...2_000).reduce(Double.infinity) { nearest, k in
                        min(nearest, q.distance(to: QuadCubicTests.cubic(p0, c1, c2, p3, from + (to - from) * Double(k) / 2_000)))
                    }
                }
                var worst = 0.0
                for (i, q) in points.enumerated() {
                    worst = max(worst, distance(q, near: Double(i) / Double(n)))
                    if i > 0 { worst = max(worst, distance(0.5 * (q + points[i - 1]), near: (Double(i) - 0.5) / Double(n))) }
                }
                #expect(worst <= bound + 1e-3, "tolerance \(tolerance): \(worst) px off, \(n) chords")
            }
        }
    }

    @Test("the room a path's sub-paths reserve adds up to no more than the points it may flatten into, however many sub-paths share the cut (decision 117)")
    func reservedRoomIsBounded() {
        // 300 sub-paths of one huge curve each: far past the cap, so each curve gets a share
        // of its chords, and each sub-path must reserve only that share.
        var path = Path()
        for i in 0..<300 {
            let x = Double(i)
            path.move(to: Point(x: x, y: 0))
            path.cubic(to: Point(x: x, y: 1e7), control1: Point(x: x + 1e7, y: 0), control2: Point(x: x - 1e7, y: 1e7))
            if i % 2 == 0 { path.close() }
        }
        let subpaths = path.flattenedSubpaths(tolerance: Path.defaultFlatteningTolerance)
        let points = subpaths.reduce(0) { $0 + $1.points.count }
        let reserved = subpaths.reduce(0) { $0 + $1.points.capacity }
        #expect(points <= Path.maximumFlattenedPoints + path.elements.count)
        // Each array's capacity rounds up to its allocation's size: a little slack per sub-path.
        #expect(reserved <= Path.maximumFlattenedPoints + path.elements.count + 8 * subpaths.count, "\(reserved) points reserved")
    }
}
