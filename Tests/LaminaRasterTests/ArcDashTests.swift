import Foundation
import Testing
@testable import LaminaGeometry
@testable import LaminaRaster

@Suite("Arcs (rule 64)")
struct ArcTests {
    func area(_ path: Path) -> Double {
        Canvas(target: PixelBuffer(width: 200, height: 200)).coverage(of: path).reduce(0) { $0 + Double($1) }
    }

    @Test("a full turn is a circle; a sweep of 2π or more stays one turn")
    func fullCircle() {
        var p = Path()
        p.addArc(center: Point(x: 100, y: 100), radius: 50, startAngle: 0.3, endAngle: 0.3 + 2 * .pi, clockwise: true)
        #expect(abs(area(p) - .pi * 2500) / (.pi * 2500) < 1e-3)
        var q = Path()
        q.addArc(center: Point(x: 100, y: 100), radius: 50, startAngle: 0, endAngle: 9 * .pi, clockwise: true)
        #expect(abs(area(q) - .pi * 2500) / (.pi * 2500) < 1e-3)
    }

    @Test("clockwise sweeps increasing angles in y-down space; the other way round takes the rest")
    func direction() {
        var half = Path()
        half.addArc(center: Point(x: 100, y: 100), radius: 50, startAngle: 0, endAngle: .pi, clockwise: true)
        half.close()
        // Increasing angles from 0 to π pass through +y: the lower half on screen.
        let lower = Canvas(target: PixelBuffer(width: 200, height: 200)).coverage(of: half)
        #expect(lower[130 * 200 + 100] == 1 && lower[70 * 200 + 100] == 0)
        #expect(abs(area(half) - .pi * 1250) / (.pi * 1250) < 1e-3)
        var threeQuarters = Path()
        threeQuarters.move(to: Point(x: 100, y: 100))
        threeQuarters.addArc(center: Point(x: 100, y: 100), radius: 50, startAngle: 0, endAngle: .pi / 2, clockwise: false)
        threeQuarters.close()
        #expect(abs(area(threeQuarters) - .pi * 2500 * 0.75) / (.pi * 1875) < 1e-3)
    }

    @Test("the arc joins the current point with a line and ends at its end angle")
    func joinsCurrentPoint() {
        var p = Path()
        p.move(to: Point(x: 10, y: 10))
        p.addArc(center: Point(x: 100, y: 100), radius: 40, startAngle: .pi, endAngle: 1.5 * .pi, clockwise: true)
        #expect(p.elements[1] == .line(to: Point(x: 60, y: 100 + 40 * sin(Double.pi))))
        let end = p.currentPoint!
        #expect(abs(end.x - 100) < 1e-9 && abs(end.y - 60) < 1e-9)
        var same = Path()
        same.addArc(center: .zero, radius: 5, startAngle: 1, endAngle: 1, clockwise: true)
        #expect(same.elements.count == 1)                                    // just the start point
    }
}

@Suite("Dashes and trimming (rules 61, 62)")
struct DashTests {
    func area(_ path: Path, _ style: StrokeStyle) -> Double {
        var p = Path()
        for polygon in path.stroked(style) {
            p.move(to: polygon[0])
            for q in polygon.dropFirst() { p.line(to: q) }
            p.close()
        }
        return Canvas(target: PixelBuffer(width: 200, height: 100)).coverage(of: p).reduce(0) { $0 + Double($1) }
    }

    var line: Path {
        var p = Path()
        p.move(to: Point(x: 50, y: 50.5))
        p.line(to: Point(x: 150, y: 50.5))
        return p
    }

    @Test("painted lengths of a dash pattern, with phase and odd patterns")
    func dashes() {
        #expect(abs(area(line, StrokeStyle(width: 2, dashPattern: [10, 5])) - 7 * 10 * 2) < 1e-6)
        #expect(abs(area(line, StrokeStyle(width: 2, dashPattern: [10, 5], dashPhase: 5)) - 65 * 2) < 1e-6)
        #expect(abs(area(line, StrokeStyle(width: 2, dashPattern: [10])) - 50 * 2) < 1e-6)       // [10, 10]
        #expect(abs(area(line, StrokeStyle(width: 2, dashPattern: [10, 5], dashPhase: -10)) - 65 * 2) < 1e-6)   // −10 ≡ 5 (mod 15)
    }

    @Test("each dash gets caps; degenerate patterns draw solid (Lamina choice)")
    func capsAndDegenerate() {
        #expect(abs(area(line, StrokeStyle(width: 2, cap: .square, dashPattern: [10, 5])) - 7 * 12 * 2) < 1e-6)
        #expect(abs(area(line, StrokeStyle(width: 2, dashPattern: [0, 0])) - 200) < 1e-6)
        #expect(abs(area(line, StrokeStyle(width: 2, dashPattern: [5, -1])) - 200) < 1e-6)
    }

    @Test("strokeStart and strokeEnd select a fraction of the length; start ≥ end draws nothing")
    func trim() {
        #expect(abs(area(line, StrokeStyle(width: 2, start: 0.25, end: 0.75)) - 100) < 1e-6)
        #expect(area(line, StrokeStyle(width: 2, start: 0.6, end: 0.6)) == 0)
        #expect(area(line, StrokeStyle(width: 2, start: 0.8, end: 0.2)) == 0)
        // Across two sub-paths of 100 and 50: the middle half (37.5 … 112.5) takes 62.5 of
        // the first and 12.5 of the second.
        var two = line
        two.move(to: Point(x: 50, y: 80.5))
        two.line(to: Point(x: 100, y: 80.5))
        #expect(abs(area(two, StrokeStyle(width: 2, start: 0.25, end: 0.75)) - 150) < 1e-6)
    }
}
