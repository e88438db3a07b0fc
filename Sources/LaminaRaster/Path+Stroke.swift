#if canImport(Glibc)
import Glibc
#endif
import LaminaGeometry

extension Path {
    /// The outline of this path stroked with `style`, as closed polygons to fill with the
    /// non-zero rule (PostScript / canvas stroke geometry, rule 62).
    ///
    /// Each sub-path is flattened to a polyline (within `tolerance`) and becomes one contour:
    /// the left offset forwards, the end cap, the right offset backwards, the start cap; a
    /// closed sub-path becomes two loops of opposite direction (the ring). Joins are added on
    /// the outer side of each corner; the inner side passes through the corner point, so the
    /// overlap there has winding ≥ 1 and fills once. A sub-path of zero length draws its cap
    /// shape (a dot for round caps, a square for square caps, nothing for butt; rule 62,
    /// Lamina choice).
    public func stroked(_ style: StrokeStyle, tolerance: Double = Path.defaultFlatteningTolerance) -> [[Point]] {
        let h = style.width / 2
        guard h > 0, h.isFinite else { return [] }
        var out: [[Point]] = []
        var subpaths = strokeSubpaths(tolerance: tolerance)
        if style.start != 0 || style.end != 1 { subpaths = Polylines.trim(subpaths, start: style.start, end: style.end) }
        if !style.dashPattern.isEmpty { subpaths = Polylines.dash(subpaths, pattern: style.dashPattern, phase: style.dashPhase) }
        let trimmedOrDashed = style.start != 0 || style.end != 1 || !style.dashPattern.isEmpty
        out.reserveCapacity(subpaths.count)
        for i in subpaths.indices {
            // Taken out of the list, so removing a duplicate point does not copy it.
            var points = subpaths[i].points
            subpaths[i].points = []
            // strokeSubpaths' points have none already; trimming and dashing may add some.
            if trimmedOrDashed { Path.removeRepeatedPoints(&points) }
            guard !points.isEmpty else { continue }
            Stroker(style: style, halfWidth: h, tolerance: tolerance)
                .outline(points, closed: subpaths[i].closed && points.count > 2, into: &out)
        }
        return out
    }

    /// Removes each point equal to the one before it, in place; an array without any (the
    /// usual case) is only read.
    static func removeRepeatedPoints(_ points: inout [Point]) {
        guard points.count > 1 else { return }
        var kept = 1
        while kept < points.count && points[kept] != points[kept - 1] { kept += 1 }
        guard kept < points.count else { return }
        for i in (kept + 1)..<points.count where points[i] != points[kept - 1] {
            points[kept] = points[i]
            kept += 1
        }
        points.removeSubrange(kept...)
    }

    /// Flattened sub-paths for stroking: consecutive duplicate points removed, with whether
    /// each was closed. A lone point is kept (count 1) for zero-length caps; the lone start
    /// point a close leaves behind is not a sub-path of its own.
    func strokeSubpaths(tolerance: Double) -> [(points: [Point], closed: Bool)] {
        var result: [(points: [Point], closed: Bool)] = []
        var subpaths = flattenedSubpaths(tolerance: tolerance)
        result.reserveCapacity(subpaths.count)
        var previous: (start: Point, closed: Bool)?
        for i in subpaths.indices {
            // Taken out of the list, so it is changed in place rather than copied.
            var points = subpaths[i].points
            subpaths[i].points = []
            let closed = subpaths[i].closed
            defer { previous = points.first.map { ($0, closed) } }
            if let previous, previous.closed, points.count == 1, !closed, points[0] == previous.start { continue }
            Path.removeRepeatedPoints(&points)
            if closed, points.count > 1, points.first == points.last { points.removeLast() }
            if !points.isEmpty { result.append((points, closed && points.count > 2)) }
        }
        return result
    }
}

/// Builds the outline of one flattened sub-path.
struct Stroker {
    let style: StrokeStyle
    let halfWidth: Double
    let tolerance: Double

