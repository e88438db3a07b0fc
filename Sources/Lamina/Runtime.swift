#if canImport(Glibc)
import Glibc
#endif
import LaminaDisplay
import LaminaGeometry
import LaminaInput
import LaminaLayers
import LaminaRaster
import Logging

/// The running runtime: one display, its layer tree, display links and touch input, driven
/// by one event loop (architecture.md, "How one frame flows").
///
/// Frames are paced by vblank events: after each flip or requested vblank the display links
/// run, then, if anything changed or animates, the tree is committed, evaluated at the
/// frame's `targetTimestamp`, drawn into the shadow buffer and flipped. When nothing
/// animates, nothing is dirty and no link is running, no frame is produced and the loop
/// sleeps until input or a deadline.
public final class Runtime {
    public let clock: MonotonicClock
    /// How the loop waits: `poll(2)` in real time, jumps on a virtual clock (the clock's).
    public let loop: EventLoop
    public let display: Display
    public let tree: LayerTree
    public let links = DisplayLinks()
    public let dispatcher: TouchDispatcher
    public let renderer = Renderer()
    public var background: Color
    /// Receives every presented frame when set.
    public var recorder: FrameRecorder?
    public var logger: Logger

    var canvas: Canvas
    var touchSources: [TouchSource] = []
    var vblankRequested = false
    var retryAt: Double?
    var signals: SignalWatcher?
    var stopRequested = false
    /// The run's measurements (RunStats), an observer in fixed memory (decision 88).
    private(set) var telemetry: RunTelemetry
    /// Flips completed, their cadence and the kernel's timestamps of the most recent ones.
    public var flipCadence: FlipCadence { telemetry.flipCadence }
    /// How many flips completed.
    public var flipCount: Int { telemetry.flipCadence.count }
    /// The kernel's timestamps of the most recent completed flips (up to
    /// `FlipCadence.recentCapacity`), oldest first.
    public var recentFlipTimestamps: [Double] { Array(telemetry.flipCadence.recent) }
    /// Set by anything `step` handled (input, a display event, a frame).
    var workDone = false
    /// Receives every key press and release from libinput.
    public var keyHandler: ((KeyEvent) -> Void)?
    /// Turns keys into text (an xkbcommon keymap); with it, `textInputHandler` receives
    /// what is typed, key repeat included.
    public var keyboard: Keyboard?
    /// Receives typed text and editing keys (the focused text field).
    public var textInputHandler: ((TextInput) -> Void)?
    /// Called on SIGHUP (when signals are watched): the daemon reloads its configuration.
    public var onReload: (() -> Void)?
    /// Called on SIGUSR1 (when signals are watched): by default logs the stats.
    public var onStatsRequest: (() -> Void)?

    /// When set, the time each frame spends drawing and copying into the scanout buffer and
    /// flipping is measured on this clock (the stats' `renderMs`, the repaint budget): for
    /// benchmarks and the daemon, never for tests.
    public var timingClock: MonotonicClock?
    /// Receives each measured frame's drawing and present times in seconds (benchmarks keep
    /// their own series; the runtime keeps only a distribution and the last 60).
    public var onFrameTimed: ((_ raster: Double, _ present: Double) -> Void)?

    /// Told `READY=1` when the first frame is on screen (its flip completed), not merely
    /// drawn; `WATCHDOG=1` as flips (or, idle, probing vblanks) complete; `STATUS=` lines.
    public var notifier: SystemdNotifier? {
        didSet { watchdog.interval = notifier?.watchdogInterval }
    }
    /// When the systemd watchdog is fed (Runtime+Watchdog.swift).
    var watchdog: WatchdogSchedule
    /// The systemd watchdog period, nil without one (`WatchdogSec=`).
    public var watchdogInterval: Double? {
        get { watchdog.interval }
        set { watchdog.interval = newValue }
    }
    /// Watchdog pings sent.
    public var watchdogPings: Int { watchdog.pings }
    private var announcedReady = false

    /// Frames drawn and handed to the display.
    public var renderedFrames: Int { telemetry.renderedFrames }
    /// Pixels redrawn over the run (the damage of every frame).
    public var damagedPixels: Int { telemetry.damagedPixels }
    /// Calls into the display driver that held the loop longer than half a second (logged).
    public internal(set) var deviceStalls = 0
    /// Page flips the device refused (logged and retried).
    public internal(set) var failedFlips = 0
    /// The repaint window: when on, a frame needed after a vblank is drawn as late before the
    /// next vblank as drawing allows (`repaintBudget` before it), not at once, so input that
    /// arrives meanwhile still reaches the next flip. Off, frames start at the vblank.
    public var repaintWindow = false
    /// Seconds before the vblank a frame starts inside the repaint window; nil measures it:
    /// 1.5 x the slowest of the last 60 frames' draw + copy + flip times (`timingClock`),
    /// plus 1 ms, at least 2 ms. A budget of a whole frame or more draws at once.
    public var repaintBudget: Double?
    /// When the frame waiting in the repaint window is due, and the vblank it targets.
    var frameDueAt: (start: Double, target: Double)?

