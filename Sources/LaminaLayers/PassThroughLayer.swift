import LaminaGeometry

/// A layer touches pass through: hit testing never lands on it or its sublayers' space,
/// so what is under it takes the touch (a pointer's arrow over the button it points at, a
/// watermark, an overlay that only shows).
public final class PassThroughLayer: Layer {
    /// An empty pass-through layer.
    public override init() { super.init() }

    public override func makePresentationCopy() -> Layer {
        let copy = PassThroughLayer()
        copy.properties = properties
        return copy
    }

    public override func contains(_ p: Point) -> Bool { false }
}
