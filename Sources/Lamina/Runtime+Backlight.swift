import LaminaDisplay
import LaminaInput
import LaminaSystem

/// The backlight and the daily schedule (`[power]`): dimming after idle, the light off with
/// the panel, the screen off between scheduled times. Idle blanking itself is
/// `Runtime+Power.swift`.
extension Runtime {
    /// Seconds a touch keeps the screen on during the scheduled off time.
    static let scheduleWakeSeconds = 60.0

    /// When the light should dim, or nil.
    var dimDueAt: Double? {
        guard backlight != nil, !isDimmed, !display.isBlanked, let after = power.dimAfter else { return nil }
        return blanking.lastInput + after
    }

    /// When the schedule next needs a look: now when it should act, else its next boundary
    /// (at most an hour ahead, so a changed wall clock is noticed).
    var scheduleDueAt: Double? {
        // A flip in flight wakes the loop anyway; acting waits for it (as idle blanking does).
        guard let schedule = power.scheduleOff, !display.isFlipPending, !isOutputPaused else { return nil }
        let now = clock.now, time = timeOfDay()
        if schedule.contains(time) {
            if !display.isBlanked {
                return scheduleWokenByTouch ? max(now, blanking.lastInput + Self.scheduleWakeSeconds) : now
            }
            if !isScheduledOff { return nil }                  // blanked for another reason: the touch decides
        } else if isScheduledOff {
            return now
        }
        return now + min(schedule.secondsToNextBoundary(from: time), 3600)
    }

    /// Sets the backlight to `level`, logging a device that refuses (the panel goes on).
    func setBacklight(_ level: Double) {
        guard let backlight else { return }
        do {
            try backlight.set(level)
        } catch {
            logger.warning("backlight: \(error)")
        }
    }

    /// When the screensaver scene should replace the scene, or nil.
    var screensaverDueAt: Double? {
        guard onScreensaver != nil, !isScreensaverShowing, !display.isBlanked, let after = power.screensaverAfter else { return nil }
        return blanking.lastInput + after
    }

    /// Takes the screensaver away on a touch (which it spends); true when it did.
    func dismissScreensaverForTouch() -> Bool {
        guard isScreensaverShowing, let onScreensaver else { return false }
        isScreensaverShowing = false
        onScreensaver(false)
        logger.info("screensaver dismissed by a touch (the touch is not delivered)")
        return true
    }

    /// Dims after idle, shows the screensaver, and follows the schedule (between flips, like
    /// idle blanking).
    func applyPower(now: Double) {
        if let due = screensaverDueAt, now >= due, let onScreensaver {
            isScreensaverShowing = true
            onScreensaver(true)
            logger.info("screensaver after \(String(cFormat: "%g", power.screensaverAfter ?? 0)) s without a touch")
        }
        if let due = dimDueAt, now >= due {
            isDimmed = true
            setBacklight(power.dimLevel)
            logger.info("backlight dimmed to \(String(cFormat: "%g", power.dimLevel)) after \(String(cFormat: "%g", power.dimAfter ?? 0)) s without a touch")
            publish("display", ["lit": .bool(true), "dimmed": .bool(true)])
        }
        guard let schedule = power.scheduleOff, let due = scheduleDueAt, now >= due, !display.isFlipPending else { return }
        if schedule.contains(timeOfDay()) {
            guard !display.isBlanked else { return }
            if blankNow(reason: "for the scheduled off time (\(schedule))", status: "scheduled off \(schedule)") {
                isScheduledOff = true
                scheduleWokenByTouch = false
            } else {
                scheduleWokenByTouch = true                    // refused: try again after the wake minute
                blanking.lastInput = now
            }
        } else if isScheduledOff {
            isScheduledOff = false
            scheduleWokenByTouch = false
            wakeNow(reason: "at the end of the scheduled off time (\(schedule))")
        }
    }

    /// A touch while dimmed brings the light back and is swallowed; during the scheduled off
    /// time it turns the screen on only if the schedule allows. Returns false when the touch
    /// must not wake the screen.
    func touchMayWake() -> Bool {
        guard isScheduledOff else { return true }
        guard power.scheduleTouchWakes else { return false }
        isScheduledOff = false
        scheduleWokenByTouch = true
        return true
    }

    /// Restores the light from dimmed on a touch; true when the touch was spent on that.
    func undimForTouch() -> Bool {
        guard isDimmed else { return false }
        isDimmed = false
        setBacklight(power.brightness)
        logger.info("backlight back to \(String(cFormat: "%g", power.brightness)) on a touch (the touch is not delivered)")
        publish("display", ["lit": .bool(true), "dimmed": .bool(false)])
        return true
    }

    /// Sets the brightness in use (`[power] brightness`, the control socket's
    /// `set-brightness`); shown at once unless dimmed or dark.
    public func setBrightness(_ level: Double) {
        power.brightness = min(max(level, 0.05), 1)
        if !isDimmed && !display.isBlanked { setBacklight(power.brightness) }
    }
}