    /// Flips refused since the last one that worked (one log line per run of failures).
    var failuresInARow = 0
    /// True while DRM master is lost (VT switched away, or another client took the display):
    /// no frames are drawn; master is asked for again every `masterRetryInterval`.
    public internal(set) var isOutputPaused = false
    /// How often a paused output asks for DRM master again.
    public var masterRetryInterval = 1.0
    /// Answers the kernel's VT switch requests (`VT_PROCESS` mode) when Lamina owns a VT.
    public var vtSwitch: VTSwitchAcknowledging?
    /// True between a VT switch away and the return: master is dropped, nothing is drawn.
    public internal(set) var isSwitchedAway = false

    /// Idle blanking's state (Runtime+Power.swift).
    var blanking: IdleBlanking
    /// Seconds without a touch after which the panel is blanked (DPMS off) until the next
    /// touch; nil never blanks (the default: display-input.md §10).
    public var blankAfter: Double? {
        get { blanking.after }
        set { blanking.after = newValue }
    }
    /// Times the panel was blanked, and for how long in all.
    public var blankCount: Int { blanking.count }
    public var blankedSeconds: Double { blanking.seconds }

    /// The screen's root layer: bounds the display's size, anchored at its centre.
    public var rootLayer: Layer { tree.root }
    /// The display's size in points (one point per pixel for now).
    public var screenSize: Size {
        rotation % 180 == 0 ? Size(width: Double(display.width), height: Double(display.height))
                            : Size(width: Double(display.height), height: Double(display.width))
    }

    /// Clockwise rotation of the picture on the panel (0, 90, 180, 270), drawn in software:
    /// the root layer takes the rotated size (`screenSize`) and turns onto the panel, so
    /// scenes lay out upright and hit testing of panel positions follows the same turn.
    public var rotation = 0 {
        didSet {
            precondition([0, 90, 180, 270].contains(rotation), "rotation is 0, 90, 180 or 270")
            placeRoot()
        }
    }

    /// The rotation to draw at: the configured one plus what the connector's `panel
    /// orientation` says the panel needs (display-input.md §7).
    public static func effectiveRotation(configured: Int, panel: PanelOrientation?) -> Int {
        (configured + (panel?.rotation ?? 0)) % 360
    }

    func placeRoot() {
        let size = screenSize
        Transaction.begin()
        Transaction.disableActions = true
        tree.root.bounds = Rect(x: 0, y: 0, width: size.width, height: size.height)
        tree.root.position = Point(x: Double(display.width) / 2, y: Double(display.height) / 2)
        tree.root.transform = Transform3D(rotationAngle: Double(rotation) * .pi / 180, x: 0, y: 0, z: 1)
        Transaction.commit()
        let root = tree.root
        dispatcher.panelToLogical = { root.convertFromSuperlayer($0) ?? $0 }
    }

    /// A runtime on `display`, reading time from `clock` (a `VirtualClock` for tests and
    /// offline runs), clearing to `background` behind the root layer.
    public init(display: Display, clock: MonotonicClock, background: Color, logger: Logger) {
        self.display = display
        self.clock = clock
        loop = clock.makeEventLoop()
        self.background = background
        self.logger = logger
        telemetry = RunTelemetry(startTime: clock.now)
        watchdog = WatchdogSchedule(start: clock.now)
        blanking = IdleBlanking(start: clock.now)
        let root = Layer()
        root.name = "root"
        root.bounds = Rect(x: 0, y: 0, width: Double(display.width), height: Double(display.height))
        root.position = Point(x: Double(display.width) / 2, y: Double(display.height) / 2)
        tree = LayerTree(root: root)
        dispatcher = TouchDispatcher(tree: tree)
        canvas = Canvas(target: display.shadow)
        dispatcher.report = { [logger] message in logger.warning("\(message)") }
    }

    /// A display link calling `callback` once per frame until paused or invalidated.
    public func addDisplayLink(_ callback: @escaping (DisplayLink) -> Void) -> DisplayLink {
        links.add(callback)
    }

    /// The installed scene, owned by the runtime until `removeScene`, which also releases
    /// every closure the scene registered (so closures capturing it cannot keep it alive).
    public internal(set) var scene: (any Scene)?

