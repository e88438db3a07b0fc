/// The scene's place in the runtime: the scene installed, the timers it set, and the loader
/// that reads and compiles the next one. Installing and removing a scene
/// (`Runtime+Scene.swift`) goes through it; its timers and the loader are loop sources of
/// their own (`input` and `woken` phases).
final class SceneHost {
    /// The installed scene, owned until `Runtime.removeScene`.
    var current: (any Scene)?
    /// The scene's timers, fired in the input phase and invalidated with the scene.
    let timers = SceneTimers()
    /// Reads and compiles scenes off the loop in real time (on the spot on a virtual clock).
    var loader: SceneLoader

    init(loadsInBackground: Bool) {
        loader = SceneLoader(inBackground: loadsInBackground)
    }
}
