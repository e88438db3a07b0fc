import LaminaGeometry

extension Path {
    /// A rectangle with circular corners of `radius` (clamped to half the shorter side),
    /// each corner a cubic quarter arc with κ = 4(√2 − 1)/3. Starts at the end of the top-left
    /// corner and runs clockwise on screen (increasing angle in y-down space).
    public init(roundedRect r: Rect, cornerRadius radius: Double) {
        let s = r.standardized
        let rad = max(0, min(radius, s.width / 2, s.height / 2))
        guard rad > 0 else {
            self.init(rect: s)
            return
        }
        let k = rad * 4 * (2.0.squareRoot() - 1) / 3
        let x0 = s.minX, x1 = s.maxX, y0 = s.minY, y1 = s.maxY
        self.init()
        move(to: Point(x: x0 + rad, y: y0))
        line(to: Point(x: x1 - rad, y: y0))
        cubic(to: Point(x: x1, y: y0 + rad), control1: Point(x: x1 - rad + k, y: y0), control2: Point(x: x1, y: y0 + rad - k))
        line(to: Point(x: x1, y: y1 - rad))
        cubic(to: Point(x: x1 - rad, y: y1), control1: Point(x: x1, y: y1 - rad + k), control2: Point(x: x1 - rad + k, y: y1))
        line(to: Point(x: x0 + rad, y: y1))
        cubic(to: Point(x: x0, y: y1 - rad), control1: Point(x: x0 + rad - k, y: y1), control2: Point(x: x0, y: y1 - rad + k))
        line(to: Point(x: x0, y: y0 + rad))
        cubic(to: Point(x: x0 + rad, y: y0), control1: Point(x: x0, y: y0 + rad - k), control2: Point(x: x0 + rad - k, y: y0))
        close()
    }

    /// A rectangle with its own circular radius per corner (top-left, top-right,
    /// bottom-right, bottom-left). Where two radii on one side add up to more than the side,
    /// all radii are scaled down by the same factor (the CSS border-radius rule).
    public init(roundedRect r: Rect, topLeft: Double, topRight: Double, bottomRight: Double, bottomLeft: Double) {
        let s = r.standardized
        var radii = [topLeft, topRight, bottomRight, bottomLeft].map { max(0, $0.isFinite ? $0 : 0) }
        let sides = [(radii[0] + radii[1], s.width), (radii[1] + radii[2], s.height),
                     (radii[2] + radii[3], s.width), (radii[3] + radii[0], s.height)]
        let factor = sides.map { $0.0 > $0.1 && $0.0 > 0 ? $0.1 / $0.0 : 1 }.min() ?? 1
        radii = radii.map { $0 * factor }
        let kappa = 4 * (2.0.squareRoot() - 1) / 3
        let x0 = s.minX, x1 = s.maxX, y0 = s.minY, y1 = s.maxY
        let (tl, tr, br, bl) = (radii[0], radii[1], radii[2], radii[3])
        self.init()
        move(to: Point(x: x0 + tl, y: y0))
        line(to: Point(x: x1 - tr, y: y0))
        if tr > 0 {
            cubic(to: Point(x: x1, y: y0 + tr), control1: Point(x: x1 - tr + tr * kappa, y: y0),
                  control2: Point(x: x1, y: y0 + tr - tr * kappa))
        }
        line(to: Point(x: x1, y: y1 - br))
        if br > 0 {
            cubic(to: Point(x: x1 - br, y: y1), control1: Point(x: x1, y: y1 - br + br * kappa),
                  control2: Point(x: x1 - br + br * kappa, y: y1))
        }
        line(to: Point(x: x0 + bl, y: y1))
        if bl > 0 {
            cubic(to: Point(x: x0, y: y1 - bl), control1: Point(x: x0 + bl - bl * kappa, y: y1),
                  control2: Point(x: x0, y: y1 - bl + bl * kappa))
        }
        line(to: Point(x: x0, y: y0 + tl))
        if tl > 0 {
            cubic(to: Point(x: x0 + tl, y: y0), control1: Point(x: x0, y: y0 + tl - tl * kappa),
                  control2: Point(x: x0 + tl - tl * kappa, y: y0))
        }
        close()
    }

    /// A circle of `radius` about `center` (an oval in its bounding square).
    public init(circleCenter center: Point, radius: Double) {
        self.init(ovalIn: Rect(x: center.x - radius, y: center.y - radius, width: 2 * radius, height: 2 * radius))
    }
}

extension Path {
    /// The cubic that traces the same curve as the quadratic from `p0` through control `q`
    /// to `p3` (degree elevation, rule 63): `c1 = p0 + ⅔(q − p0)`, `c2 = p3 + ⅔(q − p3)`.
    public static func cubicControls(from p0: Point, quadControl q: Point, to p3: Point) -> (Point, Point) {
        (Point(x: p0.x + 2 / 3 * (q.x - p0.x), y: p0.y + 2 / 3 * (q.y - p0.y)),
         Point(x: p3.x + 2 / 3 * (q.x - p3.x), y: p3.y + 2 / 3 * (q.y - p3.y)))
    }
}
