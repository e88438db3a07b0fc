import LaminaAnimation
import LaminaGeometry
import LaminaRaster

extension Layer {
    // MARK: Geometry

    /// This layer's space → its superlayer's space (rule 51):
    /// `T(−(b.origin + a∘b.size), −anchorPointZ) · transform · T(position, zPosition) · S`, with
    /// `S = T(−A) · super.sublayerTransform · T(A)` about the superlayer's anchor `A`.
    public func transformToSuperlayer() -> Transform3D {
        transformToSuperlayer(in: superlayer)
    }

    /// `transformToSuperlayer()` with the superlayer given: the display list's walk has it in
    /// hand, and reading the weak `superlayer` costs a slow retain and release a layer.
    func transformToSuperlayer(in parent: Layer?) -> Transform3D {
        let b = properties.bounds, a = properties.anchorPoint
        let anchorInBounds = Point(x: b.origin.x + a.x * b.size.width, y: b.origin.y + a.y * b.size.height)
        var m: Transform3D
        let moved = (x: properties.position.x - anchorInBounds.x, y: properties.position.y - anchorInBounds.y,
                     z: properties.zPosition - properties.anchorPointZ)
        if properties.transform.isIdentity, moved.x.isFinite, moved.y.isFinite, moved.z.isFinite {
            // The two translations about an identity transform, added up: what their product
            // holds, to the bit (every term it adds besides is an exact zero), for finite values.
            m = Transform3D(translationX: moved.x, y: moved.y, z: moved.z)
        } else {
            m = Transform3D(translationX: -anchorInBounds.x, y: -anchorInBounds.y, z: -properties.anchorPointZ)
                .concatenating(properties.transform)
                .concatenating(Transform3D(translationX: properties.position.x, y: properties.position.y,
                                           z: properties.zPosition))
        }
        guard let parent else { return m }
        if parent.properties.isGeometryFlipped {
            let pb = parent.properties.bounds
            m = m.concatenating(Transform3D(scaleX: 1, y: -1, z: 1))
                .concatenating(Transform3D(translationX: 0, y: pb.minY + pb.maxY, z: 0))
        }
        if !parent.properties.sublayerTransform.isIdentity {
            let pb = parent.properties.bounds, pa = parent.properties.anchorPoint
            let ax = pb.origin.x + pa.x * pb.size.width, ay = pb.origin.y + pa.y * pb.size.height
            m = m.concatenating(Transform3D(translationX: -ax, y: -ay, z: 0))
                .concatenating(parent.properties.sublayerTransform)
                .concatenating(Transform3D(translationX: ax, y: ay, z: 0))
        }
        return m
    }

    /// `transformToSuperlayer()` as the superlayer draws it: an ordinary superlayer flattens
    /// its sublayers into its plane (z dropped after the projection), a `TransformLayer`
    /// keeps the depth (rule 55).
    public func transformToSuperlayerPlane() -> Transform3D {
        transformToSuperlayerPlane(in: superlayer)
    }

    /// `transformToSuperlayerPlane()` with the superlayer given (`transformToSuperlayer(in:)`).
    func transformToSuperlayerPlane(in parent: Layer?) -> Transform3D {
        var m = transformToSuperlayer(in: parent)
        guard let parent, !parent.keepsSublayers3D else { return m }
        // The output z column goes; how input z maps matters only for content with depth
        // (a transform layer's), since a plane's own points all have z = 0.
        m.m13 = 0; m.m23 = 0; m.m43 = 0
        if keepsSublayers3D {
            m.m33 = 0
        } else {
            // A plane's points have z = 0, so the row for input z is irrelevant: the identity
            // row keeps transforms that flatten to 2-D on the affine fast path.
            m.m31 = 0; m.m32 = 0; m.m33 = 1; m.m34 = 0
        }
        return m
    }

    /// This layer's space → the root's space.
    public func transformToRoot() -> Transform3D {
        var t = Transform3D.identity
        var layer: Layer? = self
        while let l = layer, l.superlayer != nil {
            t = t.concatenating(l.transformToSuperlayer())
            layer = l.superlayer
        }
        return t
    }

    /// Converts a point from `layer`'s space (nil = the root's) into this layer's space,
    /// through the plane z = 0.
    public func convert(_ point: Point, from layer: Layer?) -> Point? {
        let toRoot = layer?.transformToRoot() ?? .identity
        guard let inRoot = toRoot.project(point) else { return nil }
        return unproject(inRoot, through: transformToRoot())
    }

    /// Converts a point from the superlayer's space into this layer's (for the root: from
    /// the panel into the upright screen the root lays out), through the plane z = 0.
    public func convertFromSuperlayer(_ point: Point) -> Point? {
        unproject(point, through: transformToSuperlayer())
    }

    /// The deepest visible descendant (or self) containing `p`, given in the **superlayer's**
    /// coordinates (rule 57). Hidden layers and layers with opacity < 0.01 are skipped;
    /// sublayers are tried front-most first.
    public func hitTest(_ p: Point) -> Layer? {
        guard !properties.isHidden, properties.opacity >= 0.01 else { return nil }
        guard let local = unproject(p, through: transformToSuperlayer()) else { return nil }
        if properties.masksToBounds && !contains(local) { return nil }          // clipped sublayers are not hit
        if let mask = maskLayer, mask.hitTest(local) == nil { return nil }      // outside the mask (rule 57)
        for child in sublayersInDrawingOrder.reversed() {
            if let hit = child.hitTest(local) { return hit }
        }
        return contains(local) ? self : nil
    }

    /// Sublayers back to front: ascending zPosition, ties in array order (rule 54).
    public var sublayersInDrawingOrder: [Layer] {
        guard sublayers.contains(where: { $0.properties.zPosition != 0 }) else { return sublayers }
        return sublayers.enumerated().sorted {
            ($0.element.properties.zPosition, $0.offset) < ($1.element.properties.zPosition, $1.offset)
        }.map(\.element)
    }

    /// Maps a point of the parent plane back into the layer plane (inverse projection of z = 0).
    fileprivate func unproject(_ p: Point, through t: Transform3D) -> Point? {
        if t.isAffine { return t.affineTransform.inverted().apply(to: p) }
        // Solve (x, y, 0, 1)·M ~ (p.x, p.y, ·, 1) for x, y.
        let a11 = t.m11 - p.x * t.m14, a12 = t.m21 - p.x * t.m24, b1 = p.x * t.m44 - t.m41
        let a21 = t.m12 - p.y * t.m14, a22 = t.m22 - p.y * t.m24, b2 = p.y * t.m44 - t.m42
        let det = a11 * a22 - a12 * a21
        guard det != 0 else { return nil }
        return Point(x: (b1 * a22 - a12 * b2) / det, y: (a11 * b2 - a21 * b1) / det)
    }
}
