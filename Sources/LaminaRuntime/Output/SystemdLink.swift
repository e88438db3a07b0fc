import LaminaDisplay

/// What systemd hears from the runtime: `READY=1` once the first frame is on screen (its flip
/// completed), `STATUS=` lines, and the watchdog fed by the display (issue 7). `WATCHDOG=1`
/// goes out when a page flip or a vblank event completes, at most every half period, so a
/// display loop that stops flipping stops the pings and systemd restarts the service. An idle
/// screen produces no flips, so every half period without one it asks the display for a
/// vblank event and pings when it arrives. Dark on purpose (blanked, switched to another VT,
/// no panel connected) counts as healthy and pings on the timer; a lost DRM master does not.
final class SystemdLink: LoopSource {
    private unowned let runtime: Runtime
    /// Where the notifications go; nil outside systemd.
    var notifier: SystemdNotifier? {
        didSet { watchdog.interval = notifier?.watchdogInterval }
    }
    /// When the watchdog is fed.
    private(set) var watchdog: WatchdogSchedule
    private var announcedReady = false

    init(runtime: Runtime, start: Double) {
        self.runtime = runtime
        watchdog = WatchdogSchedule(start: start)
    }

    /// The watchdog period, nil without one (`WatchdogSec=`).
    var watchdogInterval: Double? {
        get { watchdog.interval }
        set { watchdog.interval = newValue }
    }

    /// Tells systemd what the service is doing (`STATUS=`), shown by `systemctl status`.
    func announceStatus(_ text: String) {
        notifier?.notify("STATUS=\(text)")
    }

    /// A flip or vblank completed at `now`: the display loop is alive; the first flip makes
    /// the service ready.
    func displayProgressed(at now: Double, flipped: Bool) {
        if watchdog.pingDue(onProgressAt: now) { ping(at: now) }
        if flipped && !announcedReady {
            announcedReady = true
            notifier?.notify("READY=1\nSTATUS=\(runtime.output.showingStatus)")
        }
    }

    /// The panel was turned off before any frame was flipped (an idle timeout shorter than
    /// the first frame takes on a loaded machine): the daemon is up and says so, or systemd
    /// would wait for READY=1 forever.
    func displayBlanked() {
        guard !announcedReady else { return }
        announcedReady = true
        notifier?.notify("READY=1")
    }

    private func ping(at now: Double) {
        notifier?.notify("WATCHDOG=1")
        watchdog.pinged(at: now)
    }

    // MARK: The loop

    let phase = LoopPhase.end

    func nextDeadline(now: Double) -> Double? { watchdog.checkTime }

    /// At the half period without progress: ping for a screen dark on purpose, probe an idle
    /// one with a vblank request, and stay silent while the output is lost.
    func service(now: Double) -> Bool {
        guard watchdog.takeCheck(at: now) else { return false }
        let display = runtime.display
        if display.isBlanked || runtime.output.isSwitchedAway || !display.isLit {
            ping(at: now)
            return true
        }
        guard !runtime.output.isPaused else { return true }        // master lost: let systemd see it
        guard runtime.isIdle else { return true }                  // a flip or request is in flight
        do {
            try display.requestVBlank()
            runtime.frames.scheduler.vblankRequestSent()
        } catch {
            runtime.output.refused(error)
        }
        return true
    }
}
