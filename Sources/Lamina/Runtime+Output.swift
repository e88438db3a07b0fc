import LaminaDisplay
import LaminaGeometry
import LaminaInput
import LaminaRaster

/// Keeping the output alive: refused flips, lost DRM master, connectors coming and going
/// (display-input.md §3, §8, §9).
extension Runtime {
    /// Refusals in a row (other than EBUSY) after which the mode is set again.
    public static let refusalsBeforeModeset = 5

    /// A refused flip, vblank query or vblank request: EBUSY / EINVAL are retried at the
    /// next vblank and logged once per run of failures; EACCES means DRM master is gone, so
    /// output pauses until it comes back.
    func outputRefused(_ error: KMSError) {
        tree.setNeedsCommit()
        if error.isPermissionDenied {
            isOutputPaused = true
            logger.warning("lost DRM master (\(error)): output paused; asking for it again every \(masterRetryInterval) s")
            announceStatus("paused: another client has the display (DRM master lost)")
            scheduler.retryAt = clock.now + masterRetryInterval
            return
        }
        let isFlip = error.call == "drmModePageFlip" || error.call == "drmModeAtomicCommit"
        if isFlip { failedFlips += 1 }
        failuresInARow += 1
        if failuresInARow == 1 {
            logger.warning("\(isFlip ? "page flip" : error.call) refused: \(error); retrying at the next vblank")
        }
        scheduler.retryAt = clock.now + display.frameDuration
        // EBUSY passes by itself; an EINVAL that keeps coming means the CRTC is not as set
        // (another client turned it off or changed it): set the mode again.
        if failuresInARow % Self.refusalsBeforeModeset == 0 && !error.isBusy {
            do {
                try timedDeviceCall("a modeset") { () throws(KMSError) in try display.setModeAgain() }
                logger.notice("display calls refused \(failuresInARow) times in a row: mode set again")
                cursor?.restore()
            } catch {
                logger.warning("display calls keep being refused and setting the mode again failed: \(error)")
            }
        }
    }

    /// A connector came or went: go dark on the virtual output, or light the new panel up
    /// (a new size re-lays the root layer out) and repaint all of it.
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
            return
        case .wentDark:
            logger.notice("display disconnected: running on a virtual \(display.mode.width)x\(display.mode.height) output until one is connected")
            announceStatus("no display connected: drawing on a virtual \(display.mode.width)x\(display.mode.height) output")
        case .lit:
            logger.notice("display connected: \(display.connector.name) \(display.mode.width)x\(display.mode.height) at \(String(cFormat: "%.3f", display.refreshRate)) Hz")
            announceStatus(showingStatus)
            if canvas.target !== display.shadow {
                canvas = Canvas(target: display.shadow)
                placeRoot()
                for source in inputSources { source.panelSize = Size(width: Double(display.width), height: Double(display.height)) }
            }
        }
        scheduler.vblankRequested = false
        scheduler.retryAt = nil
        cursor?.restore()
        blanking.lastInput = clock.now                     // a newly lit panel gets a full idle period
        tree.setNeedsCommit()
    }

    /// The kernel asks to switch away from Lamina's VT: stop drawing, drop DRM master so the
    /// next VT's owner (the console, another compositor) can drive the display, then allow
    /// the switch.
    public func switchAwayForVT() {
        guard !isSwitchedAway else { return }
        isSwitchedAway = true
        isOutputPaused = true
        scheduler.forgetScheduledOutput()
        do {
            try display.deactivate()
        } catch {
            logger.warning("cannot drop DRM master for the VT switch: \(error)")
        }
        inputSources.forEach { $0.suspend() }                // the next VT's owner reads them
        vtSwitch?.allowSwitchAway()
        logger.notice("VT switched away: DRM master dropped, output paused")
        announceStatus("switched away to another VT")
    }

    /// Lamina's VT is shown again: acknowledge, take DRM master back, set the mode and
    /// repaint everything (retried every `masterRetryInterval` while another client still
    /// holds master).
    public func returnFromVTSwitch() {
        guard isSwitchedAway else { return }
        isSwitchedAway = false
        vtSwitch?.acknowledgeReturn()
        inputSources.forEach { $0.resume() }
        blanking.lastInput = clock.now
        resumeOutput()
    }

    /// Asks for DRM master again; with it, sets the mode again and repaints everything.
    func resumeOutput() {
        do {
            try timedDeviceCall("a modeset") { () throws(KMSError) in try display.reactivate() }
        } catch {
            logger.debug("DRM master still unavailable: \(error)")
            scheduler.retryAt = clock.now + masterRetryInterval
            return
        }
        isOutputPaused = false
        cursor?.restore()
        logger.notice("DRM master regained: mode set again, repainting")
        announceStatus(showingStatus)
        tree.setNeedsCommit()
    }

    /// The libinput sources among the touch sources.
    var inputSources: [LibinputSource] { touchSources.compactMap { $0 as? LibinputSource } }

    /// The `STATUS=` text while the display shows.
    var showingStatus: String {
        display.isLit ? "showing \(display.connector.name) \(display.mode.width)x\(display.mode.height)"
            : "no display connected: drawing on a virtual \(display.mode.width)x\(display.mode.height) output"
    }
}
