import FoundationEssentials
import LaminaDisplay
import LaminaInput

/// Idle blanking (display-input.md §10): after `blankAfter` seconds without a touch the panel
/// is turned off (DPMS), no frames are drawn and no vblank wakes the loop; a touch turns it
/// back on, and the touch sequence that woke it is swallowed until every finger has lifted,
/// so it cannot press a button the user could not see.
extension Runtime {
    /// When the panel is due to blank, for the loop's timeout (nil: never, already dark, or
    /// a flip is in flight, whose event wakes the loop anyway).
    var blankDueAt: Double? {
        guard !display.isBlanked, !isOutputPaused, !display.isFlipPending else { return nil }
        return blankRequested ? clock.now : blanking.dueAt
    }

    /// Blanks the panel when the idle time is up and no flip is in flight.
    func blankIfIdle(now: Double) {
        guard let due = blankDueAt, now >= due else { return }
        if blankRequested {
            blankRequested = false
            blankNow(reason: "over the control socket", status: "control socket")
            return
        }
        blankNow(reason: "after \(String(cFormat: "%g", blankAfter ?? 0)) s without a touch", status: "idle")
    }

    /// Turns the panel off (DPMS) until a touch or `wakeNow`; false when the device refused
    /// (then idle blanking tries again after another idle period).
    @discardableResult
    func blankNow(reason: String, status: String) -> Bool {
        let now = clock.now
        do {
            try timedDeviceCall("turning the panel off") { () throws(KMSError) in try display.blank() }
        } catch {
            logger.warning("cannot blank the display: \(error); trying again after another idle period")
            blanking.lastInput = now
            return false
        }
        workDone = true
        scheduler.forgetScheduledOutput()
        blanking.blanked(at: now)
        setBacklight(0)
        isDimmed = false
        logger.info("display blanked \(reason)")
        announceStatus("blanked (\(status)); a touch wakes it")
        publish("display", ["lit": .bool(false)])
        return true
    }

    func admitTouch(_ event: TouchEvent) -> Bool {
        if isSwitchedAway { return false }                          // another VT has the screen
        blanking.lastInput = clock.now
        if display.isBlanked {
            guard case .down = event.kind else { return false }     // stray motion on a dark panel
            guard touchMayWake() else { return false }              // the schedule keeps it off
            wakeNow(reason: "by a touch (the waking touch is not delivered)")
            blanking.beginWaking()
        } else if case .down = event.kind, undimForTouch() || dismissScreensaverForTouch() {
            blanking.beginWaking()                                  // the touch that brings the light or the scene back
        }
        return !blanking.swallows(event)
    }

    /// Turns the panel back on showing the last frame, the light at the brightness in use;
    /// the next frame (animations moved on while dark) follows at once. False when the device
    /// refused.
    @discardableResult
    func wakeNow(reason: String) -> Bool {
        do {
            try timedDeviceCall("turning the panel on") { () throws(KMSError) in try display.unblank() }
        } catch {
            logger.warning("cannot turn the display back on: \(error)")
            return false
        }
        blanking.woke(at: clock.now)
        setBacklight(power.brightness)
        logger.info("display woken \(reason)")
        announceStatus(showingStatus)
        tree.setNeedsCommit()
        publish("display", ["lit": .bool(true)])
        return true
    }
}
