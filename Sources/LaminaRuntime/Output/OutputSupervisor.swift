import FoundationEssentials
import LaminaDisplay
import LaminaGeometry
import LaminaInput
import LaminaSystem
import Logging

/// Keeping the output alive (display-input.md §3, §8, §9): refused flips retried and, when
/// they keep coming, the mode set again; a lost DRM master pauses output and is asked for
/// again; a VT switch drops and retakes master; connectors coming and going; calls into the
/// driver that stall the loop. Owns the output's health; the runtime asks it before drawing.
final class OutputSupervisor {
    /// Refusals in a row (other than EBUSY) after which the mode is set again.
    static let refusalsBeforeModeset = 5
    /// A call into the display driver longer than this is a stall worth a log line.
    static let stallThreshold = 0.5

    private unowned let runtime: Runtime
    /// True while DRM master is lost (VT switched away, or another client took the display).
    private(set) var isPaused = false
    /// How often a paused output asks for DRM master again.
    var masterRetryInterval = 1.0
    /// Answers the kernel's VT switch requests (`VT_PROCESS` mode) when Lamina owns a VT.
    var vtSwitch: VTSwitchAcknowledging?
    /// True between a VT switch away and the return.
    private(set) var isSwitchedAway = false
    /// Flips refused since the last one that worked (one log line per run of failures).
    private var failuresInARow = 0
    /// Page flips the device refused.
    private(set) var failedFlips = 0
    /// Calls into the driver that held the loop longer than `stallThreshold`.
    private(set) var deviceStalls = 0

    init(runtime: Runtime) {
        self.runtime = runtime
    }

    private var display: Display { runtime.display }
    private var logger: Logger { runtime.logger }

    /// Runs one call into the display driver (a flip, a modeset, reading events) and logs
    /// it when the kernel held the loop longer than `stallThreshold` (decision 86): a driver
    /// that blocks (an fbdev pan turned into a blocking atomic commit, a stalled vblank) then
    /// names itself in the journal, and `deviceStalls` counts it. Measured on
    /// CLOCK_MONOTONIC whatever the run's clock, since the stall is real time lost.
    func timedDeviceCall<T, Failure: Error>(_ what: StaticString, _ body: () throws(Failure) -> T) throws(Failure) -> T {
        let start = SystemClock.shared.now
        defer {
            let held = SystemClock.shared.now - start
            if held > Self.stallThreshold {
                deviceStalls += 1
                logger.warning("the display driver held \(what) for \(String(cFormat: "%.2f", held)) s")
            }
        }
        return try body()
    }

    /// A flip was accepted: a run of refusals is over.
    func flipAccepted() {
        guard failuresInARow > 0 else { return }
        logger.notice("page flips work again after \(failuresInARow) refused")
        failuresInARow = 0
    }

    /// A refused flip, vblank query or vblank request: EBUSY / EINVAL are retried at the
    /// next vblank and logged once per run of failures; EACCES means DRM master is gone, so
    /// output pauses until it comes back.
    func refused(_ error: KMSError) {
        runtime.tree.setNeedsCommit()
        let now = runtime.clock.now
        if error.isPermissionDenied {
            isPaused = true
            logger.warning("lost DRM master (\(error)): output paused; asking for it again every \(masterRetryInterval) s")
            runtime.systemd.announceStatus("paused: another client has the display (DRM master lost)")
            runtime.frames.scheduler.retry(at: now + masterRetryInterval)
            return
        }
        let isFlip = error.call == "drmModePageFlip" || error.call == "drmModeAtomicCommit"
        if isFlip { failedFlips += 1 }
        failuresInARow += 1
        if failuresInARow == 1 {
            logger.warning("\(isFlip ? "page flip" : error.call) refused: \(error); retrying at the next vblank")
        }
        runtime.frames.scheduler.retry(at: now + display.frameDuration)
        // EBUSY passes by itself; an EINVAL that keeps coming means the CRTC is not as set
        // (another client turned it off or changed it): set the mode again.
        if failuresInARow % Self.refusalsBeforeModeset == 0 && !error.isBusy {
            do {
                try timedDeviceCall("a modeset") { () throws(KMSError) in try display.setModeAgain() }
                logger.notice("display calls refused \(failuresInARow) times in a row: mode set again")
                runtime.input.cursor?.restore()
            } catch {
                logger.warning("display calls keep being refused and setting the mode again failed: \(error)")
            }
        }
    }

    /// A connector came or went: go dark on the virtual output, or light the new panel up
    /// (the runtime re-lays out for a new size) and repaint all of it.
    func handleHotplug() {
        let change: Display.OutputChange
        do {
            change = try timedDeviceCall("re-reading the connectors") { () throws(DisplayError) in try display.connectorsChanged() }
        } catch {
            logger.error("a display was plugged in but cannot be lit: \(error); staying on the virtual output")
            return
        }
        switch change {
        case .unchanged:
            logger.info("display: connectors re-read after a device event, nothing changed")
            return
        case .wentDark:
            logger.notice("display disconnected: running on a virtual \(display.mode.width)x\(display.mode.height) output until one is connected")
            runtime.systemd.announceStatus("no display connected: drawing on a virtual \(display.mode.width)x\(display.mode.height) output")
            runtime.outputChanged(lit: false)
        case .lit:
            logger.notice("display connected: \(display.connector.name) \(display.mode.width)x\(display.mode.height) at \(String(cFormat: "%.3f", display.refreshRate)) Hz")
            runtime.systemd.announceStatus(showingStatus)
            runtime.outputChanged(lit: true)
        }
    }

    /// The kernel asks to switch away from Lamina's VT: stop drawing, drop DRM master so the
    /// next VT's owner (the console, another compositor) can drive the display, then allow
    /// the switch.
    func switchAway() {
        guard !isSwitchedAway else { return }
        isSwitchedAway = true
        isPaused = true
        runtime.frames.scheduler.forgetScheduledOutput()
        do {
            try display.deactivate()
        } catch {
            logger.warning("cannot drop DRM master for the VT switch: \(error)")
        }
        runtime.touch.suspend()         // the next VT's owner reads them
        vtSwitch?.allowSwitchAway()
        logger.notice("VT switched away: DRM master dropped, output paused")
        runtime.systemd.announceStatus("switched away to another VT")
    }

    /// Lamina's VT is shown again: acknowledge, take DRM master back, set the mode and
    /// repaint everything (retried every `masterRetryInterval` while another client still
    /// holds master).
    func returnFromSwitch() {
        guard isSwitchedAway else { return }
        isSwitchedAway = false
        vtSwitch?.acknowledgeReturn()
        runtime.touch.resume()
        runtime.displayPower.noteActivity(at: runtime.clock.now)
        resume()
    }

    /// Asks for DRM master again; with it, sets the mode again and repaints everything.
    func resume() {
        do {
            try timedDeviceCall("a modeset") { () throws(KMSError) in try display.reactivate() }
        } catch {
            logger.debug("DRM master still unavailable: \(error)")
            runtime.frames.scheduler.retry(at: runtime.clock.now + masterRetryInterval)
            return
        }
        isPaused = false
        runtime.input.cursor?.restore()
        logger.notice("DRM master regained: mode set again, repainting")
        runtime.systemd.announceStatus(showingStatus)
        runtime.tree.setNeedsCommit()
    }

    /// The `STATUS=` text while the display shows.
    var showingStatus: String {
        display.isLit ? "showing \(display.connector.name) \(display.mode.width)x\(display.mode.height)"
            : "no display connected: drawing on a virtual \(display.mode.width)x\(display.mode.height) output"
    }
}
