#if canImport(Glibc)
import Glibc
#endif

/// A location in a two-dimensional coordinate space, in points.
///
/// Lamina's geometry is `Double` throughout, like Core Graphics on 64-bit platforms.
public struct Point: Hashable, Sendable, CustomStringConvertible {
    /// The horizontal coordinate.
    public var x: Double
    /// The vertical coordinate (down is positive on screen).
    public var y: Double

    /// The point (`x`, `y`).
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    /// The point (`x`, `y`).
    public init(_ x: Double, _ y: Double) {
        self.init(x: x, y: y)
    }

    /// The origin.
    public static let zero = Point(x: 0, y: 0)

    /// Componentwise sum.
    public static func + (a: Point, b: Point) -> Point { Point(x: a.x + b.x, y: a.y + b.y) }
    /// Componentwise difference.
    public static func - (a: Point, b: Point) -> Point { Point(x: a.x - b.x, y: a.y - b.y) }
    /// Both coordinates times `s`.
    public static func * (a: Point, s: Double) -> Point { Point(x: a.x * s, y: a.y * s) }
    /// Both coordinates times `s`.
    public static func * (s: Double, a: Point) -> Point { Point(x: a.x * s, y: a.y * s) }
    /// The point mirrored through the origin.
    public static prefix func - (a: Point) -> Point { Point(x: -a.x, y: -a.y) }

    /// The Euclidean distance to `other`.
    public func distance(to other: Point) -> Double {
        let dx = other.x - x, dy = other.y - y
        return (dx * dx + dy * dy).squareRoot()
    }

    /// Linear interpolation: `self` at `t = 0`, `other` at `t = 1`.
    public func interpolated(to other: Point, by t: Double) -> Point {
        Point(x: x + (other.x - x) * t, y: y + (other.y - y) * t)
    }

    public var description: String { "(\(x), \(y))" }
}

extension Point {
    /// The point at `angle` radians on the circle of `radius` about `center`: angles from
    /// +x, increasing clockwise on a y-down screen (as `Path.addArc` takes them).
    public init(onCircleAround center: Point, radius: Double, angle: Double) {
        self.init(x: center.x + radius * cos(angle), y: center.y + radius * sin(angle))
    }
}
