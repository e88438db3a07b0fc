/// A timer on the runtime's clock (Foundation's `Timer`, scheduled on the run loop): its
/// action runs in the loop's input phase once `interval` has passed, and again every
/// `interval` when it repeats, until invalidated. A repeating timer whose firings were
/// missed (the loop was busy, the clock jumped) fires once and keeps its grid. Made by
/// ``SceneContext/addTimer(interval:repeats:_:)``; invalidated with the scene.
///
/// What a timer changes is committed with the turn it fires in. Unlike a display link it
/// wakes the loop only when due, so a caret blinking twice a second costs two wakeups a
/// second, not sixty frames.
public final class SceneTimer {
    /// Seconds between the timer's creation (or last firing) and its next firing.
    public let interval: Double
    /// Whether it fires again after each firing.
    public let repeats: Bool
    /// When it fires next, on the runtime's clock.
    public private(set) var fireTime: Double
    /// False once invalidated, or after a one-shot timer fired.
    public private(set) var isValid = true
    private var action: ((SceneTimer) -> Void)?

    init(interval: Double, repeats: Bool, now: Double, action: @escaping (SceneTimer) -> Void) {
        precondition(interval.isFinite && interval >= 0, "a timer's interval is a finite number of seconds, not \(interval)")
        precondition(!repeats || interval > 0, "a repeating timer's interval is more than zero")
        self.interval = interval
        self.repeats = repeats
        self.fireTime = now + interval
        self.action = action
    }

    /// Stops the timer for good and drops its action (and what the action captured).
    public func invalidate() {
        isValid = false
        action = nil
    }

    /// Runs the action if due by `now`; a repeating timer moves on to its next slot after `now`.
    func fire(ifDueBy now: Double) {
        guard isValid, fireTime <= now, let action else { return }
        if repeats {
            let missed = ((now - fireTime) / interval).rounded(.down)
            fireTime += (missed + 1) * interval
        } else {
            invalidate()
        }
        action(self)
    }
}

/// The scene's timers, fired by the runtime's loop.
final class SceneTimers {
    private var timers: [SceneTimer] = []

    /// Adds `timer`, dropping those invalidated since (so timers made and invalidated before
    /// any fires do not pile up).
    func add(_ timer: SceneTimer) {
        timers.removeAll { !$0.isValid }
        timers.append(timer)
    }

    /// When the earliest valid timer fires.
    var nextFireTime: Double? { timers.lazy.filter(\.isValid).map(\.fireTime).min() }

    /// True while a one-shot timer is pending: something will still happen.
    var hasPendingOneShot: Bool { timers.contains { $0.isValid && !$0.repeats } }

    /// Fires every timer due by `now` (each at most once) and drops invalid ones; returns
    /// whether any fired.
    func fire(upTo now: Double) -> Bool {
        guard timers.contains(where: { $0.isValid && $0.fireTime <= now }) else { return false }   // no array made per wake-up
        let due = timers.filter { $0.isValid && $0.fireTime <= now }
        for timer in due { timer.fire(ifDueBy: now) }
        timers.removeAll { !$0.isValid }
        return !due.isEmpty
    }

    /// Invalidates every timer (a scene being replaced).
    func invalidateAll() {
        for timer in timers { timer.invalidate() }
        timers.removeAll()
    }
}

/// The scene's timers on the loop: the earliest fire time wakes it; they fire in the input
/// phase, before the turn's commit.
extension SceneTimers: LoopSource {
    var phase: LoopPhase { .input }
    func nextDeadline(now: Double) -> Double? { nextFireTime }
    func service(now: Double) -> Bool { fire(upTo: now) }
}
