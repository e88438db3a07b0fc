import LaminaAnimation
import LaminaGeometry
import LaminaRaster

extension Layer {
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
