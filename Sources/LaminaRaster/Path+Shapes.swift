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

    /// A circle of `radius` about `center` (an oval in its bounding square).
    public init(circleCenter center: Point, radius: Double) {
        self.init(ovalIn: Rect(x: center.x - radius, y: center.y - radius, width: 2 * radius, height: 2 * radius))
    }
}