    /// Feeds `source`'s touches (libinput or a script) through the dispatcher.
    public func addTouchSource(_ source: TouchSource) {
        touchSources.append(source)
    }

    /// Why `run` returned.
    public enum StopReason: String, Sendable {
        /// Input is exhausted and nothing animates (only with `untilSettled`).
        case settled
        /// `exitAfter` elapsed.
        case timeLimit
        /// SIGINT or SIGTERM.
        case signal
        /// A virtual clock with nothing left that could ever happen.
        case nothingPending
    }

    /// No flip or vblank is outstanding and no retry is scheduled.
    public var isIdle: Bool { !display.isFlipPending && !vblankRequested && retryAt == nil && frameDueAt == nil }

    /// Idle, nothing to draw, no running link, no finger down, no scripted input left.
    public var isSettled: Bool {
        isIdle && !tree.needsFrame && !links.hasActiveLinks && !dispatcher.hasActiveTouches && dispatcher.nextDeadline == nil
            && touchSources.allSatisfy(\.isSettled) && display.nextEventTime == nil
    }

    /// Runs the loop. On a virtual clock time jumps from one event to the next.
    @discardableResult
    public func run(exitAfter: Double? = nil, untilSettled: Bool) -> StopReason {
        let deadline = exitAfter.map { clock.now + $0 }
        wakeIfNeeded()
        while true {
            if stopRequested { return .signal }
            if untilSettled && isSettled { return .settled }
            if let deadline, clock.now >= deadline { return .timeLimit }
            var candidates: [Double] = touchSources.compactMap(\.nextEventTime)
            if let t = display.nextEventTime { candidates.append(t) }
            if let retryAt { candidates.append(retryAt) }
            if let frameDueAt { candidates.append(frameDueAt.start) }
            if let blankDueAt { candidates.append(blankDueAt) }
            if let gestureDeadline = dispatcher.nextDeadline { candidates.append(gestureDeadline) }
            if let keyRepeat = keyboard?.nextRepeatTime { candidates.append(keyRepeat) }
            if let check = watchdog.checkTime { candidates.append(check) }
            if let deadline { candidates.append(deadline) }
            let next = candidates.min()
            let wasIdle = isQuiet
            if wasIdle { telemetry.enterIdle(at: clock.now) }
            let wake = wait(until: next)
            if stopRequested { return .signal }
            if wake == .nothingPending {
                telemetry.leaveIdle(at: clock.now)
                return .nothingPending
            }
            let cpuAtWake = telemetry.idleCPUStart != nil ? RunTelemetry.processCPUTime() : 0
            workDone = false
            step()
            telemetry.woke(at: clock.now, cpuAtWake: cpuAtWake, wasIdle: wasIdle, stillQuiet: isQuiet, didWork: workDone)
        }
    }

    /// Nothing to draw, no link running (or the panel blanked), nothing in flight: the loop
    /// should sleep.
    private var isQuiet: Bool { isIdle && (display.isBlanked || !tree.needsFrame && !links.hasActiveLinks) }


    /// Handles everything due now: touches, retries, vblank events, then wakes the display
    /// if something needs a frame.
    public func step() {
        let now = clock.now
        for source in touchSources {
            for event in source.events(upTo: now) {
                workDone = true
                guard admitTouch(event) else { continue }
                if case .down = event.kind { telemetry.touchWentDown() }
                let mark = changeMark
                dispatcher.dispatch(event)
                if case .frame = event.kind { continue }
                telemetry.noteInput(at: event.time, changed: changeMark != mark)
            }
        }
        if let deadline = dispatcher.nextDeadline, now >= deadline {
            workDone = true
            dispatcher.advance(to: now)                 // a long press begins, a multi-tap window closes
        }
        for source in touchSources.compactMap({ $0 as? KeySource }) {
            for key in source.keyEvents(upTo: now) {
                workDone = true
                blanking.lastInput = now
                let mark = changeMark
                keyHandler?(key)
                for input in keyboard?.handle(key) ?? [] { textInputHandler?(input) }
                telemetry.noteInput(at: now, changed: changeMark != mark)
            }
        }
        if let keyboard, let due = keyboard.nextRepeatTime, now >= due {
            workDone = true
            for input in keyboard.repeats(upTo: now) { textInputHandler?(input) }
        }
        commitIfNeeded()
        if let due = frameDueAt, now >= due.start {
            frameDueAt = nil
            if tree.needsFrame && !display.isFlipPending && !isOutputPaused && !display.isBlanked {
                renderFrame(targetTimestamp: due.target)
            }
        }
        if display.device.takeHotplug() {
            workDone = true
            handleHotplug()
        }
        if let retry = retryAt, now >= retry {
            retryAt = nil
            if isOutputPaused { resumeOutput() }
        }
        // The display hands its completed flips and vblanks over as values; frames are drawn
        // after it returns, never inside its callback.
        var displayEvents: [VBlankEvent] = []
        do {
            try display.dispatchEvents { displayEvents.append($0) }     // non-blocking
        } catch {
            logger.error("reading display events failed: \(error)")
        }
        for event in displayEvents { handle(event) }
        commitIfNeeded()
        blankIfIdle(now: now)
        checkWatchdog(now: now)
        wakeIfNeeded()
    }

