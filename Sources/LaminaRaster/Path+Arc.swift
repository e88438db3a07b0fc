#if canImport(Glibc)
import Glibc
#endif
import LaminaGeometry

extension Path {
    /// Adds a circular arc (`UIBezierPath.addArc(withCenter:radius:startAngle:endAngle:clockwise:)`,
    /// rule 64). Angles are radians from +x; in y-down screen space `clockwise: true` sweeps
    /// **increasing** angles. A sweep of 2π or more in the drawing direction is a full
    /// circle; otherwise the end angle is normalised into the drawing direction (the HTML
    /// canvas rule). A line joins the current point to the arc's start; without a current
    /// point the arc starts the sub-path. Drawn as cubic pieces of at most a quarter turn.
    public mutating func addArc(center c: Point, radius r: Double, startAngle a0: Double, endAngle a1: Double,
                                clockwise: Bool) {
        guard r >= 0, r.isFinite, a0.isFinite, a1.isFinite else { return }
        let twoPi = 2 * Double.pi
        var sweep: Double
        if clockwise {
            sweep = a1 - a0 >= twoPi ? twoPi : (a1 - a0).truncatingRemainder(dividingBy: twoPi)
            if sweep < 0 { sweep += twoPi }
        } else {
            sweep = a0 - a1 >= twoPi ? -twoPi : -(a0 - a1).truncatingRemainder(dividingBy: twoPi)
            if sweep > 0 { sweep -= twoPi }
        }
        let start = Point(x: c.x + r * cos(a0), y: c.y + r * sin(a0))
        if currentPoint == nil { move(to: start) } else { line(to: start) }
        guard sweep != 0, r > 0 else { return }
        let pieces = max(1, min(Int(saturating: (abs(sweep) / (Double.pi / 2) - 1e-12).rounded(.up)), 256))
        let step = sweep / Double(pieces)
        let k = 4.0 / 3 * tan(step / 4)
        var angle = a0
        for _ in 0..<pieces {
            let next = angle + step
            let p0 = Point(x: cos(angle), y: sin(angle)), p3 = Point(x: cos(next), y: sin(next))
            let c1 = Point(x: p0.x - k * p0.y, y: p0.y + k * p0.x)
            let c2 = Point(x: p3.x + k * p3.y, y: p3.y - k * p3.x)
            cubic(to: c + p3 * r, control1: c + c1 * r, control2: c + c2 * r)
            angle = next
        }
    }
}
