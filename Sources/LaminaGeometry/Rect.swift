/// An axis-aligned rectangle: an origin and a size, in points.
///
/// As in Core Graphics, a rectangle with a negative width or height is valid and
/// `standardized` flips it; `minX`/`maxX` always give the true extremes.
public struct Rect: Hashable, Sendable, CustomStringConvertible {
    /// The corner the size is measured from (the top-left for a positive size).
    public var origin: Point
    /// The extent; a negative width or height extends left or up.
    public var size: Size

    /// A rectangle from its origin and size.
    public init(origin: Point, size: Size) {
        self.origin = origin
        self.size = size
    }

    /// A rectangle from its origin's coordinates and its size.
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.init(origin: Point(x: x, y: y), size: Size(width: width, height: height))
    }

    /// The empty rectangle at the origin.
    public static let zero = Rect(x: 0, y: 0, width: 0, height: 0)

    /// The smallest x inside, whatever the size's sign.
    public var minX: Double { min(origin.x, origin.x + size.width) }
    /// The largest x.
    public var maxX: Double { max(origin.x, origin.x + size.width) }
    /// The smallest y.
    public var minY: Double { min(origin.y, origin.y + size.height) }
    /// The largest y.
    public var maxY: Double { max(origin.y, origin.y + size.height) }
    /// The x of the middle.
    public var midX: Double { origin.x + size.width / 2 }
    /// The y of the middle.
    public var midY: Double { origin.y + size.height / 2 }
    /// The width, never negative.
    public var width: Double { abs(size.width) }
    /// The height, never negative.
    public var height: Double { abs(size.height) }
    /// The middle point.
    public var center: Point { Point(x: midX, y: midY) }

    /// The same rectangle with a non-negative width and height.
    public var standardized: Rect {
        Rect(x: minX, y: minY, width: width, height: height)
    }

    /// True when the rectangle has no area.
    public var isEmpty: Bool { size.width == 0 || size.height == 0 }

    /// Half-open containment, as `CGRect.contains`: `minX ≤ x < maxX`, same for y.
    public func contains(_ p: Point) -> Bool {
        p.x >= minX && p.x < maxX && p.y >= minY && p.y < maxY
    }

    /// The rectangle moved inward by `dx` on the left and right and `dy` on top and bottom.
    public func insetBy(dx: Double, dy: Double) -> Rect {
        let s = standardized
        return Rect(x: s.origin.x + dx, y: s.origin.y + dy,
                    width: s.size.width - 2 * dx, height: s.size.height - 2 * dy)
    }

    /// The rectangle moved by (`dx`, `dy`).
    public func offsetBy(dx: Double, dy: Double) -> Rect {
        Rect(origin: Point(x: origin.x + dx, y: origin.y + dy), size: size)
    }

    /// The smallest rectangle containing both (an empty rectangle is ignored).
    public func union(_ other: Rect) -> Rect {
        if isEmpty { return other.standardized }
        if other.isEmpty { return standardized }
        let x0 = min(minX, other.minX), y0 = min(minY, other.minY)
        let x1 = max(maxX, other.maxX), y1 = max(maxY, other.maxY)
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// The overlap of both, or nil when they do not overlap.
    public func intersection(_ other: Rect) -> Rect? {
        let x0 = max(minX, other.minX), y0 = max(minY, other.minY)
        let x1 = min(maxX, other.maxX), y1 = min(maxY, other.maxY)
        guard x1 > x0, y1 > y0 else { return nil }
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// The bounding box of a set of points (zero for none).
    public static func boundingBox<S: Sequence>(of points: S) -> Rect where S.Element == Point {
        var it = points.makeIterator()
        guard let first = it.next() else { return .zero }
        var x0 = first.x, x1 = first.x, y0 = first.y, y1 = first.y
        while let p = it.next() {
            x0 = min(x0, p.x); x1 = max(x1, p.x)
            y0 = min(y0, p.y); y1 = max(y1, p.y)
        }
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    public var description: String { "(\(origin.x), \(origin.y), \(size.width), \(size.height))" }
}
