import LaminaLayers

/// The scene on screen: installing one, and removing it with everything it registered.
extension Runtime {
    /// Creates `type` with `settings` and makes it the installed scene (after removing the one
    /// before). A scene whose `init` throws is removed again and the error rethrown (a
    /// ``ConfigError`` as is, anything else as a ``SceneStartError``).
    @discardableResult
    public func install<S: Scene>(_ type: S.Type, settings: S.Settings) throws -> S {
        removeScene()
        do {
            let scene = try S(context: SceneContext(runtime: self), settings: settings)
            self.scene = scene
            return scene
        } catch {
            removeScene()
            if let error = error as? ConfigError { throw error }
            throw SceneStartError(scene: S.name, underlying: error)
        }
    }

    /// Removes the scene: calls its `tearDown()`, then removes every layer under the root,
    /// every display link, recognizer (its action dropped), touch handler, key and text
    /// handler, and the scene itself; the display, input sources and clock stay. The next
    /// frame draws whatever is installed next (a reload swaps scenes between two frames).
    public func removeScene() {
        scene?.tearDown()
        input.removeSceneHandlers()
        screenSizeHandler = nil
        Transaction.begin()
        Transaction.disableActions = true
        for layer in tree.root.sublayers { layer.removeFromSuperlayer() }
        Transaction.commit()
        links.invalidateAll()
        timers.invalidateAll()
        dispatcher.removeAll()
        scene = nil
        tree.setNeedsCommit()
    }
}
