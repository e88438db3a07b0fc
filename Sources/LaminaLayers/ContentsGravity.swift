import LaminaGeometry

/// Where a layer's `contents` image sits in its bounds (`CALayerContentsGravity`); y grows
/// down, so `top` is the bounds' minimum y.
public enum ContentsGravity: String, Hashable, Sendable, CaseIterable {
    /// Centred at its natural size.
    case center
    /// At the top edge, centred across, at its natural size.
    case top
    /// At the bottom edge, centred across, at its natural size.
    case bottom
    /// At the left edge, centred down, at its natural size.
    case left
    /// At the right edge, centred down, at its natural size.
    case right
    /// In the top-left corner at its natural size.
    case topLeft
    /// In the top-right corner at its natural size.
    case topRight
    /// In the bottom-left corner at its natural size.
    case bottomLeft
    /// In the bottom-right corner at its natural size.
    case bottomRight
    /// Stretched to fill the bounds (the default).
    case resize
    /// Scaled to fit inside the bounds, keeping its aspect ratio.
    case resizeAspect
    /// Scaled to cover the bounds, keeping its aspect ratio (the excess spills out).
    case resizeAspectFill

    /// The rectangle the image fills inside `bounds`, for an image of `size` points.
    public func rect(for size: Size, in bounds: Rect) -> Rect {
        let w = size.width, h = size.height
        switch self {
        case .resize: return bounds
        case .resizeAspect, .resizeAspectFill:
            guard w > 0, h > 0 else { return bounds }
            let sx = bounds.width / w, sy = bounds.height / h
            let s = self == .resizeAspect ? min(sx, sy) : max(sx, sy)
            return Rect(x: bounds.midX - w * s / 2, y: bounds.midY - h * s / 2, width: w * s, height: h * s)
        default:
            let x: Double, y: Double
            switch self {
            case .left, .topLeft, .bottomLeft: x = bounds.minX
            case .right, .topRight, .bottomRight: x = bounds.maxX - w
            default: x = bounds.midX - w / 2
            }
            switch self {
            case .top, .topLeft, .topRight: y = bounds.minY
            case .bottom, .bottomLeft, .bottomRight: y = bounds.maxY - h
            default: y = bounds.midY - h / 2
            }
            return Rect(x: x, y: y, width: w, height: h)
        }
    }
}
