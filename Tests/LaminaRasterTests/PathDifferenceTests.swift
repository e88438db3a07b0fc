import Foundation
import LaminaTestSupport
import Testing
@testable import LaminaGeometry
@testable import LaminaRaster

/// `Path.differingRegions(from:)`: where two fills of paths built alike may differ.
@Suite("Where two fills of a path built alike differ")
struct PathDifferenceTests {
    /// A path of one to three sub-paths of random lines, quadratics and cubics, some closed,
    /// some left open (a fill closes them).
    static func randomPath(_ n: inout SeededNumbers) -> Path {
        func point() -> Point { Point(x: n.next(-8, 72), y: n.next(-8, 72)) }
        var path = Path()
        for _ in 0..<(1 + n.pick(3)) {
            path.move(to: point())
            for _ in 0..<(2 + n.pick(7)) {
                switch n.pick(3) {
                case 0: path.line(to: point())
                case 1: path.quad(to: point(), control: point())
                default: path.cubic(to: point(), control1: point(), control2: point())
                }
            }
            if n.pick(2) == 0 { path.close() }
        }
        return path
    }

    /// `path` with some of its points moved (a move's among them now and then), by a
    /// little or a lot: the same elements in the same order.
    static func moved(_ path: Path, _ n: inout SeededNumbers) -> Path {
        let changes = n.pick(4)
        var elements = path.elements
        for _ in 0..<changes {
            let i = n.pick(elements.count)
            let reach = n.pick(3) == 0 ? 30.0 : 3.0
            func shift(_ p: Point) -> Point { Point(x: p.x + n.next(-reach, reach), y: p.y + n.next(-reach, reach)) }
            switch elements[i] {
            case .move(let p): elements[i] = .move(to: shift(p))
            case .line(let p): elements[i] = .line(to: shift(p))
            case .quad(let c, let p): elements[i] = n.pick(2) == 0 ? .quad(control: shift(c), to: p) : .quad(control: c, to: shift(p))
            case .cubic(let c1, let c2, let p):
                switch n.pick(3) {
                case 0: elements[i] = .cubic(control1: shift(c1), control2: c2, to: p)
                case 1: elements[i] = .cubic(control1: c1, control2: shift(c2), to: p)
                default: elements[i] = .cubic(control1: c1, control2: c2, to: shift(p))
                }
            case .close: break
            }
        }
        return Path(elements: elements)
    }

    static func filled(_ path: Path, rule: FillRule, pipeline: Canvas.Pipeline) -> PixelBuffer {
        let image = PixelBuffer(width: 64, height: 64)
        let canvas = Canvas(target: image)
        canvas.pipeline = pipeline
        canvas.fill(path, color: Color(red: 1, green: 1, blue: 1), rule: rule)
        return image
    }

