/// How a line ends (rule 62).
public enum LineCap: String, Hashable, Sendable, CaseIterable {
    /// Ends at the end point.
    case butt
    /// A half disc of radius width/2 past the end point.
    case round
    /// A half square: extends width/2 past the end point.
    case square
}

/// How two segments meet (rule 62).
public enum LineJoin: String, Hashable, Sendable, CaseIterable {
    /// The outer edges extended until they meet, unless the miter is longer than
    /// `miterLimit · width / 2`, then bevel.
    case miter
    /// A disc sector of radius width/2.
    case round
    /// The outer corners joined by a straight line.
    case bevel
}

/// The geometry of a stroke (`CAShapeLayer` / `UIBezierPath` line styles, rule 62).
public struct StrokeStyle: Hashable, Sendable {
    /// The stroke's width.
    public var width: Double
    /// How open ends are capped.
    public var cap: LineCap
    /// How segments meet.
    public var join: LineJoin
    /// The longest miter allowed, as a ratio of miter length to line width (1 / sin(φ/2)).
    public var miterLimit: Double
    /// Painted and unpainted lengths, alternating (`lineDashPattern`); empty is solid. A
    /// pattern that would cut one stroke into more than `maximumDashes` dashes (a tiny
    /// pattern on a long path) draws it solid instead: the work and memory of a stroke stay
    /// bounded whatever the numbers (decision 117).
    public var dashPattern: [Double]
    /// The most dashes one stroke is cut into: 10,000.
    public static let maximumDashes = 10_000
    /// How far into the pattern each sub-path starts (`lineDashPhase`).
    public var dashPhase: Double
    /// The stroked range as fractions of the path's length (`strokeStart` / `strokeEnd`).
    public var start: Double
    /// Where the stroked range ends.
    public var end: Double

    /// A stroke style; the defaults are Core Animation's (1 wide, butt caps, miter joins, limit 10, solid, the whole path).
    public init(width: Double = 1, cap: LineCap = .butt, join: LineJoin = .miter, miterLimit: Double = 10,
                dashPattern: [Double] = [], dashPhase: Double = 0, start: Double = 0, end: Double = 1) {
        self.width = width
        self.cap = cap
        self.join = join
        self.miterLimit = miterLimit
        self.dashPattern = dashPattern
        self.dashPhase = dashPhase
        self.start = start
        self.end = end
    }
}
