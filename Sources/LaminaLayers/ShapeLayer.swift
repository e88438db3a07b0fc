import LaminaAnimation
import LaminaGeometry
import LaminaRaster

/// A layer that draws a vector path (`CAShapeLayer`): the fill, in the layer's bounds space,
/// composited above the background (rules 60, 61).
open class ShapeLayer: Layer {
    struct ShapeProperties {
        var path: Path?
        var fillColor: Color? = .black
        var fillRule: FillRule = .nonZero
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

    private func mutateShape(_ key: String, _ change: (inout ShapeProperties) -> Void) {
        precondition(!isPresentation, "a presentation layer is read-only; set the model layer")
        let old = value(forKeyPath: key)
        change(&shape)
        setNeedsCommit()
        propertyDidChange(key, from: old)
    }

    open override func makePresentationCopy() -> Layer {
        let copy = ShapeLayer()
        copy.properties = properties
        copy.shape = shape
        return copy
    }

    open override func value(forKeyPath keyPath: String) -> AnimatableValue? {
        if keyPath == "fillColor" { return .color(shape.fillColor) }
        return super.value(forKeyPath: keyPath)
    }

    @discardableResult
    open override func applyAnimatedValue(_ value: AnimatableValue, forKeyPath keyPath: String) -> Bool {
        if keyPath == "fillColor", case .color(let c) = value {
            shape.fillColor = c
            return true
        }
        return super.applyAnimatedValue(value, forKeyPath: keyPath)
    }
}
