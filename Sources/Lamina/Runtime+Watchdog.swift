import LaminaDisplay

/// The systemd watchdog fed by the display (issue 7): `WATCHDOG=1` goes out when a page flip
/// or a vblank event completes, at most every half period, so a display loop that stops
/// flipping stops the pings and systemd restarts the service. An idle screen produces no
/// flips, so every half period without one the runtime asks the display for a vblank event
/// and pings when it arrives. Dark on purpose (blanked, switched to another VT, no panel
/// connected) counts as healthy and pings on the timer; a lost DRM master does not.
extension Runtime {
    /// A flip or vblank completed: the display loop is alive.
    func displayProgressed(at now: Double) {
        if watchdog.pingDue(onProgressAt: now) { pingWatchdog(at: now) }
    }

    private func pingWatchdog(at now: Double) {
        notifier?.notify("WATCHDOG=1")
        watchdog.pinged(at: now)
    }

    /// At the half period without progress: ping for a screen dark on purpose, probe an idle
    /// one with a vblank request, and stay silent while the output is lost.
    func checkWatchdog(now: Double) {
        guard watchdog.takeCheck(at: now) else { return }
        workDone = true
        if display.isBlanked || isSwitchedAway || !display.isLit {
            pingWatchdog(at: now)
            return
        }
        guard !isOutputPaused else { return }                      // master lost: let systemd see it
        guard isIdle else { return }                               // a flip or request is in flight
        do {
            try display.requestVBlank()
            scheduler.vblankRequested = true
        } catch {
            outputRefused(error)
        }
    }

    /// Tells systemd what the service is doing (`STATUS=`), shown by `systemctl status`.
    func announceStatus(_ text: String) {
        notifier?.notify("STATUS=\(text)")
    }
}
