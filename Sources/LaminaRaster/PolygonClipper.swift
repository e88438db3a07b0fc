import LaminaGeometry

/// Sutherland–Hodgman clipping of a closed polygon against an axis-aligned box.
///
/// The result has the same winding number as the input at every point inside the box (its
/// new edges run along the box's sides), which is all a fill inside the box depends on.
/// Each intersection is interpolated from the endpoint inside the box, so a vertex at 1e19
/// does not cost the crossing its precision.
enum PolygonClipper {
    typealias Box = (x0: Double, y0: Double, x1: Double, y1: Double)

    /// The polygon clipped to `box`, or nil when nothing of it is left. Every point of the
    /// result lies within the box: a crossing interpolated along the other axis can stray an
    /// ulp past it, and is clamped back.
    static func clip(_ polygon: [Point], to box: Box) -> [Point]? {
        var points = polygon
        points = clip(points, inside: { $0.x >= box.x0 }, cross: { a, b in cross(a, b, x: box.x0) })
        points = clip(points, inside: { $0.x <= box.x1 }, cross: { a, b in cross(a, b, x: box.x1) })
        points = clip(points, inside: { $0.y >= box.y0 }, cross: { a, b in cross(a, b, y: box.y0) })
        points = clip(points, inside: { $0.y <= box.y1 }, cross: { a, b in cross(a, b, y: box.y1) })
        guard points.count >= 3 else { return nil }
        return points.map { Point(x: min(max($0.x, box.x0), box.x1), y: min(max($0.y, box.y0), box.y1)) }
    }

    /// One side: keeps inside vertices and adds the crossing of every edge that crosses.
    private static func clip(_ points: [Point], inside: (Point) -> Bool, cross: (Point, Point) -> Point) -> [Point] {
        guard var previous = points.last else { return [] }
        var result: [Point] = []
        result.reserveCapacity(points.count + 4)
        var previousInside = inside(previous)
        for p in points {
            let pInside = inside(p)
            if pInside != previousInside {
                result.append(previousInside ? cross(previous, p) : cross(p, previous))
            }
            if pInside { result.append(p) }
            previous = p
            previousInside = pInside
        }
        return result
    }

    /// Where the edge from `inner` (inside) to `outer` crosses the vertical line at `x`.
    private static func cross(_ inner: Point, _ outer: Point, x: Double) -> Point {
        let t = (x - inner.x) / (outer.x - inner.x)
        return Point(x: x, y: inner.y + (outer.y - inner.y) * t)
    }

    /// Where the edge from `inner` (inside) to `outer` crosses the horizontal line at `y`.
    private static func cross(_ inner: Point, _ outer: Point, y: Double) -> Point {
        let t = (y - inner.y) / (outer.y - inner.y)
        return Point(x: inner.x + (outer.x - inner.x) * t, y: y)
    }
}
