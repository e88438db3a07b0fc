import LaminaGeometry
import LaminaInput

/// The pointer's part of the loop: motion from pointer sources moves the arrow, a touch of
/// the screen hides it (`auto`), and idle time runs out.
extension Runtime {
    /// Draws the pointer as `mode` says, hiding an `auto` one after `hideAfter` idle
    /// seconds (`[input] cursor`, `cursor_hide_after`); `always` shows it at once, in the
    /// middle of the screen until the pointer moves.
    public func setCursorMode(_ mode: CursorMode, hideAfter: Double = 3) {
        precondition(hideAfter.isFinite && hideAfter > 0, "the pointer hides after a positive number of seconds")
        if let cursor, cursor.mode == mode {
            cursor.hideAfter = hideAfter
            return
        }
        cursor?.hide()
        let made = PointerCursor(mode: mode, hideAfter: hideAfter, runtime: self)
        cursor = made
        if mode == .always { made.show() }
    }

    /// Pointer motion due by `now`, a touch that hides the pointer, and its idle timer.
    func handlePointer(now: Double, touchWentDown: Bool) {
        guard let cursor, !isSwitchedAway else { return }         // another VT owns the cursor plane
        if touchWentDown { cursor.touched() }
        for source in touchSources.compactMap({ $0 as? PointerSource }) {
            guard let motion = source.takePointerMotion() else { continue }
            workDone = true
            pointerMoved(at: now)
            cursor.moved(to: motion.position, at: now)
        }
        cursor.advance(to: now)
    }

    /// A moving mouse is someone at the kiosk: it keeps the panel from dimming or blanking,
    /// and wakes it as a touch would (but has nothing to swallow).
    private func pointerMoved(at now: Double) {
        blanking.lastInput = now
        if display.isBlanked {
            if touchMayWake() { wakeNow(reason: "by the pointer") }
        } else {
            _ = undimForTouch() || dismissScreensaverForTouch()
        }
    }
}
