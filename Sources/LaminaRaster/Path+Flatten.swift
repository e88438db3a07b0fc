import LaminaGeometry

extension Path {
    /// The default flattening tolerance, in device pixels: no chord of a curve's polyline
    /// strays farther than this from the curve, and once the polyline is balanced (see
    /// `flattened(tolerance:)`) no point of it does either (⁴⁄₃ of it for a curve of two
    /// chords). Cairo's default; half of Blend2D's (decision 14).
    public static let defaultFlatteningTolerance = 0.1

    /// The path as closed polygons, one per sub-path with at least two points, curves
    /// replaced by chords. The segment count of a curve comes from Wang's bound:
    /// `n = ⌈√(c · M / tolerance)⌉` with `M` the largest second difference of the control
    /// points and `c` = 1/4 (quadratic) or 3/4 (cubic), which keeps every chord within
    /// `tolerance` of the curve.
    ///
    /// The polyline is balanced: a chord lies inside a convex stretch of curve, so a polygon
    /// through points on the curve loses area everywhere (about ⅔ of the sagitta times the
    /// length). Each point inside a curve is moved out by that mean loss, a twelfth of the
    /// curve's second difference there: `P′ᵢ = Pᵢ − wᵢ·(Pᵢ₋₁ − 2Pᵢ + Pᵢ₊₁)/12`, which is
    /// `wᵢ·h²·B″(tᵢ)/12` for the parameter step `h`, exact for these polynomials. A curve's
    /// end points stay on it, so corners and joins are exact; the chord beside one then has
    /// only its inner end moved, so the points next to the ends take half as much again
    /// (`wᵢ` = 1, 1½ next to one end, 2 next to both), and the polygon's area is the
    /// curve's to the second order. No point strays farther than the tolerance (⁴⁄₃ of it
    /// for a curve of two chords).
    public func flattened(tolerance: Double = Path.defaultFlatteningTolerance) -> [[Point]] {
        flattenedSubpaths(tolerance: tolerance).compactMap { $0.points.count >= 2 ? $0.points : nil }
    }

