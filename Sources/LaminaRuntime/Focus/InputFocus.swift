import LaminaGeometry
import LaminaInput
import LaminaLayers

/// Keys, text and the pointer: key events turned into text (an xkbcommon keymap) with key
/// repeat, which target (a text field) typing goes into, the on-screen keyboard that
/// follows focus, a touch outside that ends editing, and the pointer drawn for a mouse.
/// Key repeat and the pointer's idle time are its deadlines on the loop.
final class InputFocus: LoopSource {
    private unowned let runtime: Runtime
    /// Receives every key press and release.
    var keyHandler: ((KeyEvent) -> Void)?
    /// Turns keys into text; with it, `textInputHandler` receives what is typed.
    var keyboard: Keyboard?
    /// Receives typed text and editing keys (the scene's own handler).
    var textInputHandler: ((TextInput) -> Void)?
    /// What typing goes into (a text field), nil when nothing has focus.
    private(set) weak var focused: (any TextInputTarget)?
    /// Whether the on-screen keyboard slides up when a text field takes focus.
    var showsOnScreenKeyboard = true
    /// The on-screen keyboard, made by the first target that takes focus.
    private(set) var onScreenKeyboard: (any TextInputPanel)?
    /// Where the on-screen keyboard stands once slid up (screen coordinates); nil while it
    /// is away.
    private(set) var keyboardFrame: Rect?
    /// Told when `keyboardFrame` changes (the scene's own handler).
    var keyboardFrameHandler: ((Rect?) -> Void)?
    /// The pointer drawn for a mouse or trackball; nil: none drawn.
    private(set) var cursor: PointerCursor?
    /// A touch went down outside the focused field during the event being dispatched:
    /// editing ends once the event is delivered (never in the middle of it).
    private var endEditingAfterEvent = false
    /// A finger (not the mouse's button) went down this turn: an `auto` pointer hides.
    private var fingerWentDown = false

    init(runtime: Runtime) {
        self.runtime = runtime
    }

    // MARK: Keys and text

    /// A key from an input source: to the scene's key handler, then as text.
    func deliver(_ key: KeyEvent) {
        keyHandler?(key)
        for input in keyboard?.handle(key) ?? [] { deliver(input) }
    }

    /// One typed input, from a keyboard or the on-screen one: to the focused field, then to
    /// the scene's own handler.
    func deliver(_ input: TextInput) {
        focused?.apply(input)
        textInputHandler?(input)
    }

    /// Forgets the scene's handlers and focus (the scene was removed).
    func removeSceneHandlers() {
        focus(nil)
        textInputHandler = nil
        keyHandler = nil
        keyboardFrameHandler = nil
    }

    /// The on-screen keyboard starts to slide up to `frame`, or away (nil).
    func keyboardMoved(to frame: Rect?) {
        guard frame != keyboardFrame else { return }
        keyboardFrame = frame
        keyboardFrameHandler?(frame)
    }

    // MARK: Focus

    /// Moves typing to `target` (nil: to nowhere). The target that had focus loses it; the
    /// on-screen keyboard slides up for a target and away for nil.
    func focus(_ target: (any TextInputTarget)?) {
        guard focused !== target else { return }
        let previous = focused
        focused = target
        previous?.focusChanged()
        target?.focusChanged()
        if let target, showsOnScreenKeyboard {
            (onScreenKeyboard ?? makeOnScreenKeyboard(by: target))?.show()
        } else {
            onScreenKeyboard?.hide()
        }
    }

    /// A new touch, delivered: one that landed outside the focused field's tap area and
    /// outside the on-screen keyboard ends editing once the event is over.
    func touchWentDown(_ touch: Touch) {
        guard let field = focused else { return }
        var layer = touch.layer
        while let current = layer {
            if current === field.tapArea || current === onScreenKeyboard?.layer { return }
            layer = current.superlayer
        }
        endEditingAfterEvent = true
    }

    /// The event in dispatch is over: focus changes it asked for happen now (the app's
    /// `onFocusChange`, the keyboard's handlers going away).
    func eventDelivered() {
        guard endEditingAfterEvent else { return }
        endEditingAfterEvent = false
        focus(nil)
    }

    /// Hides the on-screen keyboard and forgets it, so the next focus builds it again from
    /// `keyboard` (a reload changed the layout, the screen turned).
    func dropOnScreenKeyboard() {
        onScreenKeyboard?.hide()
        onScreenKeyboard?.layer.removeFromSuperlayer()
        onScreenKeyboard = nil
        if let focused, showsOnScreenKeyboard { makeOnScreenKeyboard(by: focused)?.show() }
    }

    private func makeOnScreenKeyboard(by target: any TextInputTarget) -> (any TextInputPanel)? {
        let made = target.makeInputPanel(layout: keyboard ?? (try? Keyboard(layout: "us")))
        onScreenKeyboard = made
        return made
    }

    // MARK: The pointer

    /// Draws the pointer as `mode` says, hiding an `auto` one after `hideAfter` idle seconds.
    func setCursorMode(_ mode: CursorMode, hideAfter: Double) {
        precondition(hideAfter.isFinite && hideAfter > 0, "the pointer hides after a positive number of seconds")
        if let cursor, cursor.mode == mode {
            cursor.hideAfter = hideAfter
            return
        }
        cursor?.hide()
        let made = PointerCursor(mode: mode, hideAfter: hideAfter, runtime: runtime)
        cursor = made
        if mode == .always { made.show() }
    }

    /// A finger went down this turn (the pointer's button is no finger).
    func fingerTouched() {
        fingerWentDown = true
    }

    // MARK: The loop

    let phase = LoopPhase.input

    func nextDeadline(now: Double) -> Double? {
        switch (keyboard?.nextRepeatTime, cursor?.hideDueAt) {
        case let (repeatAt?, hideAt?): return min(repeatAt, hideAt)
        case let (repeatAt, hideAt): return repeatAt ?? hideAt
        }
    }

    /// Key repeat, then pointer motion, a touch that hides the pointer, and its idle timer.
    func service(now: Double) -> Bool {
        var didWork = false
        if let keyboard, let due = keyboard.nextRepeatTime, now >= due {
            didWork = true
            for input in keyboard.repeats(upTo: now) { deliver(input) }
        }
        let touched = fingerWentDown
        fingerWentDown = false
        // Motion is always taken, so none waits in a source (which would keep it due);
        // without a pointer drawn, or with another VT owning the cursor plane, it goes nowhere.
        let moved = runtime.touch.takePointerMotion()
        guard let cursor, !runtime.output.isSwitchedAway else { return didWork }
        if touched { cursor.touched() }
        if let moved {
            didWork = true
            runtime.displayPower.pointerMoved(at: now)
            cursor.moved(to: moved.position, at: now)
        }
        cursor.advance(to: now)
        return didWork
    }
}
