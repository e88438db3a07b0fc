import Foundation
import Testing
@testable import LaminaGeometry
@testable import LaminaRaster

@Suite("SVG path data")
struct SVGPathTests {
    @Test("absolute and relative commands, implicit repeats, numbers that run together")
    func commands() throws {
        let p = try Path(svgPathData: "M10,20 l5-5 10.5.5 H40 v10 h-5 V0 z m1 1 2 2")
        #expect(p.elements == [
            .move(to: Point(x: 10, y: 20)), .line(to: Point(x: 15, y: 15)), .line(to: Point(x: 25.5, y: 15.5)),
            .line(to: Point(x: 40, y: 15.5)), .line(to: Point(x: 40, y: 25.5)), .line(to: Point(x: 35, y: 25.5)),
            .line(to: Point(x: 35, y: 0)), .close, .move(to: Point(x: 11, y: 21)), .line(to: Point(x: 13, y: 23)),
        ])
    }

    @Test("smooth curves reflect the previous control point")
    func smooth() throws {
        let p = try Path(svgPathData: "M0 0 C10 0 20 10 20 20 S30 40 40 40 Q50 40 50 50 T60 60 t10 0")
        #expect(p.elements[2] == .cubic(control1: Point(x: 20, y: 30), control2: Point(x: 30, y: 40), to: Point(x: 40, y: 40)))
        #expect(p.elements[4] == .quad(control: Point(x: 50, y: 60), to: Point(x: 60, y: 60)))
        #expect(p.elements[5] == .quad(control: Point(x: 70, y: 60), to: Point(x: 70, y: 60)))
        let s = try Path(svgPathData: "M0 0 S10 10 20 0")                 // no previous C: c1 = current
        #expect(s.elements[1] == .cubic(control1: .zero, control2: Point(x: 10, y: 10), to: Point(x: 20, y: 0)))
    }

    @Test("elliptical arcs: a half circle by two arcs encloses πr²; flags pick the arc; tiny radii scale up")
    func arcs() throws {
        let circle = try Path(svgPathData: "M50 100 A50 50 0 1 0 150 100 A50 50 0 1 0 50 100 Z")
        let area = Canvas(target: PixelBuffer(width: 200, height: 200)).coverage(of: circle).reduce(0) { $0 + Double($1) }
        #expect(abs(area - .pi * 2500) / (.pi * 2500) < 1e-3)
        // Sweep flag 1 is the positive-angle direction: clockwise on a y-down screen, so from
        // the left point to the right one it goes over the top (y = 50); flag 0 goes under.
        let down = try Path(svgPathData: "M50 100 A50 50 0 0 1 150 100")
        let downBounds = Rect.boundingBox(of: down.flattened(tolerance: 0.01)[0])
        #expect(abs(downBounds.minY - 50) < 1e-6)
        let up = try Path(svgPathData: "M50 100 A50 50 0 0 0 150 100")
        #expect(abs(Rect.boundingBox(of: up.flattened(tolerance: 0.01)[0]).maxY - 150) < 1e-6)
        // Radii too small are scaled so the arc just reaches: a half circle of radius 50.
        let scaled = try Path(svgPathData: "M50 100 a1 1 0 0 1 100 0")
        #expect(abs(Rect.boundingBox(of: scaled.flattened(tolerance: 0.01)[0]).minY - 50) < 1e-6)
        #expect(try Path(svgPathData: "M0 0 A0 5 0 0 1 10 10").elements.last == .line(to: Point(x: 10, y: 10)))
        #expect(try Path(svgPathData: "M0 0a5 5 0 1110 0").elements.count > 1)   // packed flags
    }

    @Test("errors give the offset of the bad input", arguments: [
        ("10 10", 0), ("M10", 3), ("M10 20 L5 x", 10), ("M0 0 A5 5 0 2 1 5 5", 12), ("M0 0 Z 5 5", 7), ("M0 0 K1 1", 5),
    ])
    func errors(text: String, offset: Int) {
        do {
            _ = try Path(svgPathData: text)
            Issue.record("parsed: \(text)")
        } catch {
            #expect(error.offset == offset, "\(text): \(error)")
        }
    }

    @Test("serialising and parsing gives back the same path")
    func roundTrip() throws {
        var p = Path(roundedRect: Rect(x: 1.25, y: -3.5, width: 40.125, height: 20), cornerRadius: 6.3)
        p.move(to: Point(x: 0.1, y: 0.2))
        p.quad(to: Point(x: 1e-5, y: 123456.75), control: Point(x: -7, y: 3))
        #expect(try Path(svgPathData: p.svgPathData) == p)
    }
}

@Suite("SVG arcs with extreme radii (decision 86)")
struct SVGArcExtremeTests {
    @Test("radii of 1e300 and beyond, or infinite, give finite geometry whose path data parses again", arguments: [
        "M10,10 A1e300 1e300 0 0 1 50,50", "M10,10 A1e300 1e300 0 1 1 50,50", "M10,10 A1e308 2 30 0 0 50,50",
        "M10,10 A1e200 1e-200 0 1 0 50,10", "M0,0 A1 1 1e308 1 1 5,5",
    ])
    func extremeArcs(data: String) throws {
        let path = try Path(svgPathData: data)
        let points = path.flattened().flatMap { $0 }
        #expect(!points.isEmpty && points.allSatisfy { $0.x.isFinite && $0.y.isFinite }, "\(path.svgPathData)")
        let again = try Path(svgPathData: path.svgPathData)
        #expect(again.svgPathData == path.svgPathData)
        #expect(points.last.map { abs($0.x - Double(data.split(separator: " ").last!.split(separator: ",")[0])!) < 1e-6 } == true)
    }
}