    func outline(_ points: [Point], closed: Bool, into out: inout [[Point]]) {
        let h = halfWidth
        if points.count == 1 {
            let p = points[0]
            switch style.cap {
            case .butt: return
            case .square: out.append([p + Point(x: -h, y: -h), p + Point(x: h, y: -h), p + Point(x: h, y: h), p + Point(x: -h, y: h)])
            case .round:
                var dot: [Point] = []
                arc(center: p, from: Point(x: h, y: 0), sweep: 2 * .pi, into: &dot)
                out.append(dot)
            }
            return
        }
        let n = points.count
        // Each segment's direction and length, once: both sides of every vertex use them.
        let segments = closed ? n : n - 1
        var directions: [Point] = [], lengths: [Double] = []
        directions.reserveCapacity(segments)
        lengths.reserveCapacity(segments)
        for i in 0..<segments {
            let v = points[(i + 1) % n] - points[i]
            let length = (v.x * v.x + v.y * v.y).squareRoot()
            directions.append(length > 0 ? v * (1 / length) : Point(x: 1, y: 0))
            lengths.append(length)
        }
        if closed {
            var left: [Point] = [], right: [Point] = []
            left.reserveCapacity(n)
            right.reserveCapacity(n)
            for i in 0..<n {
                let before = (i + n - 1) % n
                if let m = sharedCorner(directions[before], directions[i], lengths[before], lengths[i]) {
                    left.append(points[i] + m)
                    right.append(points[i] - m)
                    continue
                }
                side(points[i], directions[before], directions[i], lengths[before], lengths[i], sign: 1, into: &left)
                side(points[i], directions[before], directions[i], lengths[before], lengths[i], sign: -1, into: &right)
            }
            out.append(left)
            out.append(right.reversed())
            return
        }
        var contour: [Point] = []
        contour.reserveCapacity(3 * n + 8)
        // Each interior vertex's shared corner, found once for both sides (nil where `side`
        // decides).
        var corners: [Point?] = []
        corners.reserveCapacity(n)
        corners.append(nil)
        for i in 1..<(n - 1) {
            corners.append(sharedCorner(directions[i - 1], directions[i], lengths[i - 1], lengths[i]))
        }
        // Left side forwards: start offset, joins at interior vertices, end offset.
        let d0 = directions[0], dn = directions[n - 2]
        contour.append(points[0] + perpendicular(d0) * h)
        for i in 1..<(n - 1) {
            if let m = corners[i] {
                contour.append(points[i] + m)
            } else {
                side(points[i], directions[i - 1], directions[i], lengths[i - 1], lengths[i], sign: 1, into: &contour)
            }
        }
        contour.append(points[n - 1] + perpendicular(dn) * h)
        cap(at: points[n - 1], direction: dn, into: &contour)
        // Right side backwards: the segments reversed.
        contour.append(points[n - 1] - perpendicular(dn) * h)
        var i = n - 2
        while i >= 1 {
            if let m = corners[i] {
                contour.append(points[i] - m)
            } else {
                side(points[i], -directions[i], -directions[i - 1], lengths[i], lengths[i - 1], sign: 1, into: &contour)
            }
            i -= 1
        }
        contour.append(points[0] - perpendicular(d0) * h)
        cap(at: points[0], direction: -d0, into: &contour)
        out.append(contour)
    }

    /// The offset from a vertex a → p → b to the point each side of it has when that is a
    /// single corner (most vertices of a flattened curve): the left side's `p + m`, the right
    /// side's `p − m`. That is when the inner side's offset lines meet within half of each
    /// segment and the outer side's join is its corner alone (a miter within its limit, a
    /// round join turning less than one chord step). Nil where `side` decides each side (a
    /// straight run, a bevel, an arc, an inner side passing through `p`). The same bits as
    /// `side` gives: the other side's normals are these negated and its turn this one's
    /// mirrored, exactly, so its corner is `p + (−n2 − n1)·k = p − m`.
    @inline(__always)
    private func sharedCorner(_ d1: Point, _ d2: Point, _ length1: Double, _ length2: Double) -> Point? {
        let h = halfWidth
        let cross = d1.x * d2.y - d1.y * d2.x
        let dot = d1.x * d2.x + d1.y * d2.y
        if abs(cross) < 1e-12 && dot > 0 { return nil }
        guard h * (1 - dot) / abs(cross) <= 0.5 * min(length1, length2) else { return nil }
        switch style.join {
        case .bevel:
            return nil
        case .miter:
            guard (2 / max(1 + dot, 1e-300)).squareRoot() <= style.miterLimit else { return nil }
        case .round:
            let q = 1 - tolerance / max(h, tolerance)
            guard dot >= 2 * q * q - 1 else { return nil }
        }
        // 1 + dot > 0 here: a reversal (dot = −1) has cross = 0, so its inner side fails above.
        return (perpendicular(d1) * h + perpendicular(d2) * h) * (1 / (1 + dot))
    }

