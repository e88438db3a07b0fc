/// How the presentation pass builds a layer's copy into the frame's tree: a plain layer's
/// copy rewritten in place, and a copy placed under its parent's or a replicator's copy.
extension Layer {
    /// Makes last frame's copy what `makePresentationCopy()` and `preparePresentationCopy(of:)`
    /// make of a plain layer, releasing the copies it held (so they too may be reused). Its
    /// superlayer is left for the walk to set (the parent's copy adopts it; a mask's is
    /// cleared), and each field is written only when it changes: every write of a weak
    /// reference, a name or a tuple costs runtime calls, for each animating layer each frame.
    func refreshPresentationCopy(of model: Layer) {
        properties = model.properties
        if name != model.name { name = model.name }
        if !sublayers.isEmpty { sublayers = [] }
        if maskLayer != nil { maskLayer = nil }
        if transitionFrame != nil { transitionFrame = nil }
        if drawingCache != nil { drawingCache = nil }
    }

    /// A replicator's extra instance: drawn in its space, not one of its sublayers.
    func attachAsInstance(of replicator: Layer) {
        superlayer = replicator
    }

    /// Makes `children` (the sublayers' copies) this copy's sublayers.
    func adoptPresentationSublayers(_ children: [Layer]) {
        sublayers = children
        for child in children { child.superlayer = self }
    }
}
