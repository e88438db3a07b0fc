import LaminaGeometry
import LaminaRaster

/// Draws a presentation tree into a canvas: each layer's background over its bounds, then
/// its own content (a shape layer's fill), then its sublayers back to front (rule 54, 61).
///
/// Opacity multiplies down the subtree per drawn shape; group opacity (one offscreen per
/// translucent subtree) arrives with the full renderer. Non-affine transforms are drawn by
/// projecting the flattened geometry with clipping at w ≤ 0.
public final class Renderer {
    /// Curves are flattened to within this many device pixels.
    public var flatteningTolerance = Path.defaultFlatteningTolerance

    public init() {}

    /// Clears the canvas to `background` and draws `root` and its subtree.
    public func render(_ root: Layer, into canvas: Canvas, background: Color) {
        canvas.clear(background)
        draw(root, parent: .identity, opacity: 1, canvas: canvas)
    }

    private func draw(_ layer: Layer, parent: Transform3D, opacity inherited: Double, canvas: Canvas) {
        guard !layer.isHidden else { return }
        let opacity = inherited * min(max(layer.opacity, 0), 1)
        guard opacity > 0 else { return }
        let toDevice = layer.transformToSuperlayer().concatenating(parent)
        if let background = layer.backgroundColor {
            fill(Path(rect: layer.bounds), color: background.multiplyingAlpha(by: opacity),
                 rule: .nonZero, transform: toDevice, canvas: canvas)
        }
        if let shape = layer as? ShapeLayer, let path = shape.path, let color = shape.fillColor {
            fill(path, color: color.multiplyingAlpha(by: opacity), rule: shape.fillRule,
                 transform: toDevice, canvas: canvas)
        }
        for child in layer.sublayersInDrawingOrder {
            draw(child, parent: toDevice, opacity: opacity, canvas: canvas)
        }
    }

    private func fill(_ path: Path, color: Color, rule: FillRule, transform: Transform3D, canvas: Canvas) {
        if transform.isAffine {
            canvas.fill(path, color: color, rule: rule, transform: transform.affineTransform)
        } else {
            // Tolerance in layer units: divide by the largest linear scale near the origin.
            let scale = max(abs(transform.m11) + abs(transform.m21), abs(transform.m12) + abs(transform.m22), 1e-9)
            let polygons = path.projected(through: transform, tolerance: flatteningTolerance / scale)
            canvas.fill(polygons: polygons, color: color, rule: rule)
        }
    }
}
