import Lamina

/// The scenes built into the `lamina` program, by name.
public enum Gallery {
    /// Every built-in scene; the first is the default.
    public static var scenes: [any Scene.Type] { [ElasticField.self, PropertyAnimatorScene.self, Spinner.self, Ripple.self, Playground.self, Controls.self, World.self, Signage.self] }

    /// The registry `lamina run` and `lamina check-config` use.
    public static var registry: SceneRegistry { SceneRegistry(scenes) }
}
