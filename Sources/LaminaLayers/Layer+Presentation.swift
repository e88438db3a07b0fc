/// How the presentation pass rewrites a plain layer's copy in place. (The helpers that place a
/// copy under its parent's or a replicator's copy stay in the class body: moving a method
/// with a vtable slot out of it changes every subclass's vtable, which an incremental build
/// of another module, such as the arm64 toolchain's kept build folder, does not redo.)
extension Layer {
    /// Makes last frame's copy what `makePresentationCopy()` and `preparePresentationCopy(of:)`
    /// make of a plain layer, but for its sublayers' copies, which the walk rewrites in place
    /// (or lets go of, when the sublayers changed, so they too may be reused). Its superlayer
    /// is left for the walk to set (the parent's copy adopts it; a mask's is cleared), and
    /// each field is written only when it changes: every write of a weak
    /// reference, a name or a tuple costs runtime calls, for each animating layer each frame.
    func refreshPresentationCopy(of model: Layer) {
        properties = model.properties
        if name != model.name { name = model.name }
        if maskLayer != nil { maskLayer = nil }
        if transitionFrame != nil { transitionFrame = nil }
        if drawingCache != nil { drawingCache = nil }
    }
}
