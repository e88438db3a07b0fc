import LaminaTestSupport
import Testing
@testable import LaminaGeometry
@testable import LaminaRaster

/// The fast core's straight rows (decision 159): the rows where a shape is two vertical edges
/// alone are filled apart from the bands, with the pixels the bands would have drawn.
@Suite("Straight rows are filled as the bands fill them")
struct StraightRowsTests {
    /// A canvas over a random opaque background (so translucent fills blend with something).
    static func canvas(_ n: inout SeededNumbers, straight: Bool, size: Int = 96) -> (PixelBuffer, Canvas) {
        let buffer = PixelBuffer(width: size, height: size)
        for y in 0..<size {
            for x in 0..<size { buffer[x, y] = 0xFF00_0000 | UInt32(n.pick(1 << 24)) }
        }
        let canvas = Canvas(target: buffer)
        canvas.takesStraightRows = straight
        return (buffer, canvas)
    }

    /// Rectangles, rounded rectangles (one radius or four) and ellipses at fractional places,
    /// some reaching past the canvas, some narrower than a pixel (a quarter of them within one
    /// column), most with straight rows.
    static func randomShape(_ n: inout SeededNumbers) -> Path {
        let x = n.next(-20, 90), y = n.next(-20, 90)
        let width: Double
        switch n.pick(4) {
        case 0: width = n.next(0.05, 0.95) * (1 - (x - x.rounded(.down)))   // within x's column
        case 1: width = n.next(0.05, 2.5)
        default: width = n.next(2.5, 70)
        }
        let rect = Rect(x: x, y: y, width: width, height: n.next(0.5, 80))
        switch n.pick(10) {
        case 8: return ring(rect, width: n.next(0.3, 6))    // a border: four sides
        case 9:    // bars side by side (or overlapping: a winding of two between)
            let other = Rect(x: x + n.next(-10, 40), y: y + n.next(-5, 5), width: n.next(0.5, 30), height: rect.height)
            return Path(elements: Path(rect: rect).elements + Path(rect: other).elements)
        case 0, 1, 2: return Path(rect: rect)
        case 3, 4: return Path(roundedRect: rect, cornerRadius: n.next(0, 12))
        case 5, 6: return Path(roundedRect: rect, topLeft: n.next(0, 10), topRight: n.next(0, 10),
                               bottomRight: n.next(0, 10), bottomLeft: n.next(0, 10))
        default: return Path(ovalIn: rect)
        }
    }

    /// `rect` less the rectangle `width` inside it, the inner one wound the other way (a
    /// border, as a layer draws one).
    static func ring(_ rect: Rect, width: Double) -> Path {
        let inner = Rect(x: rect.minX + width, y: rect.minY + width,
                         width: max(rect.width - 2 * width, 0), height: max(rect.height - 2 * width, 0))
        var path = Path(rect: rect)
        path.move(to: Point(x: inner.minX, y: inner.minY))
        path.line(to: Point(x: inner.minX, y: inner.maxY))
        path.line(to: Point(x: inner.maxX, y: inner.maxY))
        path.line(to: Point(x: inner.maxX, y: inner.minY))
        path.close()
        return path
    }

