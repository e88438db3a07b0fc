import Logging
import LaminaSystem

/// What a ``Scene`` builds into and hears from: the screen's root layer and size, display
/// links, gestures, touches, keys and typed text, the run's clock and log.
///
/// Everything a scene registers here belongs to the scene: when it is torn down, Lamina
/// invalidates its display links and drops its recognizers' actions and its handlers, so
/// the closures (and whatever they captured, the scene included) are released.
public final class SceneContext {
    unowned let runtime: Runtime

    init(runtime: Runtime) {
        self.runtime = runtime
    }

    /// Sends an event to the control socket's clients subscribed to `kind` (a scene file's
    /// states and gestures).
    package func publish(_ kind: String, _ fields: [String: ControlValue]) {
        runtime.publish(kind, fields)
    }

    // MARK: Text focus (for the widgets: LaminaWidgets' text field and on-screen keyboard)

    /// What typing goes into, nil when nothing has focus.
    package var focusedTextInput: (any TextInputTarget)? { runtime.input.focused }

    /// Moves typing to `target` (nil: to nowhere); the on-screen keyboard follows.
    package func focus(_ target: (any TextInputTarget)?) {
        runtime.input.focus(target)
    }

    /// Types `input` into what has focus, and to the scene's text handler (what a key of the
    /// on-screen keyboard sends).
    package func type(_ input: TextInput) {
        runtime.input.deliver(input)
    }

    /// Takes away `layer`'s touch handlers (the on-screen keyboard's, as it slides away).
    package func removeTouchHandlers(of layer: Layer) {
        runtime.dispatcher.removeTouchHandlers(of: layer)
    }

    /// The screen's root layer (bounds `screenSize`, upright whatever the panel rotation):
    /// add the scene's layers here.
    public var rootLayer: Layer { runtime.rootLayer }

    /// The screen's size in points (the root layer's bounds).
    public var screenSize: Size { runtime.screenSize }

    /// The panel's size in pixels: the display's own axes, before the configured rotation
    /// (`screenSize` with width and height swapped when the display is turned a quarter).
    public var panelSize: Size { Size(width: Double(runtime.display.width), height: Double(runtime.display.height)) }

    /// Where `point` of the root layer's space is on the panel, in pixels: through the
    /// display's rotation (what a touch device reports before Lamina turns it upright).
    public func panelPoint(_ point: Point) -> Point {
        runtime.rootLayer.transformToSuperlayer().project(point) ?? point
    }

    /// Ends the run after this turn of the loop (a wizard that has what it came for): the
    /// daemon stops as after SIGTERM, with ``Runtime/StopReason/finished``.
    public func finish() {
        runtime.requestStop(.finished)
    }

    /// The middle of the screen, in the root layer's coordinates.
    public var center: Point { Point(x: screenSize.width / 2, y: screenSize.height / 2) }

    /// The layer tree the scene's layers live in: what a ``PropertyAnimator`` animates on
    /// (`PropertyAnimator(duration:curve:tree:)`).
    public var layerTree: LayerTree { runtime.tree }

    /// The run's media time in seconds (the display's clock: real or virtual).
    public var now: Double { runtime.clock.now }

    /// Makes `video` known to `stats` and the control socket while it lives.
    package func register(_ video: any VideoPlayback) {
        runtime.videos.add(video)
    }

    /// Whether the run's clock is virtual (a test, a recording): work done off the loop, such
    /// as decoding a video's frames, is waited for instead of raced, so every frame shows.
    package var clockIsVirtual: Bool { runtime.clock is VirtualClock }

    /// The daemon's log (the journal under systemd, standard error on a terminal).
    public var logger: Logger { runtime.logger }

    /// A display link (`CADisplayLink`) calling `callback` once per frame, from the vblank,
    /// until paused or invalidated; compute what to show for `link.targetTimestamp`. A
    /// running link keeps frames coming; pause it when nothing moves so the daemon sleeps.
    @discardableResult
    public func addDisplayLink(_ callback: @escaping (DisplayLink) -> Void) -> DisplayLink {
        runtime.addDisplayLink(callback)
    }

    /// A timer (`Timer.scheduledTimer`) calling `action` after `interval` seconds on the
    /// runtime's clock, and every `interval` after that when it `repeats`, until invalidated
    /// or the scene goes. Use it for what happens later or now and then (a caret's blink, a
    /// return to the home screen); use a display link for what moves every frame.
    @discardableResult
    public func addTimer(interval: Double, repeats: Bool = false, _ action: @escaping (SceneTimer) -> Void) -> SceneTimer {
        let timer = SceneTimer(interval: interval, repeats: repeats, now: runtime.clock.now, action: action)
        runtime.timers.add(timer)
        return timer
    }

    /// Attaches `recognizer` to `layer`: touches that land on the layer (or its sublayers)
    /// reach it. Returns the recognizer, for `require(toFail:)` and the like.
    @discardableResult
    public func addGestureRecognizer<Recognizer: GestureRecognizer>(_ recognizer: Recognizer, to layer: Layer) -> Recognizer {
        runtime.dispatcher.addGestureRecognizer(recognizer, to: layer)
        return recognizer
    }

    /// Where the on-screen keyboard stands once it has slid up, in the root's coordinates
    /// (the bottom of the screen); nil while it is away. Keep what is being typed above it.
    public var keyboardFrame: Rect? { runtime.input.keyboardFrame }

    /// Calls `handler` with the keyboard's frame each time it starts to slide up (the frame
    /// it will stand in) or away (nil): move content or shrink a scroll view to keep the
    /// field being typed in above it. One handler; the scene's, forgotten when it goes.
    public func onKeyboardFrameChange(_ handler: @escaping (Rect?) -> Void) {
        runtime.input.keyboardFrameHandler = handler
    }

    /// Calls `handler` with the new `screenSize` when it changes (a configuration reload turned
    /// the picture a quarter: a portrait panel's rotation), so the scene lays out again for
    /// it. One handler; the scene's, forgotten when it goes.
    public func onScreenSizeChange(_ handler: @escaping (Size) -> Void) {
        runtime.screenSizeHandler = handler
    }

    /// The on-screen keyboard starts to move to `frame` (nil: away).
    package func keyboardMoved(to frame: Rect?) {
        runtime.input.keyboardMoved(to: frame)
    }

    /// Confines touches to `layer` and what is inside it until `endModal(_:)`: a touch
    /// anywhere else goes to `layer`, and nothing outside it (a recognizer on the root, a
    /// button behind) hears any touch. What a dialog over a dimmed screen does.
    public func beginModal(_ layer: Layer) {
        runtime.dispatcher.beginModal(layer)
    }

    /// Ends `layer`'s confinement of touches.
    public func endModal(_ layer: Layer) {
        runtime.dispatcher.endModal(layer)
    }

    /// Gives `layer` the raw touches that land on it or its sublayers (unless a sublayer has
    /// its own handler): every phase, `cancelled` when a recognizer takes them.
    public func addTouchHandler(to layer: Layer, _ handler: @escaping (Touch) -> Void) {
        runtime.dispatcher.addTouchHandler(to: layer, handler)
    }

    /// Receives every key press and release (evdev key codes), when a keyboard is attached.
    public func onKey(_ handler: @escaping (KeyEvent) -> Void) {
        runtime.keyHandler = handler
    }

    /// Receives typed text and editing keys through the configured keyboard layout, key
    /// repeat included.
    public func onTextInput(_ handler: @escaping (TextInput) -> Void) {
        runtime.textInputHandler = handler
    }
}
