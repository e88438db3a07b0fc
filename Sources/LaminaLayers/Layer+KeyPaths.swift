import LaminaAnimation
import LaminaGeometry
import LaminaRaster

extension Layer {
    /// The kinds Lamina defines, whose `applyAnimatedValue` writes `Layer`'s own key paths
    /// into `properties` as `Layer`'s does: an animation of one of those key paths writes
    /// there directly (a subclass of an app's may handle any key path itself).
    private static let kindsWritingLayerPropertiesInPlace: [ObjectIdentifier] = [
        Layer.self, ShapeLayer.self, TextLayer.self, GradientLayer.self, ReplicatorLayer.self, TransformLayer.self,
        ImageSequenceLayer.self, ActivityIndicatorLayer.self, PassThroughLayer.self,
    ].map { ObjectIdentifier($0) }

    /// True for the kinds in `kindsWritingLayerPropertiesInPlace`.
    var writesLayerPropertiesInPlace: Bool {
        Self.kindsWritingLayerPropertiesInPlace.contains(ObjectIdentifier(type(of: self)))
    }

    /// Every layer's animatable properties (rule 48's list, and the `transform.*` components
    /// of rule 19).
    static let layerProperties = PropertyTable<Properties>([
        "position": .field(\.position),
        "position.x": .field(\.position.x),
        "position.y": .field(\.position.y),
        "bounds": .field(\.bounds),
        "bounds.size": .field(\.bounds.size),
        "anchorPoint": .field(\.anchorPoint),
        "zPosition": .field(\.zPosition),
        "transform": .field(\.transform),
        "opacity": .field(\.opacity),
        "backgroundColor": .field(\.backgroundColor),
        "hidden": .field(\.isHidden),
        "transform.rotation": transformComponent("transform.rotation") { Decomposed2D($0).angle },
        "transform.rotation.z": transformComponent("transform.rotation.z") { Decomposed2D($0).angle },
        "transform.rotation.x": transformComponent("transform.rotation.x") { _ in 0 },
        "transform.rotation.y": transformComponent("transform.rotation.y") { _ in 0 },
        "transform.scale": transformComponent("transform.scale") {
            let d = Decomposed2D($0)
            return (d.scale.x + d.scale.y + $0.m33) / 3
        },
        "transform.scale.x": transformComponent("transform.scale.x") { Decomposed2D($0).scale.x },
        "transform.scale.y": transformComponent("transform.scale.y") { Decomposed2D($0).scale.y },
        "transform.scale.z": transformComponent("transform.scale.z") { $0.m33 },
        "transform.translation": translationComponent,
        "transform.translation.x": transformComponent("transform.translation.x") { $0.m41 },
        "transform.translation.y": transformComponent("transform.translation.y") { $0.m42 },
        "transform.translation.z": transformComponent("transform.translation.z") { $0.m43 },
        "cornerRadius": .field(\.cornerRadius),
        "borderWidth": .field(\.borderWidth),
        "borderColor": .field(\.borderColor),
        "masksToBounds": .field(\.masksToBounds),
        "anchorPointZ": .field(\.anchorPointZ),
        "sublayerTransform": .field(\.sublayerTransform),
        "doubleSided": .field(\.isDoubleSided),
        "geometryFlipped": .field(\.isGeometryFlipped),
        "shadowColor": .field(\.shadowColor),
        "shadowOpacity": .field(\.shadowOpacity),
        "shadowOffset": .field(\.shadowOffset),
        "shadowRadius": .field(\.shadowRadius),
    ])

    /// One scalar component of `transform`, read by `get` and written through
    /// ``transform(_:setting:to:)``; a plain animation of it writes in place.
    private static func transformComponent(_ key: String, get: @escaping @Sendable (Transform3D) -> Double)
        -> AnimatableProperty<Properties> {
        component(get: get, set: { t, v in transform(t, setting: key, to: v) })
    }

    /// `transform.translation`: the x and y translation as a size.
    private static var translationComponent: AnimatableProperty<Properties> {
        component(get: { Size(width: $0.m41, height: $0.m42) }, set: { t, s in
            var t = t
            t.m41 = s.width
            t.m42 = s.height
            return t
        })
    }

    /// A component of `transform` read by `get` and replaced by `set`: the table's derived
    /// property, and the writer a plain animation of it uses in place (its lanes as `Value`).
    private static func component<Value: PlainAnimatable>(
        get: @escaping @Sendable (Transform3D) -> Value, set: @escaping @Sendable (Transform3D, Value) -> Transform3D?
    ) -> AnimatableProperty<Properties> {
        var property = AnimatableProperty<Properties>.derived(from: \.transform, get: get, set: set)
        property.componentWriter = TransformWriter(\.transform).map { field in
            TransformComponentWriter(kind: Value.laneKind, transform: field, set: { t, lanes in set(t, Value(lanes: lanes)) })
        }
        return property
    }

    /// `t` with one component of its decomposition replaced (the `transform.*` key paths of
    /// rule 19): angles and scales through the 2-D decomposition, translations directly,
    /// rotations about x and y applied before `t`. Nil for an unknown component.
    static func transform(_ t: Transform3D, setting key: String, to v: Double) -> Transform3D? {
        var result = t
        switch key {
        case "transform.rotation", "transform.rotation.z":
            var d = Decomposed2D(t)
            d.angle = v
            result = d.transform
        case "transform.rotation.x": return t.rotated(by: v, x: 1, y: 0, z: 0)
        case "transform.rotation.y": return t.rotated(by: v, x: 0, y: 1, z: 0)
        case "transform.scale":
            var d = Decomposed2D(t)
            d.scale = (v, v)
            result = d.transform
            result.m33 = v
            result.m43 = t.m43
            return result
        case "transform.scale.x", "transform.scale.y":
            var d = Decomposed2D(t)
            if key.hasSuffix("x") { d.scale.x = v } else { d.scale.y = v }
            result = d.transform
        case "transform.scale.z": result.m33 = v; return result
        case "transform.translation.x": result.m41 = v; return result
        case "transform.translation.y": result.m42 = v; return result
        case "transform.translation.z": result.m43 = v; return result
        default: return nil
        }
        // The 2-D recomposition leaves z alone.
        result.m33 = t.m33
        result.m43 = t.m43
        return result
    }

    /// Sets a model property by key path (the model-side twin of `value(forKeyPath:)`).
    public func setValue(_ value: AnimatableValue, forKeyPath keyPath: String) {
        precondition(!isPresentation, "a presentation layer is read-only; set the model layer")
        let old = self.value(forKeyPath: keyPath)
        precondition(applyAnimatedValue(value, forKeyPath: keyPath),
                     "\(type(of: self)) has no animatable property '\(keyPath)' of that type")
        setNeedsCommit()
        propertyDidChange(keyPath, from: old)
    }
}