    /// Every sub-path flattened, with whether it ended in a close; a sub-path of a lone
    /// point is kept (strokes draw caps there). After a close the next segment starts at the
    /// sub-path's start.
    /// A tolerance that is not a positive number (a stroke under an infinite or NaN scale)
    /// is clamped into 10⁻⁹…10⁹ px, NaN to the default (decision 86).
    /// A whole path is cut into at most about `maximumFlattenedPoints` points: past that
    /// (huge curves, a path scaled far beyond the screen) every curve gets proportionally
    /// fewer chords, so the work and memory of one path stay bounded (decision 117).
    ///
    /// With `chordsOutside`, a curve whose control points all lie on one side of that
    /// rectangle (above, below, left or right of it) becomes its chord: for a fill seen only
    /// inside the rectangle, less a margin for how far the polyline strays (`fillPolygons`).
    func flattenedSubpaths(tolerance requested: Double, chordsOutside: Rect? = nil) -> [(points: [Point], closed: Bool)] {
        let tolerance = requested.clamped(to: 1e-9...1e9, nanAs: Path.defaultFlatteningTolerance)
        let estimate = flattenedPointCount(tolerance: tolerance)
        let share = estimate > Path.maximumFlattenedPoints ? Double(Path.maximumFlattenedPoints) / Double(estimate) : 1
        func chords(_ n: Int) -> Int { Path.scaled(chords: n, share: share) }
        // A path that is one sub-path (a move first, no other, a close only at the end: a
        // circle, a rounded rectangle, one curve to stroke) needs the estimate's room, at most
        // the cap plus a chord per element, without counting it again.
        var isOneSubpath = false
        if case .move? = elements.first {
            isOneSubpath = true
            for (index, e) in elements.enumerated().dropFirst() {
                switch e {
                case .move: isOneSubpath = false
                case .close: if index != elements.count - 1 { isOneSubpath = false }
                default: continue
                }
                if !isOneSubpath { break }
            }
        }
        var result: [(points: [Point], closed: Bool)] = []
        var current: [Point] = []
        func finish(closed: Bool) {
            if !current.isEmpty { result.append((current, closed)) }
            current = []
        }
        for (index, e) in elements.enumerated() {
            switch e {
            case .move(let p):
                finish(closed: false)
                // Room for the whole sub-path at once: grown by appending, a curve's points
                // were copied about log₂ n times (a tenth of a stroke's geometry).
                current.reserveCapacity(isOneSubpath
                    ? min(estimate, Path.maximumFlattenedPoints + elements.count)
                    : 1 + pointCount(after: index, from: p, tolerance: tolerance, share: share))
                current.append(p)
            case .line(let p):
                current.append(p)
            case .quad(let c, let p):
                guard let p0 = current.last else { continue }
                if let r = chordsOutside, Path.lieOutside(r, p0, c, p, p) {
                    current.append(p)
                    continue
                }
                let n = chords(Path.quadChords(p0, c, p, tolerance: tolerance))
                // B″ = 2(p0 − 2c + p) everywhere: h²·B″/12 with h = 1/n.
                let balance = (1 / (6 * Double(n) * Double(n))) * (p0 - 2 * c + p)
                for i in 1...n {
                    let t = Double(i) / Double(n), u = 1 - t
                    let point = u * u * p0 + 2 * u * t * c + t * t * p
                    current.append(point - Path.balanceWeight(i, of: n) * balance)
                }
            case .cubic(let c1, let c2, let p):
                guard let p0 = current.last else { continue }
                if let r = chordsOutside, Path.lieOutside(r, p0, c1, c2, p) {
                    current.append(p)
                    continue
                }
                let first = p0 - 2 * c1 + c2, second = c1 - 2 * c2 + p
                let n = chords(Path.cubicChords(p0, c1, c2, p, tolerance: tolerance))
                // B″(t) = 6((1 − t)·first + t·second); h²·B″/12 with h = 1/n.
                let scale = 1 / (2 * Double(n) * Double(n))
                for i in 1...n {
                    let t = Double(i) / Double(n), u = 1 - t
                    let a = u * u * u, b = 3 * u * u * t, c = 3 * u * t * t, d = t * t * t
                    let point = a * p0 + b * c1 + c * c2 + d * p
                    current.append(point - (Path.balanceWeight(i, of: n) * scale) * (u * first + t * second))
                }
            case .close:
                let start = current.first
                finish(closed: true)
                if let start {
                    current.reserveCapacity(1 + pointCount(after: index, from: start, tolerance: tolerance, share: share))
                    current.append(start)
                }
            }
        }
        finish(closed: false)
        return result
    }

    /// How many points the elements after `index` add up to the next move or close, from
    /// `start`: the chords `flattenedSubpaths` cuts them into, each curve's count scaled by
    /// `share` as there (at most; a curve off the clip is one chord). Room to reserve, so the
    /// sub-paths together reserve no more than the path flattens into (decision 117's bound).
    private func pointCount(after index: Int, from start: Point, tolerance: Double, share: Double) -> Int {
        func chords(_ n: Int) -> Int { Path.scaled(chords: n, share: share) }
        var count = 0
        var current = start
        for e in elements[(index + 1)...] {
            switch e {
            case .move, .close:
                return count
            case .line(let p):
                count += 1
                current = p
            case .quad(let c, let p):
                count += chords(Path.quadChords(current, c, p, tolerance: tolerance))
                current = p
            case .cubic(let c1, let c2, let p):
                count += chords(Path.cubicChords(current, c1, c2, p, tolerance: tolerance))
                current = p
            }
            if count > Path.maximumFlattenedPoints { return Path.maximumFlattenedPoints }
        }
        return count
    }

    /// A curve's `chords` when a path too big for `maximumFlattenedPoints` gives each curve
    /// `share` of its count, at least one (decision 117).
    private static func scaled(chords n: Int, share: Double) -> Int {
        share == 1 ? n : max(1, Int(Double(n) * share))
    }

    /// Wang's chord count for a quadratic (n = ⌈√(M / 4 tolerance)⌉, M = |p0 − 2c + p|).
    private static func quadChords(_ p0: Point, _ c: Point, _ p: Point, tolerance: Double) -> Int {
        segmentCount(0.25 * length(p0 - 2 * c + p) / tolerance)
    }

    /// Wang's chord count for a cubic (n = ⌈√(3M / 4 tolerance)⌉, M the larger second difference).
    private static func cubicChords(_ p0: Point, _ c1: Point, _ c2: Point, _ p: Point, tolerance: Double) -> Int {
        segmentCount(0.75 * max(length(p0 - 2 * c1 + c2), length(c1 - 2 * c2 + p)) / tolerance)
    }