    /// The offset points at vertex `p` on the side `sign · normal` of the path a → p → b,
    /// given the unit directions `d1` (a → p) and `d2` (p → b) and the two segments' lengths:
    /// a join on the outer side of the turn. On the inner side, the two offset lines meet at
    /// `p + (n1 + n2)/(1 + cos θ)`; that point is used when it lies within half of each
    /// segment (so neighbouring inner points cannot cross), otherwise the contour passes
    /// through `p` itself, whose overlap fills with winding 2.
    private func side(_ p: Point, _ d1: Point, _ d2: Point, _ length1: Double, _ length2: Double, sign: Double,
                      into contour: inout [Point]) {
        let h = halfWidth
        let offset: Double = sign * h
        let n1: Point = perpendicular(d1) * offset, n2: Point = perpendicular(d2) * offset
        let cross = d1.x * d2.y - d1.y * d2.x
        let turnsAway = sign * cross < 0          // this side is the outer side of the turn
        let dot = d1.x * d2.x + d1.y * d2.y
        if abs(cross) < 1e-12 && dot > 0 {        // straight on
            contour.append(p + n1)
            return
        }
        guard turnsAway else {
            let reach = h * (1 - dot) / abs(cross)                       // h · tan(θ/2)
            if reach <= 0.5 * min(length1, length2) {
                contour.append(p + (n1 + n2) * (1 / (1 + dot)))
            } else {
                contour.append(p + n1)
                contour.append(p)
                contour.append(p + n2)
            }
            return
        }
        // Where the two offset lines meet: p + n1 and p + n2 lie on the lines through it.
        let corner = p + (n1 + n2) * (1 / max(1 + dot, 1e-300))
        switch style.join {
        case .bevel:
            contour.append(p + n1)
            contour.append(p + n2)
        case .miter:
            // Miter length / width = 1 / sin(φ/2), φ the angle between the segments;
            // sin(φ/2) = √((1 − cos θ)/2) with θ the turn, cos θ = dot… so 1/sin(φ/2) = √(2/(1 + dot)).
            // Within the limit the corner alone is the join (p ± n on its lines add nothing).
            if (2 / max(1 + dot, 1e-300)).squareRoot() <= style.miterLimit {
                contour.append(corner)
            } else {
                contour.append(p + n1)
                contour.append(p + n2)
            }
        case .round:
            // A turn smaller than one chord step (cos θ = 2(1 − tol/h)² − 1: the sagitta of the
            // chord equals tol) needs no arc: its corner lies outside the arc by
            // h(1/cos(θ/2) − 1) ≤ tol / cos(θ/2), a hair over the tolerance the chord keeps
            // inside it, and is one point instead of two (a flattened curve turns a little at
            // every vertex).
            let q = 1 - tolerance / max(h, tolerance)
            if dot >= 2 * q * q - 1 {
                contour.append(corner)
                return
            }
            let angle = acos(max(-1, min(1, dot)))
            let sweep = (cross > 0 ? 1.0 : -1.0) * angle                  // normals turn with the path
            contour.append(p + n1)
            arc(center: p, from: n1, sweep: sweep, into: &contour, ends: false)
            contour.append(p + n2)
        }
    }

    /// The cap at end point `p`, leaving the path in `direction`, between the two offset
    /// points (already added: the left one before, the right one after).
    private func cap(at p: Point, direction d: Point, into contour: inout [Point]) {
        let h = halfWidth
        let n = perpendicular(d) * h
        switch style.cap {
        case .butt:
            break
        case .square:
            contour.append(p + n + d * h)
            contour.append(p - n + d * h)
        case .round:
            arc(center: p, from: n, sweep: -.pi, into: &contour, ends: false)
        }
    }

    /// Points on the circle about `center` from `center + from`, turning by `sweep` radians
    /// (positive turns +x toward +y), spaced so no chord strays more than the tolerance. The
    /// end points lie on the circle (they meet the stroke's sides); the interior points sit
    /// on one larger radius R, chosen so the fan of triangles about the centre has the
    /// circular sector's exact area: with `n` chords of angle θ, the two end triangles
    /// (r, R) and the `n − 2` others (R, R) give ½ sin θ·((n − 2)R² + 2rR) = ½ r²θ·n. So
    /// round caps, joins and dots have their true area instead of the inscribed polygon's.
    /// Appended to `points`, without its two end points when `ends` is false (a cap or join
    /// between offset points already there).
    private func arc(center: Point, from v: Point, sweep: Double, into points: inout [Point], ends: Bool = true) {
        let r = (v.x * v.x + v.y * v.y).squareRoot()
        let step = 2 * acos(max(-1, min(1, 1 - tolerance / max(r, tolerance))))
        let count = max(1, min(4096, Int(saturating: (abs(sweep) / max(step, 1e-6)).rounded(.up))))
        let theta = abs(sweep) / Double(count)
        let scaled = theta > 1e-9 && count > 1 ? r * Stroker.arcRadiusRatio(chords: count, angle: theta) : r
        let start = atan2(v.y, v.x)
        let first = ends ? 0 : 1, last = ends ? count : count - 1
        guard first <= last else { return }
        for i in first...last {
            let a = start + sweep * Double(i) / Double(count)
            let radius = i == 0 || i == count ? r : scaled
            points.append(Point(x: center.x + radius * cos(a), y: center.y + radius * sin(a)))
        }
    }

    /// R / r for `arc`: the positive root of (n − 2)x² + 2x − nθ / sin θ = 0 (n ≥ 2).
    static func arcRadiusRatio(chords n: Int, angle theta: Double) -> Double {
        let k = Double(n) * theta / sin(theta)
        guard n > 2 else { return k / 2 }
        let m = Double(n - 2)
        return ((1 + m * k).squareRoot() - 1) / m
    }

    /// The left normal (+x → +y turned a quarter).
    private func perpendicular(_ d: Point) -> Point { Point(x: -d.y, y: d.x) }
}