    @Test("every pixel two fills differ at lies in a region (both rules, both pipelines)", arguments: 0..<40)
    func differingPixelsLieInRegions(seed: UInt64) throws {
        var n = SeededNumbers(state: seed &* 7919 &+ 11)
        for _ in 0..<8 {
            let old = Self.randomPath(&n), new = Self.moved(old, &n)
            let regions = try #require(new.differingRegions(from: old))
            // The pixels each region touches, as the renderer takes them (grown by one).
            let boxes = regions.map { r in
                PixelRect(x0: Int(r.minX.rounded(.down)) - 1, y0: Int(r.minY.rounded(.down)) - 1,
                          x1: Int(r.maxX.rounded(.up)) + 1, y1: Int(r.maxY.rounded(.up)) + 1)
            }
            for rule in [FillRule.nonZero, .evenOdd] {
                for pipeline in [Canvas.Pipeline.fast, .reference] {
                    let a = Self.filled(old, rule: rule, pipeline: pipeline), b = Self.filled(new, rule: rule, pipeline: pipeline)
                    var outside = 0
                    for y in 0..<64 {
                        for x in 0..<64 where a[x, y] != b[x, y] {
                            if !boxes.contains(where: { x >= $0.x0 && x < $0.x1 && y >= $0.y0 && y < $0.y1 }) { outside += 1 }
                        }
                    }
                    #expect(outside == 0, "\(rule), \(pipeline): \(outside) pixels changed outside \(boxes)")
                }
            }
            if old == new { #expect(regions.isEmpty) }
        }
    }

    @Test("one point of a long outline moved: the region is that point's neighbourhood, not the whole box")
    func onePointMovedIsLocal() throws {
        // A 40-gon of radius 30; its 10th corner (straight below the centre) pulled out by 5.
        let corners = (0..<40).map { k -> Point in
            let a = Double(k) / 40 * 2 * .pi
            return Point(x: 32 + 30 * cos(a), y: 32 + 30 * sin(a))
        }
        func polygon(_ points: [Point]) -> Path {
            var p = Path()
            p.move(to: points[0])
            for q in points.dropFirst() { p.line(to: q) }
            p.close()
            return p
        }
        var pulled = corners
        pulled[10] = Point(x: corners[10].x, y: corners[10].y + 5)
        let regions = try #require(polygon(pulled).differingRegions(from: polygon(corners)))
        #expect(regions.count == 1)
        // The two segments beside the corner: from corner 9 to corner 11, and the pulled point.
        let expected = [corners[9], corners[10], corners[11], pulled[10]]
        let minX = expected.map(\.x).min()!, maxX = expected.map(\.x).max()!
        let minY = expected.map(\.y).min()!, maxY = expected.map(\.y).max()!
        let grow = 4.0 / 3 * Path.defaultFlatteningTolerance
        let r = regions[0]
        #expect(abs(r.minX - (minX - grow)) < 1e-9 && abs(r.maxX - (maxX + grow)) < 1e-9)
        #expect(abs(r.minY - (minY - grow)) < 1e-9 && abs(r.maxY - (maxY + grow)) < 1e-9)
    }

    @Test("paths built otherwise, or too fine to flatten alike, give no regions")
    func unlikePaths() {
        var a = Path(), b = Path()
        a.move(to: .zero); a.line(to: Point(x: 10, y: 0)); a.line(to: Point(x: 0, y: 10)); a.close()
        b.move(to: .zero); b.quad(to: Point(x: 10, y: 0), control: Point(x: 5, y: 5)); b.line(to: Point(x: 0, y: 10)); b.close()
        #expect(b.differingRegions(from: a) == nil)                            // a line became a curve
        var c = a
        c.line(to: Point(x: 3, y: 3))
        #expect(c.differingRegions(from: a) == nil)                            // one element more
        // Curves huge enough to be cut coarser than the tolerance (decision 117): two of
        // 10,000 chords each, past the 16,384 points of one path.
        func huge(_ bend: Double) -> Path {
            var p = Path()
            p.move(to: .zero)
            p.cubic(to: Point(x: 1e9, y: 0), control1: Point(x: 0, y: bend), control2: Point(x: 1e9, y: 1e9))
            p.cubic(to: .zero, control1: Point(x: 1e9, y: -1e9), control2: Point(x: 0, y: -1e9))
            return p
        }
        #expect(huge(2e9).differingRegions(from: huge(1e9)) == nil)
    }
}

/// `Path.fillPolygons(inside:)`: a fill seen through a clip, with the curves away from it as
/// chords, draws exactly what the whole polyline draws there.
@Suite("Fills through a clip flatten only what reaches it")
struct ClippedFillTests {
    @Test("random curvy paths through random clips: the same pixels as the fully flattened fill (both rules)", arguments: 0..<24)
    func sameAsFullyFlattened(seed: UInt64) {
        var n = SeededNumbers(state: seed &* 104_729 &+ 3)
        for _ in 0..<6 {
            var path = PathDifferenceTests.randomPath(&n)
            if n.pick(2) == 0 {
                path = path.applying(AffineTransform(scaleX: n.next(0.5, 3), y: n.next(0.5, 3)))
            }
            let x0 = n.pick(56), y0 = n.pick(56)
            let clip = PixelRect(x0: x0, y0: y0, x1: x0 + 1 + n.pick(64 - x0), y1: y0 + 1 + n.pick(64 - y0))
            let rule: FillRule = n.pick(2) == 0 ? .nonZero : .evenOdd
            let color = Color(red: 0.9, green: 0.4, blue: 0.1, alpha: n.pick(2) == 0 ? 1 : 0.6)
            let clipped = PixelBuffer(width: 64, height: 64), whole = PixelBuffer(width: 64, height: 64)
            Canvas(target: clipped).fill(path, color: color, rule: rule, clip: clip)
            Canvas(target: whole).fill(polygons: path.flattened(), color: color, rule: rule, clip: clip)
            #expect(Pixels.differing(clipped, whole) == 0, "clip \(clip), \(rule)")
            // And the chords are fewer points whenever a curve lies away from the clip.
            let inside = Rect(x: Double(clip.x0), y: Double(clip.y0), width: Double(clip.width), height: Double(clip.height))
            #expect(path.fillPolygons(inside: inside).joined().count <= path.flattened().joined().count)
        }
    }

