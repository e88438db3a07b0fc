import FoundationEssentials
import LaminaDisplay
import LaminaInput
import Logging

/// The panel's power (`[power]`, display-input.md §10): idle blanking (DPMS off after
/// `blankAfter` seconds without input, until a touch), the backlight dimmed after idle, the
/// screensaver scene, and the daily schedule that turns the screen off. A touch that brings
/// the panel, the light or the scene back is swallowed until every finger has lifted, so it
/// cannot press a button the user could not see. Serviced between flips, after the display's
/// events; its deadlines wake the loop.
final class DisplayPower: LoopSource {
    /// Seconds a touch keeps the screen on during the scheduled off time.
    static let scheduleWakeSeconds = 60.0

    private unowned let runtime: Runtime
    /// When input last came, the touches being swallowed, and how often the panel was dark.
    private var blanking: IdleBlanking
    /// The control socket asked for the panel off while a flip was pending: done once it lands.
    private var blankRequested = false
    /// The panel's backlight, or nil when there is none to drive.
    var backlight: Backlight?
    /// Brightness, dimming, the screensaver's delay and the daily schedule.
    var settings = PowerSettings()
    /// The time of day, seconds after local midnight (tests replace it).
    var timeOfDay: () -> Double = WallClock.secondsSinceLocalMidnight
    /// Shows (true) or takes away (false) the screensaver scene; set by the daemon.
    var onScreensaver: ((Bool) -> Void)?
    /// The screensaver scene is showing (until a touch).
    private(set) var isScreensaverShowing = false
    /// Dimmed after idle (the light at `settings.dimLevel`) until a touch.
    private var isDimmed = false
    /// The panel is off because of the schedule.
    private var isScheduledOff = false
    /// A touch turned the panel on during the scheduled off time.
    private var scheduleWokenByTouch = false

    init(runtime: Runtime, start: Double) {
        self.runtime = runtime
        blanking = IdleBlanking(start: start)
    }

    private var display: Display { runtime.display }
    private var logger: Logger { runtime.logger }

    /// Seconds without input after which the panel blanks; nil never blanks.
    var blankAfter: Double? {
        get { blanking.after }
        set { blanking.after = newValue }
    }
    /// Times the panel was blanked.
    var blankCount: Int { blanking.count }
    /// Seconds the panel spent blanked in all.
    var blankedSeconds: Double { blanking.seconds }

    /// Someone is at the kiosk (a key, a newly lit panel, a VT switch back): idle time
    /// counts from `time`.
    func noteActivity(at time: Double) {
        blanking.lastInput = time
    }

    // MARK: The loop

    let phase = LoopPhase.display

    func nextDeadline(now: Double) -> Double? {
        [blankDueAt, dimDueAt, screensaverDueAt, scheduleDueAt].lazy.compactMap { $0 }.min()
    }

    func service(now: Double) -> Bool {
        let blanked = blankIfIdle(now: now)
        return applySchedule(now: now) || blanked
    }

    // MARK: Idle blanking

    /// When the panel is due to blank (nil: never, already dark, or a flip is in flight,
    /// whose event wakes the loop anyway).
    private var blankDueAt: Double? {
        guard !display.isBlanked, !runtime.output.isPaused, !display.isFlipPending else { return nil }
        return blankRequested ? runtime.clock.now : blanking.dueAt
    }

    /// Blanks the panel when the idle time is up and no flip is in flight; true when it did.
    @discardableResult
    func blankIfIdle(now: Double) -> Bool {
        guard let due = blankDueAt, now >= due else { return false }
        if blankRequested {
            blankRequested = false
            return blankNow(reason: "over the control socket", status: "control socket")
        }
        return blankNow(reason: "after \(String(cFormat: "%g", blankAfter ?? 0)) s without a touch", status: "idle")
    }

    /// Turns the panel off (true) or on (false) when asked from outside (`reason`: "over
    /// the control socket"). Off waits for the next turn without a flip in flight when one
    /// is in flight or the output is paused (`.pending`); on forgets such a wait. Nil when the
    /// device refused.
    func setBlanked(_ blanked: Bool, reason: String, status: String) -> BlankRequestOutcome? {
        let display = runtime.display
        if blanked {
            guard !display.isBlanked else { return .done }
            guard !display.isFlipPending && !runtime.output.isPaused else {
                blankRequested = true                       // carried out after the flip in flight lands
                return .pending
            }
            return blankNow(reason: reason, status: status) ? .done : nil
        }
        blankRequested = false
        guard display.isBlanked else { return .done }
        return wakeNow(reason: reason) ? .done : nil
    }

    /// Turns the panel off (DPMS) until a touch or `wakeNow`; false when the device refused
    /// (then idle blanking tries again after another idle period).
    @discardableResult
    func blankNow(reason: String, status: String) -> Bool {
        let now = runtime.clock.now
        do {
            try runtime.output.timedDeviceCall("turning the panel off") { () throws(KMSError) in try display.blank() }
        } catch {
            logger.warning("cannot blank the display: \(error); trying again after another idle period")
            blanking.lastInput = now
            return false
        }
        runtime.frames.scheduler.forgetScheduledOutput()
        blanking.blanked(at: now)
        setBacklight(0)
        isDimmed = false
        logger.info("display blanked \(reason)")
        runtime.systemd.displayBlanked()
        runtime.systemd.announceStatus("blanked (\(status)); a touch wakes it")
        runtime.publish("display", ["lit": .bool(false)])
        return true
    }

