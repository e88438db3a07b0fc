import LaminaGeometry

extension Path {
    /// The path flattened in its own plane (z = 0) and projected through a perspective
    /// transform into device pixels. Each polygon is clipped to `w ≥ nearW` in homogeneous
    /// space before the divide, so geometry behind the eye is cut away, not mirrored.
    /// `tolerance` is in the path's own units.
    public func projected(through t: Transform3D, tolerance: Double, nearW: Double = 1e-6) -> [[Point]] {
        flattened(tolerance: tolerance).compactMap { polygon in
            let clipped = Path.clip(polygon.map { t.applyHomogeneous(x: $0.x, y: $0.y, z: 0) }, nearW: nearW)
            guard clipped.count >= 3 else { return nil }
            return clipped.map { Point(x: $0.x / $0.w, y: $0.y / $0.w) }
        }
    }

    /// Sutherland–Hodgman against the plane w = nearW.
    private static func clip(_ points: [(x: Double, y: Double, z: Double, w: Double)], nearW: Double)
        -> [(x: Double, y: Double, w: Double)]
    {
        var out: [(x: Double, y: Double, w: Double)] = []
        guard var previous = points.last else { return out }
        for current in points {
            let previousInside = previous.w >= nearW, currentInside = current.w >= nearW
            if previousInside != currentInside {
                let s = (nearW - previous.w) / (current.w - previous.w)
                out.append((previous.x + (current.x - previous.x) * s,
                            previous.y + (current.y - previous.y) * s, nearW))
            }
            if currentInside { out.append((current.x, current.y, current.w)) }
            previous = current
        }
        return out
    }
}
