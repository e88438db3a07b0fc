import LaminaGeometry

extension Path {
    /// The default flattening tolerance, in device pixels: no point of a curve is farther
    /// than this from the polyline that replaces it. At 0.01 px the area lost by
    /// flattening is under 0.1 % for circles of radius 10 px and more.
    public static let defaultFlatteningTolerance = 0.01

    /// The path as closed polygons, one per sub-path with at least two points, curves
    /// replaced by chords. The segment count of a curve comes from Wang's bound:
    /// `n = ⌈√(c · M / tolerance)⌉` with `M` the largest second difference of the control
    /// points and `c` = 1/4 (quadratic) or 3/4 (cubic), which keeps every chord within
    /// `tolerance` of the curve.
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
    func flattenedSubpaths(tolerance requested: Double) -> [(points: [Point], closed: Bool)] {
        let tolerance = requested.clamped(to: 1e-9...1e9, nanAs: Path.defaultFlatteningTolerance)
        let estimate = flattenedPointCount(tolerance: tolerance)
        let share = estimate > Path.maximumFlattenedPoints ? Double(Path.maximumFlattenedPoints) / Double(estimate) : 1
        func chords(_ n: Int) -> Int { share == 1 ? n : max(1, Int(Double(n) * share)) }
        var result: [(points: [Point], closed: Bool)] = []
        var current: [Point] = []
        func finish(closed: Bool) {
            if !current.isEmpty { result.append((current, closed)) }
            current = []
        }
        for e in elements {
            switch e {
            case .move(let p):
                finish(closed: false)
                current = [p]
            case .line(let p):
                current.append(p)
            case .quad(let c, let p):
                guard let p0 = current.last else { continue }
                let m = Path.length(p0 - 2 * c + p)
                let n = chords(Path.segmentCount(0.25 * m / tolerance))
                for i in 1...n {
                    let t = Double(i) / Double(n), u = 1 - t
                    current.append(u * u * p0 + 2 * u * t * c + t * t * p)
                }
            case .cubic(let c1, let c2, let p):
                guard let p0 = current.last else { continue }
                let m = max(Path.length(p0 - 2 * c1 + c2), Path.length(c1 - 2 * c2 + p))
                let n = chords(Path.segmentCount(0.75 * m / tolerance))
                for i in 1...n {
                    let t = Double(i) / Double(n), u = 1 - t
                    let a = u * u * u, b = 3 * u * u * t, c = 3 * u * t * t, d = t * t * t
                    current.append(a * p0 + b * c1 + c * c2 + d * p)
                }
            case .close:
                let start = current.first
                finish(closed: true)
                if let start { current = [start] }
            }
        }
        finish(closed: false)
        return result
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
                count &+= Path.segmentCount(0.25 * Path.length(p0 - 2 * c + p) / tolerance)
                current = p
            case .cubic(let c1, let c2, let p):
                guard let p0 = current else { continue }
                let m = max(Path.length(p0 - 2 * c1 + c2), Path.length(c1 - 2 * c2 + p))
                count &+= Path.segmentCount(0.75 * m / tolerance)
                current = p
            case .close:
                current = start
            }
            if count < 0 { return Int.max }
        }
        return count
    }

    private static func length(_ v: Point) -> Double { (v.x * v.x + v.y * v.y).squareRoot() }

    private static func segmentCount(_ squared: Double) -> Int {
        guard squared.isFinite else { return 1 }
        return max(1, min(Int(saturating: squared.squareRoot().rounded(.up)), 10_000))
    }
}
