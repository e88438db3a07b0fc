import LaminaGeometry

/// A layer that keeps its sublayers in one shared 3-D space (`CATransformLayer`, rule 55):
/// it draws nothing of its own (background, border, shape and `masksToBounds` are ignored),
/// its opacity applies to each sublayer separately, nested transform layers continue the
/// space, and an ordinary sublayer is one flat plane in it. The renderer paints the planes
/// back to front by their depth (painter's algorithm, Lamina choice). It is never hit.
open class TransformLayer: Layer {
    /// A transform layer with no sublayers.
    public override init() { super.init() }

    open override var keepsSublayers3D: Bool { true }

    open override func makePresentationCopy() -> Layer {
        let copy = TransformLayer()
        copy.properties = properties
        return copy
    }

    /// Transform layers have no 2-D space to hit (rule 55).
    open override func contains(_ p: Point) -> Bool { false }
}