    @Test("random rectangles, rounded rectangles, borders and bars side by side (some with a triangle), solid (opaque or not), through clips and clip masks, both rules: the same pixels as the bands alone", arguments: 0..<24)
    func sameAsBands(seed: UInt64) {
        var n = SeededNumbers(state: seed &* 48_271 &+ 5)
        var taken = 0
        for index in 0..<16 {
            // The first a rectangle well inside, so every seed compares some straight rows.
            var path = index == 0 ? Path(rect: Rect(x: n.next(1, 40), y: n.next(1, 40), width: n.next(2, 50), height: n.next(6, 50)))
                : Self.randomShape(&n)
            switch n.pick(6) {
            case 0:    // two shapes: their sides together, or no straight rows
                path = Path(elements: path.elements + Self.randomShape(&n).elements)
            case 1, 2:    // and a triangle: its edges cut the straight rows where they cross them
                let box = path.controlPointBounds
                let corner = { (n: inout SeededNumbers) in
                    Point(x: n.next(box.minX - 10, box.maxX + 10), y: n.next(box.minY - 10, box.maxY + 10))
                }
                var triangle = Path()
                triangle.move(to: corner(&n))
                triangle.line(to: corner(&n))
                triangle.line(to: corner(&n))
                triangle.close()
                path = Path(elements: path.elements + triangle.elements)
            default: break
            }
            let transform = n.pick(2) == 0 ? AffineTransform.identity
                : AffineTransform(scaleX: n.next(0.5, 2), y: n.next(0.5, 2)).translatedBy(x: n.next(-5, 5), y: n.next(-5, 5))
            let rule: FillRule = n.pick(2) == 0 ? .nonZero : .evenOdd
            let color = Color(red: n.next(0, 1), green: n.next(0, 1), blue: n.next(0, 1), alpha: n.pick(2) == 0 ? 1 : n.next(0.1, 1))
            // A clip somewhere about the shape (so it mostly cuts it rather than missing it).
            let box = transform.apply(to: path.controlPointBounds)
            let x0 = max(0, min(90, Int(n.next(box.minX - 8, box.maxX)))), y0 = max(0, min(90, Int(n.next(box.minY - 8, box.maxY))))
            let clip = index == 0 || n.pick(3) != 0 ? nil : PixelRect(x0: x0, y0: y0, x1: x0 + 1 + n.pick(96 - x0), y1: y0 + 1 + n.pick(96 - y0))
            let masked = index > 0 && n.pick(4) == 0
            let maskShape = Path(ovalIn: Rect(x: n.next(0, 40), y: n.next(0, 40), width: n.next(20, 60), height: n.next(20, 60)))
            let state = n
            var drawn: [PixelBuffer] = []
            for straight in [true, false] {
                n = state
                let (buffer, canvas) = Self.canvas(&n, straight: straight)
                if masked { canvas.clip(to: maskShape) }
                canvas.fill(path, color: color, rule: rule, transform: transform, clip: clip)
                drawn.append(buffer)
                taken += canvas.straightRowsFilled
            }
            #expect(Pixels.differing(drawn[0], drawn[1]) == 0, "\(path.elements.count) elements, \(rule), clip \(String(describing: clip)), mask \(masked)")
        }
        #expect(taken > 0, "no shape had straight rows: the comparison held nothing")
    }

    @Test("a gradient through a rounded rectangle: the same pixels as the bands alone (a sink other than a solid colour's)", arguments: 0..<4)
    func gradientSameAsBands(seed: UInt64) {
        var n = SeededNumbers(state: seed &* 7_727 &+ 1)
        var taken = 0
        for _ in 0..<6 {
            let path = Self.randomShape(&n)
            let gradient = Gradient(.linear(start: Point(x: n.next(0, 96), y: 0), end: Point(x: n.next(0, 96), y: 96)),
                                    stops: [.init(0, Color(red: 1, green: 0, blue: 0, alpha: 1)),
                                            .init(1, Color(red: 0, green: 0, blue: 1, alpha: n.next(0.2, 1)))])
            let state = n
            var drawn: [PixelBuffer] = []
            for straight in [true, false] {
                n = state
                let (buffer, canvas) = Self.canvas(&n, straight: straight)
                canvas.fill(path, gradient: gradient)
                drawn.append(buffer)
                taken += canvas.straightRowsFilled
            }
            #expect(Pixels.differing(drawn[0], drawn[1]) == 0)
        }
        #expect(taken > 0, "no shape had straight rows: the comparison held nothing")
    }

