import LaminaAnimation
import LaminaGeometry
import LaminaRaster

/// A layer filled with a colour gradient over its (rounded) bounds (`CAGradientLayer`).
open class GradientLayer: Layer {
    /// `axial` runs from `startPoint` to `endPoint`; `radial` centres on `startPoint` and
    /// reaches its last colour at `endPoint`'s distance.
    public enum Kind: String, Hashable, Sendable {
        /// Colours change along the line from `startPoint` to `endPoint`.
        case axial
        /// Colours change with the distance from `startPoint`; `endPoint` is on the last circle.
        case radial
    }

    struct GradientProperties: Hashable {
        var colors: [Color] = []
        var locations: [Double]?
        var startPoint = Point(x: 0.5, y: 0)
        var endPoint = Point(x: 0.5, y: 1)
        var kind = Kind.axial
    }

    var gradient = GradientProperties()

    /// A gradient layer with no colours (it draws nothing until given two).
    public override init() { super.init() }

    /// The colours, first at `startPoint`; fewer than two draw nothing.
    public var colors: [Color] {
        get { gradient.colors }
        set { mutateGradient("colors") { $0.colors = newValue } }
    }

    /// Where each colour sits (0…1); nil spreads them evenly.
    public var locations: [Double]? {
        get { gradient.locations }
        set { mutateGradient("locations") { $0.locations = newValue } }
    }

    /// In unit coordinates of the bounds ((0, 0) top-left); default (0.5, 0).
    public var startPoint: Point {
        get { gradient.startPoint }
        set { mutateGradient("startPoint") { $0.startPoint = newValue } }
    }

    /// In unit coordinates of the bounds; default (0.5, 1).
    public var endPoint: Point {
        get { gradient.endPoint }
        set { mutateGradient("endPoint") { $0.endPoint = newValue } }
    }

    /// How the colours are laid out: axial (the default) or radial.
    public var kind: Kind {
        get { gradient.kind }
        set { mutateGradient("type") { $0.kind = newValue } }
    }

    private func mutateGradient(_ key: String, _ change: (inout GradientProperties) -> Void) {
        changeProperty(key) { change(&gradient) }
    }

    /// The gradient in the layer's bounds space, or nil with fewer than two colours.
    public var rasterGradient: Gradient? {
        let colors = gradient.colors
        guard colors.count >= 2 else { return nil }
        let b = bounds
        let locations = gradient.locations.map { Array($0.prefix(colors.count)) } ?? []
        let stops = colors.enumerated().map { i, color in
            Gradient.Stop(i < locations.count ? locations[i] : Double(i) / Double(colors.count - 1), color)
        }
        func place(_ p: Point) -> Point { Point(x: b.minX + p.x * b.width, y: b.minY + p.y * b.height) }
        let start = place(gradient.startPoint), end = place(gradient.endPoint)
        switch gradient.kind {
        case .axial: return Gradient(.linear(start: start, end: end), stops: stops)
        case .radial:
            return Gradient(.radial(center: start, radius: ((end.x - start.x) * (end.x - start.x) + (end.y - start.y) * (end.y - start.y)).squareRoot()),
                            stops: stops)
        }
    }

    open override func makePresentationCopy() -> Layer {
        let copy = GradientLayer()
        copy.properties = properties
        copy.gradient = gradient
        return copy
    }

    open override func hashDrawing(into hasher: inout Hasher) {
        super.hashDrawing(into: &hasher)
        hasher.combine(gradient)
    }

    /// This kind's own animatable properties.
    static let gradientProperties = PropertyTable<GradientProperties>([
        "startPoint": .field(\.startPoint),
        "endPoint": .field(\.endPoint),
    ])

    open override func value(forKeyPath keyPath: String) -> AnimatableValue? {
        Self.gradientProperties.value(at: keyPath, in: &gradient) ?? super.value(forKeyPath: keyPath)
    }

    /// This kind's own key paths after `Layer`'s.
    open override class var animatableKeyPaths: [String] { super.animatableKeyPaths + GradientLayer.gradientProperties.names }

    @discardableResult
    open override func applyAnimatedValue(_ value: AnimatableValue, forKeyPath keyPath: String) -> Bool {
        Self.gradientProperties.write(value, at: keyPath, in: &gradient) ?? super.applyAnimatedValue(value, forKeyPath: keyPath)
    }

    override func appendKindContent(to operations: inout [DisplayOperation], in context: KindContentContext) {
        guard let gradient = rasterGradient, context.toTarget.isAffine else { return }
        let shaded = Gradient(gradient.kind, stops: gradient.stops.map { Gradient.Stop($0.location, context.shade($0.color)) })
        operations.append(.gradient(context.outline, shaded, toTarget: context.toTarget.affineTransform))
    }

    override var kindContentElementCount: Int { gradient.colors.count >= 2 ? 1 : 0 }
}