    /// What input handling may change: the model (property sets, animations added or
    /// removed) and whether a display link runs.
    private var changeMark: (UInt64, Bool) { (tree.modelChanges, links.hasActiveLinks) }

    /// The implicit transaction: changes made during this turn of the loop take effect now,
    /// with the current time as their commit time (rule 38).
    private func commitIfNeeded() {
        if tree.needsCommit { tree.commit(at: clock.now) }
    }

    private func handle(_ event: VBlankEvent) {
        workDone = true
        if event.kind == .sequence { vblankRequested = false }
        if event.kind == .pageFlip {
            telemetry.flipCompleted(at: event.timestamp, frameDuration: display.frameDuration)
        }
        displayProgressed(at: clock.now)
        if event.kind == .pageFlip && !announcedReady {
            announcedReady = true
            notifier?.notify("READY=1\nSTATUS=\(showingStatus)")
        }
        links.vblank(sequence: event.sequence, timestamp: event.timestamp, refreshRate: display.refreshRate)
        produceFrame(after: event.timestamp)
    }

    /// After idle: re-sync to the current vblank, run the links, draw if needed.
    private func wakeIfNeeded() {
        guard isIdle, !isOutputPaused, !display.isBlanked, tree.needsFrame || links.hasActiveLinks else { return }
        if tree.needsFrame { telemetry.frameRequested(at: clock.now) }
        do {
            let vblank = try timedDeviceCall("a vblank query") { () throws(KMSError) in try display.resynchronize() }
            links.vblank(sequence: vblank.sequence, timestamp: vblank.timestamp, refreshRate: display.refreshRate)
            produceFrame(after: vblank.timestamp)
        } catch {
            outputRefused(error)
        }
    }

    private func produceFrame(after timestamp: Double) {
        blankIfIdle(now: clock.now)                  // between flips: an animation does not keep the panel on
        guard !display.isFlipPending, retryAt == nil, !isOutputPaused, !display.isBlanked, frameDueAt == nil else { return }
        if tree.needsFrame {
            let target = timestamp + display.frameDuration
            if repaintWindow {
                let start = target - currentRepaintBudget
                if clock.now < start {
                    frameDueAt = (start, target)
                    return
                }
            }
            renderFrame(targetTimestamp: target)
        } else if links.hasActiveLinks && !vblankRequested {
            do {
                try timedDeviceCall("a vblank request") { () throws(KMSError) in try display.requestVBlank() }
                vblankRequested = true
            } catch {
                outputRefused(error)
            }
        }
    }

    /// How long before the vblank a frame in the repaint window starts.
    var currentRepaintBudget: Double {
        if let repaintBudget { return repaintBudget }
        return max(0.002, 1.5 * (telemetry.recentFrameCosts.values.max() ?? display.frameDuration) + 0.001)
    }

    /// Commit, evaluate at `targetTimestamp`, draw, flip; then the animation callbacks.
    private func renderFrame(targetTimestamp: Double) {
        tree.commit(at: clock.now)
        let callbacks = tree.updatePresentation(at: targetTimestamp)
        let rasterStart = timingClock?.now
        // Only what changed is drawn and copied out (rule 80's damage; the shadow keeps the
        // last frame).
        var damage = PixelRect(width: 0, height: 0)
        if let presentation = tree.root.presentation(),
           let changed = renderer.renderDamage(presentation, into: canvas, background: background) {
            damage = changed
            telemetry.frameDrawn(damagedPixels: changed.area)
        }
        let presentStart = timingClock?.now
        defer {
            if let rasterStart, let presentStart, let end = timingClock?.now {
                telemetry.frameCost(end - rasterStart)
                onFrameTimed?(presentStart - rasterStart, end - presentStart)
            }
        }
        do {
            try timedDeviceCall("a page flip") { () throws(KMSError) in try display.present(damage: damage) }
            if failuresInARow > 0 {
                logger.notice("page flips work again after \(failuresInARow) refused")
                failuresInARow = 0
            }
            telemetry.frameHandedOver()                          // its inputs and request show with this flip
            recorder?.record(display.shadow)
        } catch {
            outputRefused(error)
        }
        for callback in callbacks { callback() }
    }
}
