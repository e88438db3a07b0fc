import LaminaGeometry

/// A rectangle of device pixels, half-open: columns `x0..<x1`, rows `y0..<y1`. The one type
/// for damage, clips, dirty regions and device boxes.
public struct PixelRect: Hashable, Sendable, CustomStringConvertible {
    /// The left edge (included).
    public var x0: Int
    /// The top edge (included).
    public var y0: Int
    /// The right edge (excluded).
    public var x1: Int
    /// The bottom edge (excluded).
    public var y1: Int

    /// The pixels from (`x0`, `y0`) up to but not including (`x1`, `y1`).
    public init(x0: Int, y0: Int, x1: Int, y1: Int) {
        self.x0 = x0
        self.y0 = y0
        self.x1 = x1
        self.y1 = y1
    }

    /// The whole of a `width` x `height` buffer.
    public init(width: Int, height: Int) {
        self.init(x0: 0, y0: 0, x1: width, y1: height)
    }

    /// True when it holds no pixel.
    public var isEmpty: Bool { x0 >= x1 || y0 >= y1 }
    /// Columns covered (0 when empty or inverted).
    public var width: Int { max(0, x1 - x0) }
    /// Rows covered (0 when empty or inverted).
    public var height: Int { max(0, y1 - y0) }
    /// Pixels covered (0 when empty).
    public var area: Int { width * height }

    /// The smallest rectangle holding both (an empty one adds nothing).
    public func union(_ other: PixelRect) -> PixelRect {
        if other.isEmpty { return self }
        if isEmpty { return other }
        return PixelRect(x0: min(x0, other.x0), y0: min(y0, other.y0), x1: max(x1, other.x1), y1: max(y1, other.y1))
    }

    /// The part inside `other` (possibly empty).
    public func intersection(_ other: PixelRect) -> PixelRect {
        PixelRect(x0: max(x0, other.x0), y0: max(y0, other.y0), x1: min(x1, other.x1), y1: min(y1, other.y1))
    }

    /// The pixels not in `other`, as at most four disjoint rectangles: the columns left and
    /// right of it whole, then the rows above and below it in its columns (so what lies above
    /// or below it, such as a label on a card, joins those rows without reaching the sides).
    public func subtracting(_ other: PixelRect) -> [PixelRect] {
        let cut = intersection(other)
        guard !isEmpty else { return [] }
        guard !cut.isEmpty else { return [self] }
        let pieces = [PixelRect(x0: x0, y0: y0, x1: cut.x0, y1: y1), PixelRect(x0: cut.x1, y0: y0, x1: x1, y1: y1),
                      PixelRect(x0: cut.x0, y0: y0, x1: cut.x1, y1: cut.y0), PixelRect(x0: cut.x0, y0: cut.y1, x1: cut.x1, y1: y1)]
        return pieces.filter { !$0.isEmpty }
    }

    public var description: String { "(\(x0), \(y0))–(\(x1), \(y1))" }
}

extension Rect {
    /// The rectangle `pixels` covers, in pixel units (a clip or a damage region as geometry).
    public init(_ pixels: PixelRect) {
        self.init(x: Double(pixels.x0), y: Double(pixels.y0), width: Double(pixels.width), height: Double(pixels.height))
    }
}
