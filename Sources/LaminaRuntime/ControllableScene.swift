/// What the control socket can do with a scene beyond running it: read and set its named
/// values, move it between its named states (`get-bindings`, `set-binding`, `go-to-state`).
/// Scene files are such scenes; the runtime and the control socket talk to them through this
/// protocol and never name their type, so scene files stay a plug-in of the runtime.
public protocol ControllableScene: Scene {
    /// The bindings' current values by name.
    var bindingValues: [String: BindingValue] { get }
    /// Sets the binding `name` (of `value`'s kind, within the scene's limits) and shows it
    /// at the next frame; the error says why not.
    func setBinding(_ name: String, to value: BindingValue) throws(ConfigError)
    /// The state the scene is in, nil before any.
    var currentState: String? { get }
    /// The states it can go to, sorted.
    var stateNames: [String] { get }
    /// Animates to `state`, one of `stateNames`.
    func go(toState state: String)
    /// True when the scene publishes its gestures' `gesture` events itself (with names of its
    /// own), so the runtime does not publish them by recognizer kind.
    var publishesGestures: Bool { get }
}