    @Test("the rows taken are a rectangle's whole rows, a rounded rectangle's between its corners, and a border's between its inner corners")
    func rowsTaken() {
        var n = SeededNumbers(state: 1)
        let (_, canvas) = Self.canvas(&n, straight: true)
        // Rows 21 ..< 80: row 20 is only partly inside (from 20.6), row 80 too (to 80.2).
        canvas.fill(Path(rect: Rect(x: 10.3, y: 20.6, width: 40.4, height: 59.6)), color: .black)
        #expect(canvas.straightRowsFilled == 59)
        // Corners of 8.5 from y 10.25 and to 70.75: the sides run from 18.75 to 62.25, so rows 19 ..< 62.
        canvas.fill(Path(roundedRect: Rect(x: 5.5, y: 10.25, width: 50, height: 60.5), cornerRadius: 8.5), color: .black)
        #expect(canvas.straightRowsFilled == 59 + 43)
        // Through a clip of rows 30 ..< 40: those rows alone.
        canvas.fill(Path(rect: Rect(x: 10.3, y: 20.6, width: 40.4, height: 59.6)), color: .black,
                    clip: PixelRect(x0: 0, y0: 30, x1: 96, y1: 40))
        #expect(canvas.straightRowsFilled == 59 + 43 + 10)
        // A circle has no vertical sides.
        canvas.fill(Path(ovalIn: Rect(x: 10, y: 10, width: 60, height: 60)), color: .black)
        #expect(canvas.straightRowsFilled == 59 + 43 + 10)
        // Two rectangles side by side: four sides, rows 2 ..< 61; a border 4 px wide from
        // y 10.5 to 70.5: its inner sides from 14.5 to 66.5, so rows 15 ..< 66.
        let two = Path(elements: Path(rect: Rect(x: 1.5, y: 1.5, width: 20, height: 60)).elements
                           + Path(rect: Rect(x: 40.5, y: 1.5, width: 20, height: 60)).elements)
        canvas.fill(two, color: .black)
        #expect(canvas.straightRowsFilled == 59 + 43 + 10 + 59)
        canvas.fill(Self.ring(Rect(x: 10.5, y: 10.5, width: 50, height: 60), width: 4), color: .black)
        #expect(canvas.straightRowsFilled == 59 + 43 + 10 + 59 + 51)
    }

    @Test("sides cut at a clip's bottom or top on a band boundary leave nothing beyond it: the same pixels as the bands alone, every edge within the bands", arguments: [0, 32, 64, 100])
    func sidesCutAtTheClip(clipTop: Int) {
        // Rectangles reaching past the rows drawn, whose sides end at the clip's rows: the
        // part beyond the clip is dropped (once it started a band past the last, written
        // out of bounds: the workloads' two-thread run trapped on it). Debug builds check
        // every edge's band.
        for (y, height) in [(-40.0, 300.0), (clipTop == 0 ? 0 : Double(clipTop) - 0.5, 260.0), (Double(clipTop) + 10.25, 60.5)] {
            var n = SeededNumbers(state: UInt64(clipTop) &+ 7)
            let (withRows, straight) = Self.canvas(&n, straight: true, size: 256)
            n = SeededNumbers(state: UInt64(clipTop) &+ 7)
            let (bandsAlone, banded) = Self.canvas(&n, straight: false, size: 256)
            let clip = PixelRect(x0: 0, y0: clipTop, x1: 256, y1: clipTop + 128)
            let rect = Path(rect: Rect(x: 20.5, y: y, width: 100.25, height: height))
            straight.fill(rect, color: Color(red: 0.2, green: 0.6, blue: 0.9, alpha: 0.7), clip: clip)
            banded.fill(rect, color: Color(red: 0.2, green: 0.6, blue: 0.9, alpha: 0.7), clip: clip)
            #expect(Pixels.differing(withRows, bandsAlone) == 0, "clip from \(clipTop), rectangle from \(y)")
            #expect(straight.straightRowsFilled > 0)
        }
    }
}
