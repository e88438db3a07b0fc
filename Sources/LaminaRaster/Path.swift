import LaminaGeometry

/// A vector path of sub-paths built from move, line, quadratic, cubic and close elements,
/// as `CGPath` / `UIBezierPath` (without their drawing state).
///
/// Paths are values: building one never affects a copy. Fill operations close open
/// sub-paths implicitly.
public struct Path: Hashable, Sendable {
    /// One element of a path.
    public enum Element: Hashable, Sendable {
        /// Starts a new sub-path at a point.
        case move(to: Point)
        /// A straight line to a point.
        case line(to: Point)
        /// A quadratic Bézier curve through one control point.
        case quad(control: Point, to: Point)
        /// A cubic Bézier curve through two control points.
        case cubic(control1: Point, control2: Point, to: Point)
        /// Closes the sub-path with a line back to its start.
        case close
    }

    /// The path's elements in order.
    public private(set) var elements: [Element] = []
    /// The current point (nil before the first move).
    public private(set) var currentPoint: Point?
    private var subpathStart: Point?

    /// An empty path.
    public init() {}

    /// A path of `elements`.
    public init(elements: [Element]) {
        for e in elements { append(e) }
    }

    /// True when the path has no elements.
    public var isEmpty: Bool { elements.isEmpty }

    /// Appends `element` as it is.
    public mutating func append(_ element: Element) {
        switch element {
        case .move(let p): move(to: p)
        case .line(let p): line(to: p)
        case .quad(let c, let p): quad(to: p, control: c)
        case .cubic(let c1, let c2, let p): cubic(to: p, control1: c1, control2: c2)
        case .close: close()
        }
    }

    /// Starts a new sub-path at `p`.
    public mutating func move(to p: Point) {
        elements.append(.move(to: p))
        currentPoint = p
        subpathStart = p
    }

    /// A straight segment to `p` (starts a sub-path at `p` when there is no current point).
    public mutating func line(to p: Point) {
        guard currentPoint != nil else { return move(to: p) }
        elements.append(.line(to: p))
        currentPoint = p
    }

    /// A quadratic Bézier to `p` with control point `control` (`addQuadCurve(to:controlPoint:)`).
    public mutating func quad(to p: Point, control: Point) {
        if currentPoint == nil { move(to: control) }
        elements.append(.quad(control: control, to: p))
        currentPoint = p
    }

    /// A cubic Bézier to `p` (`addCurve(to:controlPoint1:controlPoint2:)`).
    public mutating func cubic(to p: Point, control1: Point, control2: Point) {
        if currentPoint == nil { move(to: control1) }
        elements.append(.cubic(control1: control1, control2: control2, to: p))
        currentPoint = p
    }

    /// Closes the sub-path with a segment back to its start; the current point moves there.
    public mutating func close() {
        guard let start = subpathStart, currentPoint != nil else { return }
        if case .close? = elements.last { return }
        elements.append(.close)
        currentPoint = start
    }

    /// The path of a rectangle, clockwise on screen (y down) from its top-left corner.
    public init(rect r: Rect) {
        let s = r.standardized
        move(to: Point(x: s.minX, y: s.minY))
        line(to: Point(x: s.maxX, y: s.minY))
        line(to: Point(x: s.maxX, y: s.maxY))
        line(to: Point(x: s.minX, y: s.maxY))
        close()
    }

    /// The rectangle this path is, when it is one closed axis-aligned rectangle as
    /// `init(rect:)` makes it (four corners from the top left, clockwise); nil otherwise.
    /// Clipping to it needs no coverage mask where it lands on whole pixels.
    public var rectangle: Rect? {
        guard elements.count == 5, case .move(let a) = elements[0], case .line(let b) = elements[1],
              case .line(let c) = elements[2], case .line(let d) = elements[3], case .close = elements[4],
              a.y == b.y, b.x == c.x, c.y == d.y, d.x == a.x, a.x <= b.x, a.y <= d.y else { return nil }
        return Rect(x: a.x, y: a.y, width: b.x - a.x, height: d.y - a.y)
    }

    /// The ellipse inscribed in `r`: four cubic quarter arcs with κ = 4(√2 − 1)/3, starting
    /// at (maxX, midY) and running in increasing-angle order (rule 65).
    public init(ovalIn r: Rect) {
        let s = r.standardized
        let kappa = 4 * (2.0.squareRoot() - 1) / 3
        let rx = s.width / 2, ry = s.height / 2, cx = s.midX, cy = s.midY
        let kx = rx * kappa, ky = ry * kappa
        move(to: Point(x: cx + rx, y: cy))
        cubic(to: Point(x: cx, y: cy + ry), control1: Point(x: cx + rx, y: cy + ky),
              control2: Point(x: cx + kx, y: cy + ry))
        cubic(to: Point(x: cx - rx, y: cy), control1: Point(x: cx - kx, y: cy + ry),
              control2: Point(x: cx - rx, y: cy + ky))
        cubic(to: Point(x: cx, y: cy - ry), control1: Point(x: cx - rx, y: cy - ky),
              control2: Point(x: cx - kx, y: cy - ry))
        cubic(to: Point(x: cx + rx, y: cy), control1: Point(x: cx + kx, y: cy - ry),
              control2: Point(x: cx + rx, y: cy - ky))
        close()
    }

    /// The path with every point mapped through `t` (Béziers stay Béziers under affine maps).
    public func applying(_ t: AffineTransform) -> Path {
        Path(elements: elements.map { e in
            switch e {
            case .move(let p): return .move(to: t.apply(to: p))
            case .line(let p): return .line(to: t.apply(to: p))
            case .quad(let c, let p): return .quad(control: t.apply(to: c), to: t.apply(to: p))
            case .cubic(let c1, let c2, let p):
                return .cubic(control1: t.apply(to: c1), control2: t.apply(to: c2), to: t.apply(to: p))
            case .close: return .close
            }
        })
    }

    /// The bounding box of every point and control point (contains the path's geometry;
    /// may be larger than its tight bounds).
    public var controlPointBounds: Rect {
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        func add(_ p: Point) {
            minX = min(minX, p.x); maxX = max(maxX, p.x)
            minY = min(minY, p.y); maxY = max(maxY, p.y)
        }
        var any = false
        for e in elements {
            switch e {
            case .move(let p), .line(let p): add(p); any = true
            case .quad(let c, let p): add(c); add(p); any = true
            case .cubic(let c1, let c2, let p): add(c1); add(c2); add(p); any = true
            case .close: break
            }
        }
        return any ? Rect(x: minX, y: minY, width: maxX - minX, height: maxY - minY) : .zero
    }
}
