import LaminaAnimation
import LaminaGeometry
import LaminaRaster

/// A layer that draws a vector path (`CAShapeLayer`): the fill, then the stroke centred on
/// the path, in the layer's bounds space, between the background and the sublayers
/// (rules 60–62).
open class ShapeLayer: Layer {
    struct ShapeProperties {
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

    open override func hashDrawing(into hasher: inout Hasher) {
        super.hashDrawing(into: &hasher)
        hasher.combine(shape.path)
        hasher.combine(shape.fillColor)
        hasher.combine(shape.fillRule)
        hasher.combine(shape.strokeColor)
        hasher.combine(strokeStyle)
    }

    open override func value(forKeyPath keyPath: String) -> AnimatableValue? {
        switch keyPath {
        case "fillColor": return .color(shape.fillColor)
        case "strokeColor": return .color(shape.strokeColor)
        case "lineWidth": return .scalar(shape.lineWidth)
        case "miterLimit": return .scalar(shape.miterLimit)
        case "lineDashPhase": return .scalar(shape.lineDashPhase)
        case "strokeStart": return .scalar(shape.strokeStart)
        case "strokeEnd": return .scalar(shape.strokeEnd)
        default: return super.value(forKeyPath: keyPath)
        }
    }

    @discardableResult
    open override func applyAnimatedValue(_ value: AnimatableValue, forKeyPath keyPath: String) -> Bool {
        switch (keyPath, value) {
        case ("fillColor", .color(let c)): shape.fillColor = c
        case ("strokeColor", .color(let c)): shape.strokeColor = c
        case ("lineWidth", .scalar(let v)): shape.lineWidth = v
        case ("miterLimit", .scalar(let v)): shape.miterLimit = v
        case ("lineDashPhase", .scalar(let v)): shape.lineDashPhase = v
        case ("strokeStart", .scalar(let v)): shape.strokeStart = v
        case ("strokeEnd", .scalar(let v)): shape.strokeEnd = v
        default: return super.applyAnimatedValue(value, forKeyPath: keyPath)
        }
        return true
    }
}
