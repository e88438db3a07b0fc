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
    func flattenedSubpaths(tolerance requested: Double) -> [(points: [Point], closed: Bool)] {
        let tolerance = requested.clamped(to: 1e-9...1e9, nanAs: Path.defaultFlatteningTolerance)
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
                let n = Path.segmentCount(0.25 * m / tolerance)
                for i in 1...n {
                    let t = Double(i) / Double(n), u = 1 - t
                    current.append(u * u * p0 + 2 * u * t * c + t * t * p)
                }
            case .cubic(let c1, let c2, let p):
                guard let p0 = current.last else { continue }
                let m = max(Path.length(p0 - 2 * c1 + c2), Path.length(c1 - 2 * c2 + p))
                let n = Path.segmentCount(0.75 * m / tolerance)
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

    private static func length(_ v: Point) -> Double { (v.x * v.x + v.y * v.y).squareRoot() }

    private static func segmentCount(_ squared: Double) -> Int {
        guard squared.isFinite else { return 1 }
        return max(1, min(Int(saturating: squared.squareRoot().rounded(.up)), 10_000))
    }
}
