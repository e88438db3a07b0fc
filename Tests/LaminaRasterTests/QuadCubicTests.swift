import Testing
@testable import LaminaGeometry
@testable import LaminaRaster

@Suite("Quad → cubic (rule 63)")
struct QuadCubicTests {
    static func quad(_ p0: Point, _ q: Point, _ p3: Point, _ t: Double) -> Point {
        let u = 1 - t
        let a = u * u, b = 2 * u * t, c = t * t
        return Point(x: a * p0.x + b * q.x + c * p3.x, y: a * p0.y + b * q.y + c * p3.y)
    }

    static func cubic(_ p0: Point, _ c1: Point, _ c2: Point, _ p3: Point, _ t: Double) -> Point {
        let u = 1 - t
        let a = u * u * u, b = 3 * u * u * t, c = 3 * u * t * t, d = t * t * t
        let x = a * p0.x + b * c1.x + c * c2.x + d * p3.x
        let y = a * p0.y + b * c1.y + c * c2.y + d * p3.y
        return Point(x: x, y: y)
    }

    @Test("the cubic controls are ⅔ of the way to the control from each end (c2 from p3, the classic bug), and trace the same points")
    func degreeElevation() {
        let p0 = Point(x: 0, y: 0), q = Point(x: 30, y: 90), p3 = Point(x: 90, y: 0)
        let (c1, c2) = Path.cubicControls(from: p0, quadControl: q, to: p3)
        #expect(c1 == Point(x: 20, y: 60) && c2 == Point(x: 50, y: 60))
        for t in [0.1, 0.37, 0.5, 0.9] {
            let a = Self.quad(p0, q, p3, t), b = Self.cubic(p0, c1, c2, p3, t)
            #expect(abs(a.x - b.x) < 1e-12 && abs(a.y - b.y) < 1e-12)
        }
    }
}
