import LaminaAnimation
import LaminaGeometry
import LaminaRaster

/// A layer that draws a vector path (`CAShapeLayer`): the fill, then the stroke centred on
/// the path, in the layer's bounds space, between the background and the sublayers
/// (rules 60–62).
open class ShapeLayer: Layer {
    struct ShapeProperties: Hashable {
        var path: Path?
        var fillColor: Color? = .black
        var fillRule: FillRule = .nonZero
        var strokeColor: Color?
        var lineWidth = 1.0
        var miterLimit = 10.0
        var lineCap: LineCap = .butt
        var lineJoin: LineJoin = .miter
        var lineDashPattern: [Double] = []
        var lineDashPhase = 0.0
        var strokeStart = 0.0
        var strokeEnd = 1.0
    }

    var shape = ShapeProperties()

    /// A shape layer with no path.
    public override init() { super.init() }

    /// The shape, in the layer's bounds space; nil draws nothing.
    public var path: Path? {
        get { shape.path }
        set { mutateShape("path") { $0.path = newValue } }
    }

    /// The fill colour; opaque black by default, nil for no fill.
    public var fillColor: Color? {
        get { shape.fillColor }
        set { mutateShape("fillColor") { $0.fillColor = newValue } }
    }

    /// Non-zero (default) or even-odd.
    public var fillRule: FillRule {
        get { shape.fillRule }
        set { mutateShape("fillRule") { $0.fillRule = newValue } }
    }

    /// The stroke colour; nil (the default) strokes nothing.
    public var strokeColor: Color? {
        get { shape.strokeColor }
        set { mutateShape("strokeColor") { $0.strokeColor = newValue } }
    }

    /// Stroke width in the layer's units (1 by default).
    public var lineWidth: Double {
        get { shape.lineWidth }
        set { mutateShape("lineWidth") { $0.lineWidth = newValue } }
    }

    /// Miter joins longer than this many half widths become bevels (10 by default).
    public var miterLimit: Double {
        get { shape.miterLimit }
        set { mutateShape("miterLimit") { $0.miterLimit = newValue } }
    }

    /// How open ends are capped (butt by default).
    public var lineCap: LineCap {
        get { shape.lineCap }
        set { mutateShape("lineCap") { $0.lineCap = newValue } }
    }

    /// How segments meet (miter by default).
    public var lineJoin: LineJoin {
        get { shape.lineJoin }
        set { mutateShape("lineJoin") { $0.lineJoin = newValue } }
    }

    /// Painted and unpainted lengths, alternating; empty strokes solid.
    public var lineDashPattern: [Double] {
        get { shape.lineDashPattern }
        set { mutateShape("lineDashPattern") { $0.lineDashPattern = newValue } }
    }

    /// Offset into the dash pattern at each sub-path's start.
    public var lineDashPhase: Double {
        get { shape.lineDashPhase }
        set { mutateShape("lineDashPhase") { $0.lineDashPhase = newValue } }
    }

    /// Where the stroke starts, as a fraction of the path's length (0 by default).
    public var strokeStart: Double {
        get { shape.strokeStart }
        set { mutateShape("strokeStart") { $0.strokeStart = newValue } }
    }

    /// Where the stroke ends, as a fraction of the path's length (1 by default).
    public var strokeEnd: Double {
        get { shape.strokeEnd }
        set { mutateShape("strokeEnd") { $0.strokeEnd = newValue } }
    }

    /// The stroke as the rasterizer takes it.
    public var strokeStyle: StrokeStyle {
        StrokeStyle(width: shape.lineWidth, cap: shape.lineCap, join: shape.lineJoin, miterLimit: shape.miterLimit,
                    dashPattern: shape.lineDashPattern, dashPhase: shape.lineDashPhase,
                    start: shape.strokeStart, end: shape.strokeEnd)
    }

    private func mutateShape(_ key: String, _ change: (inout ShapeProperties) -> Void) {
        changeProperty(key) { change(&shape) }
    }

    open override func makePresentationCopy() -> Layer {
        let copy = ShapeLayer()
        copy.properties = properties
        copy.shape = shape
        return copy
    }

    /// Everything about the shape's drawing but its path, which the damage record compares
    /// apart (`kindOutline`).
    open override func hashDrawing(into hasher: inout Hasher) {
        super.hashDrawing(into: &hasher)
        var rest = shape
        rest.path = nil
        hasher.combine(rest)
    }

    /// This kind's own animatable properties.
    static let shapeProperties = PropertyTable<ShapeProperties>([
        "fillColor": .field(\.fillColor),
        "strokeColor": .field(\.strokeColor),
        "lineWidth": .field(\.lineWidth),
        "miterLimit": .field(\.miterLimit),
        "lineDashPhase": .field(\.lineDashPhase),
        "strokeStart": .field(\.strokeStart),
        "strokeEnd": .field(\.strokeEnd),
    ])

    open override func value(forKeyPath keyPath: String) -> AnimatableValue? {
        Self.shapeProperties.value(at: keyPath, in: &shape) ?? super.value(forKeyPath: keyPath)
    }

    /// This kind's own key paths after `Layer`'s.
    open override class var animatableKeyPaths: [String] { super.animatableKeyPaths + ShapeLayer.shapeProperties.names }

    @discardableResult
    open override func applyAnimatedValue(_ value: AnimatableValue, forKeyPath keyPath: String) -> Bool {
        Self.shapeProperties.write(value, at: keyPath, in: &shape) ?? super.applyAnimatedValue(value, forKeyPath: keyPath)
    }

    override func appendKindContent(to operations: inout [DisplayOperation], in context: KindContentContext) {
        guard let path = shape.path else { return }
        if let color = shape.fillColor {
            operations.append(.fill(path, color: context.shade(color), rule: shape.fillRule, toTarget: context.toTarget))
        }
        if let color = shape.strokeColor, shape.lineWidth > 0 {
            operations.append(.stroke(path, style: strokeStyle, color: context.shade(color), toTarget: context.toTarget))
        }
    }

    override var kindContentElementCount: Int {
        guard shape.path != nil else { return 0 }
        return (shape.fillColor != nil ? 1 : 0) + (shape.strokeColor != nil && shape.lineWidth > 0 ? 1 : 0)
    }

    /// The path's control box, grown by what a stroke's joins can reach.
    override var kindContentExtent: Rect? {
        guard let path = shape.path else { return nil }
        let pad = shape.strokeColor == nil ? 0 : shape.lineWidth / 2 * max(shape.miterLimit, 1.5)
        return path.controlPointBounds.insetBy(dx: -pad, dy: -pad)
    }

    override var kindSilhouette: Path? { shape.path }

    override var kindOutline: (path: Path, onlyFilled: Bool)? {
        shape.path.map { ($0, shape.strokeColor == nil || !(shape.lineWidth > 0)) }
    }
}