    @Test("a fill through a clip draws inside it exactly what the unclipped fill draws there, and nothing outside (edges right of the clip dropped; both rules, both alphas)", arguments: 0..<24)
    func clipCutsOnlyItsPixels(seed: UInt64) {
        var n = SeededNumbers(state: seed &* 7_919 &+ 11)
        for _ in 0..<6 {
            // Lines only (no chords for curves away from the clip), reaching past every side.
            var polygons: [[Point]] = []
            for _ in 0..<(1 + n.pick(3)) {
                polygons.append((0..<(3 + n.pick(8))).map { _ in Point(x: n.next(-16, 80), y: n.next(-16, 80)) })
            }
            let x0 = n.pick(60), y0 = n.pick(60)
            let clip = PixelRect(x0: x0, y0: y0, x1: x0 + 1 + n.pick(64 - x0), y1: y0 + 1 + n.pick(64 - y0))
            let rule: FillRule = n.pick(2) == 0 ? .nonZero : .evenOdd
            let color = Color(red: 0.2, green: 0.5, blue: 0.9, alpha: n.pick(2) == 0 ? 1 : 0.6)
            let clipped = PixelBuffer(width: 64, height: 64), whole = PixelBuffer(width: 64, height: 64)
            Canvas(target: clipped).fill(polygons: polygons, color: color, rule: rule, clip: clip)
            Canvas(target: whole).fill(polygons: polygons, color: color, rule: rule)
            var wrong = 0
            for y in 0..<64 {
                for x in 0..<64 {
                    let inside = x >= clip.x0 && x < clip.x1 && y >= clip.y0 && y < clip.y1
                    if clipped[x, y] != (inside ? whole[x, y] : 0) { wrong += 1 }
                }
            }
            #expect(wrong == 0, "clip \(clip), \(rule)")
        }
    }
}

@Suite("Polygons reaching past the canvas")
struct OffCanvasFillTests {
    @Test("a polygon reaching up to 2²⁰ px past the canvas, set up directly, and one reaching farther, clipped first, both cover the canvas as the polygon clipped to the canvas by hand (within the rounding of its new corners; both rules)", arguments: 0..<16)
    func sameAsClippedFirst(seed: UInt64) {
        var n = SeededNumbers(state: seed &* 6_151 &+ 5)
        let size = 48.0
        let box = (x0: -1.0, y0: -1.0, x1: size + 1, y1: size + 1)
        let reach = Double(FixedPointCoverage.reach)
        for _ in 0..<8 {
            // Most points near the canvas; some far past a side: within reach, just past it, or far beyond.
            let far = [reach * 0.5, reach - 1, reach + 2, 1e9][n.pick(4)]
            let polygon = (0..<(3 + n.pick(6))).map { _ -> Point in
                switch n.pick(4) {
                case 0: return Point(x: n.pick(2) == 0 ? -far : size + far, y: n.next(-60, size + 60))
                case 1: return Point(x: n.next(-60, size + 60), y: n.pick(2) == 0 ? -far : size + far)
                default: return Point(x: n.next(-60, size + 60), y: n.next(-60, size + 60))
                }
            }
            let rule: FillRule = n.pick(2) == 0 ? .nonZero : .evenOdd
            let direct = PixelBuffer(width: Int(size), height: Int(size)), clipped = PixelBuffer(width: Int(size), height: Int(size))
            Canvas(target: direct).fill(polygons: [polygon], color: .white, rule: rule)
            if let inside = PolygonClipper.clip(polygon, to: box) {
                Canvas(target: clipped).fill(polygons: [inside], color: .white, rule: rule)
            }
            // The hand-clipped polygon's new corners are rounded to 1/256 px, as each
            // crossing of a canvas side is: an edge through a pixel moves by up to half a
            // subpixel either way, a level at most, and a pixel may hold two such edges (an
            // edge nearly along a row moves every pixel it crosses so).
            #expect(Pixels.worstChannelDifference(direct, clipped) <= 2, "\(polygon), \(rule)")
        }
    }
}
