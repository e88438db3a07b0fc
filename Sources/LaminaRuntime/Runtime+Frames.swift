import LaminaDisplay
import LaminaGeometry
import LaminaRaster

/// A frame: what follows a vblank, and drawing, presenting and recording the tree.
extension Runtime {
    /// No flip in flight, output neither paused nor blanked.
    var canDraw: Bool { !display.isFlipPending && !output.isPaused && !display.isBlanked }

    /// Carries out what the scheduler says follows the vblank at `timestamp`; true when the
    /// panel was blanked on the way. `linksTarget` is the target of the display links that
    /// fired at it, when they alone made the frame needed.
    @discardableResult
    func produceFrame(after timestamp: Double, linksTarget: Double? = nil) -> Bool {
        let blanked = displayPower.blankIfIdle(now: clock.now)   // between flips: an animation does not keep the panel on
        let action = frames.scheduler.afterVBlank(at: timestamp, now: clock.now, frameDuration: display.frameDuration,
                                           canDraw: canDraw, needsFrame: tree.needsFrame,
                                           linksRunning: links.hasActiveLinks, linksTarget: linksTarget,
                                           budget: { currentRepaintBudget })
        switch action {
        case .draw(let target):
            renderFrame(targetTimestamp: target)
        case .requestVBlank:
            do {
                try output.timedDeviceCall("a vblank request") { () throws(KMSError) in try display.requestVBlank() }
                frames.scheduler.vblankRequestSent()
            } catch {
                output.refused(error)
            }
        case .none:
            break
        }
        return blanked
    }

    /// When the loop may leave the display's next event unread and sleep until the frame after
    /// it is to be drawn: a flip is in flight, nothing but display links needs frames, and
    /// every running link fires on every n-th vblank only (a 30 fps video on a 60 Hz panel,
    /// rule 79). The flip's completion would fire no link and draw nothing; read together
    /// with the frame's start instead, it costs no wake-up of its own, which halves a 30 fps
    /// video's wake-ups. Nil when the events must be handled as they come.
    var displayEventsDeferral: Double? {
        guard display.isFlipPending, frames.scheduler.isIdle, !tree.needsFrame, !output.isPaused, !display.isBlanked,
              let last = display.lastVBlank,
              let sequence = links.nextTargetSequence(refreshRate: display.refreshRate), sequence > last.sequence else { return nil }
        let target = last.timestamp + Double(sequence - last.sequence) * display.frameDuration
        let start = frames.scheduler.startOfFrame(for: target, frameDuration: display.frameDuration, budget: { currentRepaintBudget })
        return start > clock.now ? start : nil
    }

    /// How long before the vblank a frame in the repaint window starts.
    var currentRepaintBudget: Double {
        if let repaintBudget = frames.repaintBudget { return repaintBudget }
        return max(0.002, 1.5 * (telemetry.recentFrameCosts.values.max() ?? display.frameDuration) + 0.001)
    }

    /// Evaluate the committed tree at `targetTimestamp`, draw, flip; then the animation
    /// callbacks.
    func renderFrame(targetTimestamp: Double) {
        let timingClock = frames.timingClock
        var cost = FrameCost()
        cost.commit = frames.pendingCommitCost
        frames.pendingCommitCost = 0
        let start = timingClock?.now
        let callbacks = tree.updatePresentation(at: targetTimestamp)
        if let start, let end = timingClock?.now { cost.presentation = end - start }
        // Only what changed is drawn and copied out (rule 80's damage; the shadow keeps the
        // last frame).
        var damage = PixelRect(width: 0, height: 0)
        let drawn = frames.draw(tree, on: display, cost: &cost)
        if let changed = drawn.damage {
            damage = changed
            telemetry.frameDrawn(damagedPixels: drawn.regions.reduce(0) { $0 + $1.area })
        }
        let presentStart = timingClock?.now
        var presented = false
        do {
            try output.timedDeviceCall("a page flip") { () throws(KMSError) in
                try display.present(damage: damage, regions: drawn.regions, overlay: drawn.overlay, target: targetTimestamp)
            }
            noteOverlay(drawn.overlay, image: drawn.overlayImage)
            output.flipAccepted()
            telemetry.frameHandedOver()                          // its inputs and request show with this flip
            presented = true
        } catch {
            output.refused(error)
        }
        if let presentStart, let end = timingClock?.now {
            cost.present = end - presentStart
            telemetry.frameCost(cost.displayList + cost.paint + cost.present)
        }
        if presented, let recorder = frames.recorder {            // timed apart: recording is not drawing
            let recordStart = timingClock?.now
            recorder.record(display.shadow)
            if let recordStart, let end = timingClock?.now {
                cost.record = end - recordStart
                telemetry.frameRecorded(cost.record)
            }
        }
        if timingClock != nil { frames.onFrameCost?(cost) }
        for callback in callbacks { callback() }
    }

    /// Logs when video goes onto the overlay plane, moves, or comes back to composition, and
    /// tells the videos what the plane shows (a video on it may write its frames into the
    /// plane's memory).
    func noteOverlay(_ placement: PlanePlacement?, image: PixelBuffer?) {
        if placement != nil { frames.overlayFrames += 1 }
        videos.forEach { $0.overlayPlaneShowed(image, on: display) }
        let before = frames.overlayShown
        frames.overlayShown = placement
        switch (before, placement) {
        case (nil, let now?):
            logger.info("video on overlay plane \(now.plane): \(Int(now.source.width))x\(Int(now.source.height)) at \(now.destination)")
        case (let was?, let now?) where was.destination != now.destination || was.source != now.source:
            logger.info("video on overlay plane \(now.plane) moved: \(Int(now.source.width))x\(Int(now.source.height)) at \(now.destination)")
        case (_?, nil):
            logger.info("video composited again")
        default:
            break
        }
        if let refusal = display.overlayRefusal?.description, refusal != frames.overlayRefusalLogged {
            frames.overlayRefusalLogged = refusal
            logger.info("the overlay plane was refused, video composited: \(refusal)")
        }
    }
}
