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
    /// The clock frames are timed on (a `VirtualClock` in tests and offline runs).
    public let clock: MonotonicClock
    /// How the loop waits: `poll(2)` in real time, jumps on a virtual clock (the clock's).
    public let loop: EventLoop
    /// The display the frames go to.
    public let display: Display
    /// The layer tree shown, with its root `rootLayer`.
    public let tree: LayerTree
    /// The display links, run once per frame.
    public let links = DisplayLinks()
    /// The scene's timers, fired in the input phase.
    let timers = SceneTimers()
    /// Routes touches to gesture recognizers and touch handlers by hit testing.
    public let dispatcher: TouchDispatcher
    /// Draws the presentation tree, only what changed.
    public let renderer = Renderer()
    /// The colour behind the root layer.
    public var background: Color
    /// Receives every presented frame when set.
    public var recorder: FrameRecorder?
    /// Where the runtime logs.
    public var logger: Logger

    var canvas: Canvas
    var touchSources: [TouchSource] = []
    /// When frames are drawn, vblanks asked for and refused calls retried.
    var scheduler = FrameScheduler()
    var signals: SignalDescriptor?
    /// A folder whose written files are reported (the running scene file's, for live reload).
    var watchedFolder: (watcher: FolderWatcher, changed: (Set<String>) -> Void)?
    var stopRequested = false
    /// The scene asked the run to end (`SceneContext.finish()`).
    var finishRequested = false
    /// The run's measurements (RunStats), an observer in fixed memory (decision 88).
    var telemetry: RunTelemetry
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
    /// Receives typed text and editing keys (the scene's own handler; the focused text
    /// field gets them too).
    public var textInputHandler: ((TextInput) -> Void)?
    /// The text field typing goes into (`TextField.focus()`), nil when none has focus.
    public internal(set) weak var focusedTextField: TextField?
    /// Whether the on-screen keyboard slides up when a text field takes focus
    /// (`[input] on_screen_keyboard`).
    public var showsOnScreenKeyboard = true
    /// The pointer drawn for a mouse or trackball (`setCursorMode`); nil: none drawn.
    public internal(set) var cursor: PointerCursor?
    /// The on-screen keyboard, made the first time a text field takes focus.
    public internal(set) var onScreenKeyboard: OnScreenKeyboard?
    /// Called on SIGHUP (when signals are watched) and by the control socket's `reload`: the
    /// daemon reloads its configuration, through `sceneLoader`, and calls the closure it is
    /// given on the loop when done, with why the reload was rejected (nil: applied).
    public var onReload: ((_ done: @escaping (String?) -> Void) -> Void)?
    /// Called by the control socket's `switch-scene` with a scene name or scene file; calls
    /// the closure it is given on the loop when done, with why it could not switch (nil: it
    /// did). Set by the daemon.
    public var onSwitchScene: ((_ scene: String, _ done: @escaping (String?) -> Void) -> Void)?
    /// Reads and compiles scenes off the loop in real time (on the spot on a virtual clock).
    public internal(set) lazy var sceneLoader = SceneLoader(inBackground: loop.isRealTime)
    /// The control socket, when one is open (`openControlSocket(path:)`).
    public internal(set) var control: ControlServer?
    /// Encodes the control socket's screenshots off the loop (real time only).
    var screenshots: ScreenshotWriter?
    /// The last `stats` reply and when it was worked out (replies are at most 0.1 s old).
    var statsCache: (time: Double, value: ControlValue)?
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
    public var repaintWindow: Bool {
        get { scheduler.repaintWindow }
        set { scheduler.repaintWindow = newValue }
    }
    /// Seconds before the vblank a frame starts inside the repaint window; nil measures it:
    /// 1.5 x the slowest of the last 60 frames' draw + copy + flip times (`timingClock`),
    /// plus 1 ms, at least 2 ms. A budget of a whole frame or more draws at once.
    public var repaintBudget: Double?

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
    /// The control socket asked for the panel off while a flip was pending: done once it lands.
    var blankRequested = false
    /// The panel's backlight (`[power] backlight`), or nil when there is none to drive.
    public var backlight: Backlight?
    /// Brightness, dimming and the daily schedule (`[power]`).
    public var power = PowerSettings()
    /// The time of day, seconds after local midnight (tests replace it to run a schedule on
    /// the virtual clock).
    public var timeOfDay: () -> Double = WallClock.secondsSinceLocalMidnight
    /// Dimmed after idle (the light at `power.dimLevel`) until a touch.
    var isDimmed = false
    /// The panel is off because of the schedule.
    var isScheduledOff = false
    /// A touch turned the panel on during the scheduled off time.
    var scheduleWokenByTouch = false
    /// Shows (true) or takes away (false) the screensaver scene; set by the daemon.
    public var onScreensaver: ((Bool) -> Void)?
    /// The screensaver scene is showing (until a touch).
    public internal(set) var isScreensaverShowing = false
    /// Seconds without a touch after which the panel is blanked (DPMS off) until the next
    /// touch; nil never blanks (the default: display-input.md §10).
    public var blankAfter: Double? {
        get { blanking.after }
        set { blanking.after = newValue }
    }
    /// Times the panel was blanked, and for how long in all.
    public var blankCount: Int { blanking.count }
    /// Seconds the panel spent blanked in all.
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
            guard rotation != oldValue else { return }
            cursor?.redraw()                                 // the plane's arrow is turned with the picture
            if onScreenKeyboard != nil { dropOnScreenKeyboard() }   // laid out for the old width
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
        // A scene that names its gestures publishes them itself (a scene file); a Swift
        // scene's are published by kind and the name of the layer they are on.
        dispatcher.onRecognized = { [unowned self] recognizer, layer in
            guard (scene as? any ControllableScene)?.publishesGestures != true else { return }
            publish("gesture", ["gesture": .string(recognizer.kind), "layer": .string(layer.name ?? "")])
        }
        dispatcher.onTouchDown = { [unowned self] touch in endEditingIfOutside(touch) }
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
        /// The scene ended the run (`SceneContext.finish()`).
        case finished
    }

    /// No flip or vblank is outstanding and no retry is scheduled.
    public var isIdle: Bool { !display.isFlipPending && scheduler.isIdle }

    /// Idle, nothing to draw, no running link, no finger down, no scripted input left.
    public var isSettled: Bool {
        isIdle && !tree.needsFrame && !links.hasActiveLinks && !dispatcher.hasActiveTouches && dispatcher.nextDeadline == nil
            && !timers.hasPendingOneShot
            && touchSources.allSatisfy(\.isSettled) && display.nextEventTime == nil
    }

    /// Runs the loop. On a virtual clock time jumps from one event to the next.
    @discardableResult
    public func run(exitAfter: Double? = nil, untilSettled: Bool) -> StopReason {
        let deadline = exitAfter.map { clock.now + $0 }
        if let vblank = resynchronizeIfWaking() {
            commitIfNeeded()
            produceFrame(after: vblank)
        }
        while true {
            if stopRequested { return .signal }
            if finishRequested { return .finished }
            if untilSettled && isSettled { return .settled }
            if let deadline, clock.now >= deadline { return .timeLimit }
            var candidates: [Double] = touchSources.compactMap(\.nextEventTime)
            if let t = display.nextEventTime { candidates.append(t) }
            if let scheduled = scheduler.nextDeadline { candidates.append(scheduled) }
            if let blankDueAt { candidates.append(blankDueAt) }
            if let dimDueAt { candidates.append(dimDueAt) }
            if let screensaverDueAt { candidates.append(screensaverDueAt) }
            if let scheduleDueAt { candidates.append(scheduleDueAt) }
            if let gestureDeadline = dispatcher.nextDeadline { candidates.append(gestureDeadline) }
            if let keyRepeat = keyboard?.nextRepeatTime { candidates.append(keyRepeat) }
            if let timer = timers.nextFireTime { candidates.append(timer) }
            if let hide = cursor?.hideDueAt { candidates.append(hide) }
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


    /// One turn of the loop, in two phases as Core Animation's run loop has them (a touch
    /// and a display link fire in separate turns there; here they may be due at once):
    /// first the input due now, committed, so display links see what it started; then the
    /// display — a hotplug, a retry, the completed flips and vblanks (running the display
    /// links) or, after idle, the current vblank — committed, and the frame that is due
    /// drawn. Each phase ends in its one commit; drawing never commits by itself.
    public func step() {
        let now = clock.now
        handleInput(now: now)
        commitIfNeeded()
        if display.device.takeHotplug() {
            workDone = true
            handleHotplug()
        }
        if scheduler.takeRetry(now: now), isOutputPaused { resumeOutput() }
        let lastDisplayEvent = handleDisplayEvents()
        blankIfIdle(now: now)
        applyPower(now: now)
        let vblank = lastDisplayEvent ?? resynchronizeIfWaking()
        commitIfNeeded()
        if let target = scheduler.takeDueFrame(now: now), tree.needsFrame, canDraw {
            renderFrame(targetTimestamp: target)
        }
        if let vblank { produceFrame(after: vblank) }
        checkWatchdog(now: now)
    }

    /// What input handling may change: the model (property sets, animations added or
    /// removed) and whether a display link runs.
    var changeMark: (UInt64, Bool) { (tree.modelChanges, links.hasActiveLinks) }

    /// A phase's one commit: every change made during it — by input, display links, a
    /// reload — takes effect together, with the current time as its commit time (rule 38).
    private func commitIfNeeded() {
        if tree.needsCommit { tree.commit(at: clock.now) }
    }

    /// The display's completed flips and vblanks, handed over as values and handled after it
    /// returns (never inside its callback): each runs the display links. Returns the last
    /// one's timestamp, nil when none arrived.
    private func handleDisplayEvents() -> Double? {
        var events: [VBlankEvent] = []
        do {
            try display.dispatchEvents { events.append($0) }     // non-blocking
        } catch {
            logger.error("reading display events failed: \(error)")
        }
        for event in events {
            workDone = true
            if event.kind == .sequence { scheduler.vblankArrived() }
            if event.kind == .pageFlip {
                telemetry.flipCompleted(at: event.timestamp, frameDuration: display.frameDuration)
            }
            displayProgressed(at: clock.now)
            if event.kind == .pageFlip && !announcedReady {
                announcedReady = true
                notifier?.notify("READY=1\nSTATUS=\(showingStatus)")
            }
            links.vblank(sequence: event.sequence, timestamp: event.timestamp, refreshRate: display.refreshRate)
        }
        return events.last?.timestamp
    }

    /// After idle, when something needs a frame: re-syncs to the current vblank and runs the
    /// display links; returns its timestamp, nil when not waking.
    private func resynchronizeIfWaking() -> Double? {
        guard isIdle, canDraw, tree.needsFrame || links.hasActiveLinks else { return nil }
        if tree.needsFrame { telemetry.frameRequested(at: clock.now) }
        do {
            let vblank = try timedDeviceCall("a vblank query") { () throws(KMSError) in try display.resynchronize() }
            links.vblank(sequence: vblank.sequence, timestamp: vblank.timestamp, refreshRate: display.refreshRate)
            return vblank.timestamp
        } catch {
            outputRefused(error)
            return nil
        }
    }

    /// No flip in flight, output neither paused nor blanked.
    private var canDraw: Bool { !display.isFlipPending && !isOutputPaused && !display.isBlanked }

    /// Carries out what the scheduler says follows the vblank at `timestamp`.
    private func produceFrame(after timestamp: Double) {
        blankIfIdle(now: clock.now)                  // between flips: an animation does not keep the panel on
        let action = scheduler.afterVBlank(at: timestamp, now: clock.now, frameDuration: display.frameDuration,
                                           canDraw: canDraw, needsFrame: tree.needsFrame,
                                           linksRunning: links.hasActiveLinks, budget: { currentRepaintBudget })
        switch action {
        case .draw(let target):
            renderFrame(targetTimestamp: target)
        case .requestVBlank:
            do {
                try timedDeviceCall("a vblank request") { () throws(KMSError) in try display.requestVBlank() }
                scheduler.vblankRequested = true
            } catch {
                outputRefused(error)
            }
        case .none:
            break
        }
    }

    /// How long before the vblank a frame in the repaint window starts.
    var currentRepaintBudget: Double {
        if let repaintBudget { return repaintBudget }
        return max(0.002, 1.5 * (telemetry.recentFrameCosts.values.max() ?? display.frameDuration) + 0.001)
    }

    /// Evaluate the committed tree at `targetTimestamp`, draw, flip; then the animation
    /// callbacks.
    private func renderFrame(targetTimestamp: Double) {
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