    /// The polygons a fill seen only inside `clip` needs (device pixels; flattened as
    /// `flattened(tolerance:)`): a curve wholly above, below, left or right of it (by a
    /// margin of two pixels and twice the tolerance) is its chord, which fills every pixel
    /// inside the same. Rows are filled apart, so what lies above or below reaches no pixel
    /// inside, nor what lies right of it (coverage adds up from the left). Left of it, a
    /// curve and its chord cross every row between their ends alike (a continuous curve
    /// from one end to the other crosses each height as often, up minus down, as the chord),
    /// and the exact-area cells of one row add up to its signed height there: the coverage
    /// summed up to a pixel inside is the same. The polyline of a curve strays at most ⁴⁄₃
    /// of the tolerance outside its control points' box, and a deposit goes one cell to its
    /// right: the margin covers both. (A band of a split frame and a damage region, the
    /// canvas's clips, then flatten and set up only the curves that reach them.)
    public func fillPolygons(tolerance: Double = Path.defaultFlatteningTolerance, inside clip: Rect) -> [[Point]] {
        let margin = 2 + 2 * tolerance.clamped(to: 1e-9...1e9, nanAs: Path.defaultFlatteningTolerance)
        return flattenedSubpaths(tolerance: tolerance, chordsOutside: clip.insetBy(dx: -margin, dy: -margin))
            .compactMap { $0.points.count >= 2 ? $0.points : nil }
    }

    /// True when `a`…`d` all lie on one side of `r`: above, below, left or right of it.
    private static func lieOutside(_ r: Rect, _ a: Point, _ b: Point, _ c: Point, _ d: Point) -> Bool {
        let box = Path.box(a, b, c, d)
        return box.maxY < r.minY || box.minY > r.maxY || box.maxX < r.minX || box.minX > r.maxX
    }

    /// The box of four points (a segment's: a line or quadratic repeats its last point).
    static func box(_ a: Point, _ b: Point, _ c: Point, _ d: Point) -> Rect {
        let minX = min(a.x, b.x, c.x, d.x), maxX = max(a.x, b.x, c.x, d.x)
        let minY = min(a.y, b.y, c.y, d.y), maxY = max(a.y, b.y, c.y, d.y)
        return Rect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    }

    /// The most points one path is flattened into: 16,384 — a circle of 1,000 px radius
    /// needs about 1,100 at the default tolerance, so only geometry far off any screen (or
    /// scaled and projected there) is cut coarser.
    public static let maximumFlattenedPoints = 16_384

    /// How many points `flattened(tolerance:)` makes of this path, counted without making
    /// them (saturating): the cost a scene file's shape is charged.
    public func flattenedPointCount(tolerance requested: Double = Path.defaultFlatteningTolerance) -> Int {
        let tolerance = requested.clamped(to: 1e-9...1e9, nanAs: Path.defaultFlatteningTolerance)
        var count = 0
        var current: Point?
        var start: Point?
        for e in elements {
            switch e {
            case .move(let p):
                count &+= 1
                current = p
                start = p
            case .line(let p):
                count &+= 1
                current = p
            case .quad(let c, let p):
                guard let p0 = current else { continue }
                count &+= Path.quadChords(p0, c, p, tolerance: tolerance)
                current = p
            case .cubic(let c1, let c2, let p):
                guard let p0 = current else { continue }
                count &+= Path.cubicChords(p0, c1, c2, p, tolerance: tolerance)
                current = p
            case .close:
                current = start
            }
            if count < 0 { return Int.max }
        }
        return count
    }

    /// How much of its balancing move point `i` of a curve cut into `n` chords takes: none
    /// at the ends, 1½ next to one end, 2 next to both (`n` = 2), 1 elsewhere.
    private static func balanceWeight(_ i: Int, of n: Int) -> Double {
        guard i > 0, i < n else { return 0 }
        return 1 + (i == 1 ? 0.5 : 0) + (i == n - 1 ? 0.5 : 0)
    }

    private static func length(_ v: Point) -> Double { (v.x * v.x + v.y * v.y).squareRoot() }

    private static func segmentCount(_ squared: Double) -> Int {
        guard squared.isFinite else { return 1 }
        return max(1, min(Int(saturating: squared.squareRoot().rounded(.up)), 10_000))
    }
}
