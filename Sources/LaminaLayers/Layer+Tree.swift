/// The layer tree: adding, inserting and removing sublayers (rules 43, 54).
extension Layer {
    /// Appends `layer` as the front-most sublayer (removing it from any previous parent).
    public func addSublayer(_ layer: Layer) {
        insertSublayer(layer, at: sublayers.count)
    }

    /// Inserts `layer` at `index` in the sublayer array (back to front).
    public func insertSublayer(_ layer: Layer, at index: Int) {
        precondition(!isPresentation && !layer.isPresentation, "presentation layers are read-only")
        precondition(layer !== self, "a layer cannot be its own sublayer")
        let reordering = layer.superlayer === self
        layer.detachFromSuperlayer()                          // moving within trees keeps animations
        sublayers.insert(layer, at: min(max(index, 0), sublayers.count))
        layer.superlayer = self
        setNeedsCommit()
        // Tree events (rule 43): the superlayer is asked for "sublayers", a newcomer for
        // "onOrderIn"; a reordering asks only the superlayer.
        propertyDidChange("sublayers", from: nil)
        if !reordering { layer.propertyDidChange("onOrderIn", from: nil) }
    }

    /// Detaches the layer from its superlayer.
    public func removeFromSuperlayer() {
        guard let parent = superlayer else { return }
        parent.propertyDidChange("sublayers", from: nil)      // tree events (rule 43)
        propertyDidChange("onOrderOut", from: nil)
        // Leaving the rendered tree stops the subtree's animations, unfinished (rule 35);
        // their callbacks go to the frame loop, which this layer no longer reaches.
        if isInHostedTree {
            stopAnimationsInSubtree()
            moveCallbacksToFrameLoop()
        }
        detachFromSuperlayer()
    }

    fileprivate func detachFromSuperlayer() {
        guard let parent = superlayer else { return }
        parent.setNeedsCommit()
        parent.sublayers.removeAll { $0 === self }
        superlayer = nil
    }
}
