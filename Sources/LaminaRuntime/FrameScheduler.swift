/// When frames are drawn (architecture.md, "How one frame flows"): each vblank or completed
/// flip, handed over as a value, may start the next frame — at once, or inside the repaint
/// window as late before the following vblank as drawing allows; display links with nothing
/// to draw keep running on requested vblanks; a refused output call is retried after a delay.
/// The runtime asks it what to do and carries it out; it makes no device calls itself.
struct FrameScheduler {
    /// What to do after a vblank.
    enum Action: Equatable {
        /// Draw a frame now for the vblank at `target`.
        case draw(target: Double)
        /// Nothing to draw, but display links run: ask for the next vblank event.
        case requestVBlank
        /// Nothing now (a frame waits in the repaint window, or nothing needs one).
        case none
    }

    /// A vblank event was asked for and has not arrived.
    private(set) var vblankRequested = false
    /// When a refused output call (or a lost DRM master) is tried again.
    private(set) var retryAt: Double?
    /// The frame waiting in the repaint window: when it starts and the vblank it targets.
    private(set) var frameDueAt: (start: Double, target: Double)?
    /// Draw a frame needed after a vblank `repaintBudget` before the next one instead of at
    /// once (Runtime.repaintWindow).
    var repaintWindow = false

    /// No vblank asked for, no retry scheduled, no frame waiting.
    var isIdle: Bool { !vblankRequested && retryAt == nil && frameDueAt == nil }

    /// The earliest time the loop must wake for the scheduler.
    var nextDeadline: Double? {
        switch (retryAt, frameDueAt?.start) {
        case let (retry?, due?): return min(retry, due)
        case let (retry, due): return retry ?? due
        }
    }

    /// A vblank event (not a flip) arrived.
    mutating func vblankArrived() {
        vblankRequested = false
    }

    /// A vblank event was asked of the device; no other is asked for until it arrives.
    mutating func vblankRequestSent() {
        vblankRequested = true
    }

    /// A refused output call (or a lost DRM master) is to be tried again at `time`.
    mutating func retry(at time: Double) {
        retryAt = time
    }

    /// The output changed under the loop (a connector came or went): the vblank asked for
    /// and the retry belong to the old one and are dropped; a frame waiting stays.
    mutating func outputChanged() {
        vblankRequested = false
        retryAt = nil
    }

    /// What follows a vblank at `timestamp`. `canDraw` is false while a flip is in flight or
    /// the output is paused or blanked; `budget` is how long before the vblank a frame in the
    /// repaint window starts. `linksTarget` is the target of the display links that fired at
    /// this vblank when they alone made the frame needed: a link firing on every n-th vblank
    /// (rule 79) targets a later vblank than the next, and its frame is drawn in the interval
    /// before that one (`drawLead` before it), so the flip shows it then.
    mutating func afterVBlank(at timestamp: Double, now: Double, frameDuration: Double, canDraw: Bool,
                              needsFrame: Bool, linksRunning: Bool, linksTarget: Double? = nil,
                              budget: () -> Double) -> Action {
        guard canDraw, retryAt == nil, frameDueAt == nil else { return .none }
        if needsFrame, let linksTarget, linksTarget > timestamp + 1.5 * frameDuration {
            let start = startOfFrame(for: linksTarget, frameDuration: frameDuration, budget: budget)
            // A wake-up meant for the start may come a hair before it (the loop's own
            // arithmetic, the timeout's rounding): that is the start.
            if now < start - Self.startTolerance {
                frameDueAt = (start, linksTarget)
                return .none
            }
            return .draw(target: linksTarget)
        }
        if needsFrame {
            let target = timestamp + frameDuration
            if repaintWindow {
                let start = target - budget()
                if now < start {
                    frameDueAt = (start, target)
                    return .none
                }
            }
            return .draw(target: target)
        }
        return linksRunning && !vblankRequested ? .requestVBlank : .none
    }

    /// How far before a frame's start a wake-up still starts it (half a millisecond: the
    /// start is a quarter of a frame after the vblank before, so drawing this early is safe).
    static let startTolerance = 0.0005

    /// How long before its vblank a frame for a later vblank than the next starts: the repaint
    /// budget with the repaint window (at most three quarters of a frame), else three quarters
    /// of a frame, so it starts a quarter of a frame after the vblank before its own (never
    /// before it, which would show it a vblank early).
    func drawLead(frameDuration: Double, budget: () -> Double) -> Double {
        repaintWindow ? min(budget(), 0.75 * frameDuration) : 0.75 * frameDuration
    }

    /// When a frame for the vblank at `target`, later than the next, starts: `drawLead`
    /// before it (the loop's deferred wake-up and the waiting frame agree on it).
    func startOfFrame(for target: Double, frameDuration: Double, budget: () -> Double) -> Double {
        target - drawLead(frameDuration: frameDuration, budget: budget)
    }

    /// The target vblank of the frame waiting in the repaint window, once it is due (the
    /// frame is then no longer waiting).
    mutating func takeDueFrame(now: Double) -> Double? {
        guard let due = frameDueAt, now >= due.start else { return nil }
        frameDueAt = nil
        return due.target
    }

    /// True once the retry is due (it is then no longer scheduled).
    mutating func takeRetry(now: Double) -> Bool {
        guard let retry = retryAt, now >= retry else { return false }
        retryAt = nil
        return true
    }

    /// Drops the waiting frame, the vblank asked for and the retry: the output stopped
    /// (blanked, switched away) or changed (hotplug) and none of them may fire.
    mutating func forgetScheduledOutput() {
        frameDueAt = nil
        vblankRequested = false
        retryAt = nil
    }
}
