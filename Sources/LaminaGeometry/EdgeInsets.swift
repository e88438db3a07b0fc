/// Distances inward from each edge of a rectangle, as `UIEdgeInsets`.
public struct EdgeInsets: Hashable, Sendable {
    public var top: Double
    public var left: Double
    public var bottom: Double
    public var right: Double

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
