import LaminaGeometry

/// Polylines (flattened sub-paths) and the length-based operations on them that strokes use:
/// trimming to a fraction of the total length (`strokeStart` / `strokeEnd`) and dashing.
enum Polylines {
    typealias Subpath = (points: [Point], closed: Bool)

    /// The points of a sub-path as an open walk (a closed one returns to its start).
    static func walk(_ s: Subpath) -> [Point] {
        s.closed ? s.points + [s.points[0]] : s.points
    }

    static func length(_ points: [Point]) -> Double {
        zip(points, points.dropFirst()).reduce(0) { $0 + $1.0.distance(to: $1.1) }
    }

    /// The part of the sub-paths between fractions `start` and `end` of their total length
    /// (rule 61: linear in arc length across all sub-paths). A closed sub-path stays closed
    /// only when all of it is kept. `start ≥ end` keeps nothing (Lamina choice).
    static func trim(_ subpaths: [Subpath], start: Double, end: Double) -> [Subpath] {
        let s = min(max(start, 0), 1), e = min(max(end, 0), 1)
        guard s < e else { return [] }
        if s == 0 && e == 1 { return subpaths }
        let total = subpaths.reduce(0) { $0 + length(walk($1)) }
        guard total > 0 else { return s == 0 ? subpaths : [] }
        let from = s * total, to = e * total
        var result: [Subpath] = []
        var offset = 0.0
        for sub in subpaths {
            let points = walk(sub)
            let l = length(points)
            defer { offset += l }
            if offset + l < from || offset > to { continue }
            if offset >= from && offset + l <= to { result.append(sub); continue }
            let piece = range(points, from: from - offset, to: to - offset)
            if !piece.isEmpty { result.append((piece, false)) }
        }
        return result
    }

    /// The stretch of a polyline between distances `a` and `b` from its start.
    static func range(_ points: [Point], from a: Double, to b: Double) -> [Point] {
        var out: [Point] = []
        var travelled = 0.0
        for (p, q) in zip(points, points.dropFirst()) {
            let l = p.distance(to: q)
            let segStart = travelled, segEnd = travelled + l
            travelled = segEnd
            if segEnd < a || segStart > b || l == 0 { continue }
            let t0 = max(0, (a - segStart) / l), t1 = min(1, (b - segStart) / l)
            let start = p.interpolated(to: q, by: t0), end = p.interpolated(to: q, by: t1)
            if out.isEmpty || out.last != start { out.append(start) }
            out.append(end)
        }
        if out.isEmpty, let first = points.first, a == 0 { out = [first] }
        return out
    }

    /// The dashes of the sub-paths (rule 62): `pattern` alternates painted and unpainted
    /// lengths (an odd count is repeated to make it even), starting `phase` into the pattern
    /// at each sub-path's start. A pattern with no positive total, or any negative entry,
    /// draws the sub-paths solid (Lamina choice), and so does one that would cut them into
    /// more than `StrokeStyle.maximumDashes` dashes. Every dash is an open polyline (caps).
    static func dash(_ subpaths: [Subpath], pattern raw: [Double], phase: Double) -> [Subpath] {
        guard !raw.isEmpty, raw.allSatisfy({ $0 >= 0 && $0.isFinite }), raw.reduce(0, +) > 0 else { return subpaths }
        let pattern = raw.count % 2 == 1 ? raw + raw : raw
        let period = pattern.reduce(0, +)
        // Each period holds pattern.count / 2 dashes, each sub-path starts one more.
        let totalLength = subpaths.reduce(0) { $0 + length(walk($1)) }
        let dashes = (totalLength / period + 1) * Double(pattern.count / 2) + Double(subpaths.count)
        guard dashes <= Double(StrokeStyle.maximumDashes) else { return subpaths }   // also NaN and ∞
        var result: [Subpath] = []
        for sub in subpaths {
            let points = walk(sub)
            let total = length(points)
            if total == 0 {
                result.append(([points[0]], false))   // a dot keeps its cap
                continue
            }
            // Where the pattern stands at distance 0.
            var offset = phase.truncatingRemainder(dividingBy: period)
            if offset < 0 { offset += period }
            var index = 0
            while offset >= pattern[index] {
                offset -= pattern[index]
                index = (index + 1) % pattern.count
            }
            var position = -offset
            while position < total {
                let length = pattern[index]
                if index % 2 == 0 {
                    let a = max(position, 0), b = min(position + length, total)
                    if b >= a && (b > a || length == 0) { result.append((range(points, from: a, to: b), false)) }
                }
                position += length
                index = (index + 1) % pattern.count
            }
        }
        return result
    }
}
