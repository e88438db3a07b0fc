/// A width and a height, in points.
public struct Size: Hashable, Sendable, CustomStringConvertible {
    /// The horizontal extent.
    public var width: Double
    /// The vertical extent.
    public var height: Double

    /// A size of `width` by `height`.
    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    /// A size of `width` by `height`.
    public init(_ width: Double, _ height: Double) {
        self.init(width: width, height: height)
    }

    /// No extent.
    public static let zero = Size(width: 0, height: 0)

    public var description: String { "\(width)x\(height)" }
}
