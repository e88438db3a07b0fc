/// Distances inward from each edge of a rectangle, as `UIEdgeInsets`.
public struct EdgeInsets: Hashable, Sendable {
    /// Inset from the top edge.
    public var top: Double
    /// Inset from the left edge.
    public var left: Double
    /// Inset from the bottom edge.
    public var bottom: Double
    /// Inset from the right edge.
    public var right: Double

    /// Insets from their four edges (0 where not given).
    public init(top: Double = 0, left: Double = 0, bottom: Double = 0, right: Double = 0) {
        self.top = top
        self.left = left
        self.bottom = bottom
        self.right = right
    }

    /// The same inset on every edge.
    public init(all inset: Double) {
        self.init(top: inset, left: inset, bottom: inset, right: inset)
    }

    /// No inset.
    public static let zero = EdgeInsets()
}

extension Rect {
    /// The rectangle shrunk by `insets` (negative insets grow it), as `UIEdgeInsetsInsetRect`.
    public func inset(by insets: EdgeInsets) -> Rect {
        let s = standardized
        return Rect(x: s.origin.x + insets.left, y: s.origin.y + insets.top,
                    width: s.size.width - insets.left - insets.right,
                    height: s.size.height - insets.top - insets.bottom)
    }
}
