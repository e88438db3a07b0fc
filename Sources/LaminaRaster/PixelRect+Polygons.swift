import LaminaGeometry

extension PixelRect {
    /// The rectangle `polygons` outline when they are one rectangle with its sides on pixel
    /// boundaries (four corners, or five with the first repeated, every side horizontal or
    /// vertical, every coordinate a whole number within the fast core's range); else nil.
    /// Such a shape covers the pixels inside exactly once and no others, under either rule.
    init?(pixelAlignedRectangle polygons: [[Point]]) {
        guard polygons.count == 1 else { return nil }
        var corners = polygons[0]
        if corners.count == 5 && corners[4] == corners[0] { corners.removeLast() }
        guard corners.count == 4 else { return nil }
        let limit = Double(FixedPointCoverage.maximumSide)
        for p in corners {
            guard p.x == p.x.rounded(), p.y == p.y.rounded(), abs(p.x) <= limit, abs(p.y) <= limit else { return nil }
        }
        // Each side changes exactly one coordinate, and horizontal and vertical sides take
        // turns: the corners alternate between two columns and two rows, a rectangle (never
        // a bow tie, nor a slit drawn out and back).
        for i in 0..<4 {
            let a = corners[i], b = corners[(i + 1) % 4], c = corners[(i + 2) % 4]
            guard (a.x == b.x) != (a.y == b.y), (a.y == b.y) != (b.y == c.y) else { return nil }
        }
        let xs = corners.map(\.x), ys = corners.map(\.y)
        self.init(x0: Int(xs.min()!), y0: Int(ys.min()!), x1: Int(xs.max()!), y1: Int(ys.max()!))
        guard x0 < x1, y0 < y1 else { return nil }
    }
}