    /// Whether `event` reaches the scene: a touch that wakes the panel, restores the light
    /// or takes the screensaver away is swallowed with every touch down beside it.
    func admit(_ event: TouchEvent) -> Bool {
        if runtime.output.isSwitchedAway { return false }          // another VT has the screen
        blanking.lastInput = runtime.clock.now
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

    /// A moving mouse is someone at the kiosk: it keeps the panel from dimming or blanking,
    /// and wakes it as a touch would (but has nothing to swallow).
    func pointerMoved(at now: Double) {
        blanking.lastInput = now
        if display.isBlanked {
            if touchMayWake() { wakeNow(reason: "by the pointer") }
        } else {
            _ = undimForTouch() || dismissScreensaverForTouch()
        }
    }

    /// Turns the panel back on showing the last frame, the light at the brightness in use;
    /// the next frame (animations moved on while dark) follows at once. False when the device
    /// refused.
    @discardableResult
    func wakeNow(reason: String) -> Bool {
        do {
            try runtime.output.timedDeviceCall("turning the panel on") { () throws(KMSError) in try display.unblank() }
        } catch {
            logger.warning("cannot turn the display back on: \(error)")
            return false
        }
        blanking.woke(at: runtime.clock.now)
        setBacklight(settings.brightness)
        logger.info("display woken \(reason)")
        runtime.systemd.announceStatus(runtime.output.showingStatus)
        runtime.tree.setNeedsCommit()
        runtime.publish("display", ["lit": .bool(true)])
        return true
    }

    // MARK: The backlight, the screensaver and the schedule

    /// When the light should dim, or nil.
    private var dimDueAt: Double? {
        guard backlight != nil, !isDimmed, !display.isBlanked, let after = settings.dimAfter else { return nil }
        return blanking.lastInput + after
    }

    /// When the screensaver scene should replace the scene, or nil.
    private var screensaverDueAt: Double? {
        guard onScreensaver != nil, !isScreensaverShowing, !display.isBlanked, let after = settings.screensaverAfter else { return nil }
        return blanking.lastInput + after
    }

    /// When the schedule next needs a look: now when it should act, else its next boundary
    /// (at most an hour ahead, so a changed wall clock is noticed).
    private var scheduleDueAt: Double? {
        // A flip in flight wakes the loop anyway; acting waits for it (as idle blanking does).
        guard let schedule = settings.scheduleOff, !display.isFlipPending, !runtime.output.isPaused else { return nil }
        let now = runtime.clock.now, time = timeOfDay()
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
    private func setBacklight(_ level: Double) {
        guard let backlight else { return }
        do {
            try backlight.set(level)
        } catch {
            logger.warning("backlight: \(error)")
        }
    }

    /// Takes the screensaver away on a touch (which it spends); true when it did.
    private func dismissScreensaverForTouch() -> Bool {
        guard isScreensaverShowing, let onScreensaver else { return false }
        isScreensaverShowing = false
        onScreensaver(false)
        logger.info("screensaver dismissed by a touch (the touch is not delivered)")
        return true
    }

    /// Dims after idle, shows the screensaver, and follows the schedule (between flips, like
    /// idle blanking); true when the schedule blanked the panel.
    private func applySchedule(now: Double) -> Bool {
        if let due = screensaverDueAt, now >= due, let onScreensaver {
            isScreensaverShowing = true
            onScreensaver(true)
            logger.info("screensaver after \(String(cFormat: "%g", settings.screensaverAfter ?? 0)) s without a touch")
        }
        if let due = dimDueAt, now >= due {
            isDimmed = true
            setBacklight(settings.dimLevel)
            logger.info("backlight dimmed to \(String(cFormat: "%g", settings.dimLevel)) after \(String(cFormat: "%g", settings.dimAfter ?? 0)) s without a touch")
            runtime.publish("display", ["lit": .bool(true), "dimmed": .bool(true)])
        }
        guard let schedule = settings.scheduleOff, let due = scheduleDueAt, now >= due, !display.isFlipPending else { return false }
        if schedule.contains(timeOfDay()) {
            guard !display.isBlanked else { return false }
            if blankNow(reason: "for the scheduled off time (\(schedule))", status: "scheduled off \(schedule)") {
                isScheduledOff = true
                scheduleWokenByTouch = false
                return true
            }
            scheduleWokenByTouch = true                        // refused: try again after the wake minute
            blanking.lastInput = now
        } else if isScheduledOff {
            isScheduledOff = false
            scheduleWokenByTouch = false
            wakeNow(reason: "at the end of the scheduled off time (\(schedule))")
        }
        return false
    }

    /// A touch while dimmed brings the light back and is swallowed; during the scheduled off
    /// time it turns the screen on only if the schedule allows. Returns false when the touch
    /// must not wake the screen.
    private func touchMayWake() -> Bool {
        guard isScheduledOff else { return true }
        guard settings.scheduleTouchWakes else { return false }
        isScheduledOff = false
        scheduleWokenByTouch = true
        return true
    }

    /// Restores the light from dimmed on a touch; true when the touch was spent on that.
    private func undimForTouch() -> Bool {
        guard isDimmed else { return false }
        isDimmed = false
        setBacklight(settings.brightness)
        logger.info("backlight back to \(String(cFormat: "%g", settings.brightness)) on a touch (the touch is not delivered)")
        runtime.publish("display", ["lit": .bool(true), "dimmed": .bool(false)])
        return true
    }

    /// Sets the brightness in use; shown at once unless dimmed or dark.
    func setBrightness(_ level: Double) {
        settings.brightness = min(max(level, 0.05), 1)
        if !isDimmed && !display.isBlanked { setBacklight(settings.brightness) }
    }
}

/// What became of a request to turn the panel off or on (`Runtime.setBlanked`).
package enum BlankRequestOutcome {
    /// The panel is as asked.
    case done
    /// It goes off at the next turn without a flip in flight.
    case pending
}
