#if canImport(Glibc)
import Glibc
#endif
import LaminaDisplay
import LaminaGeometry
import LaminaInput
import LaminaLayers
import LaminaRaster
import Logging
import SystemPackage

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
    public var links: DisplayLinks { frames.links }
    /// Routes touches to gesture recognizers and touch handlers by hit testing.
    public var dispatcher: TouchDispatcher { touch.dispatcher }
    /// Where the runtime logs.
    public var logger: Logger

    /// The touch sources and the dispatcher their events go through.
    let touch: TouchInput
    /// Frames: when they are drawn (the scheduler) and with what (the renderer, the canvas on
    /// the shadow buffer, the background, recording and timing).
    let frames: FramePipeline
    /// The run's measurements (RunStats), an observer in fixed memory (decision 88).
    var telemetry: RunTelemetry
    /// Everything else the loop waits on, serviced phase by phase (Loop/LoopSource.swift).
    private var sources = LoopSources()
    /// Why the run is to end, once something asked it to (a signal, the scene).
    private var stopReason: StopReason?

    // The parts, each owning its state (architecture.md: the table of the runtime's parts).
    /// The installed scene, its timers and the loader of the next.
    let scenes: SceneHost
    /// Keys and text, focus, the on-screen keyboard and the pointer.
    private(set) lazy var input = InputFocus(runtime: self)
    /// Refused flips, DRM master, VT switches, hotplug and stalls.
    private(set) lazy var output = OutputSupervisor(runtime: self)
    /// Idle blanking, the backlight, the screensaver and the daily schedule.
    private(set) lazy var displayPower = DisplayPower(runtime: self, start: clock.now)
    /// `READY=1`, `STATUS=` and the watchdog.
    private(set) lazy var systemd = SystemdLink(runtime: self, start: clock.now)
    /// SIGINT/SIGTERM, SIGHUP, SIGUSR1 and SIGUSR2.
    private(set) lazy var signalHandling = SignalHandling(runtime: self)
    /// The language strings are shown in, and the labels kept translated.
    private(set) lazy var localization = Localization(runtime: self)
    /// What the daemon does when asked to reload, switch scenes or report stats.
    var hooks = RuntimeHooks()
    /// The videos playing in the scene (for `stats` and the control socket).
    package let videos = VideoRegistry()
    /// Reads and compiles scenes off the loop in real time (on the spot on a virtual clock).
    public internal(set) var sceneLoader: SceneLoader {
        get { scenes.loader }
        set {
            sources.unregister(scenes.loader)
            scenes.loader = newValue
            sources.register(newValue)
        }
    }
    /// The scene's timers, fired in the input phase.
    var timers: SceneTimers { scenes.timers }

    /// Flips completed, their cadence and the kernel's timestamps of the most recent ones.
    public var flipCadence: FlipCadence { telemetry.flipCadence }
    /// How many flips completed.
    public var flipCount: Int { telemetry.flipCadence.count }
    /// The kernel's timestamps of the most recent completed flips (up to
    /// `FlipCadence.recentCapacity`), oldest first.
    public var recentFlipTimestamps: [Double] { Array(telemetry.flipCadence.recent) }
    /// Frames drawn and handed to the display.
    public var renderedFrames: Int { telemetry.renderedFrames }
    /// Pixels redrawn over the run (the damage of every frame).
    public var damagedPixels: Int { telemetry.damagedPixels }

    /// The screen's root layer: bounds the display's size, anchored at its centre.
    public var rootLayer: Layer { tree.root }
    /// The display's size in points (one point per pixel for now).
    public var screenSize: Size {
        rotation % 180 == 0 ? Size(width: Double(display.width), height: Double(display.height))
                            : Size(width: Double(display.height), height: Double(display.width))
    }

    /// Told when `screenSize` changes (the rotation turned a quarter): the scene's own
    /// handler (`SceneContext.onScreenSizeChange`), forgotten when it goes.
    var screenSizeHandler: ((Size) -> Void)?

    /// Clockwise rotation of the picture on the panel (0, 90, 180, 270), drawn in software:
    /// the root layer takes the rotated size (`screenSize`) and turns onto the panel, so
    /// scenes lay out upright and hit testing of panel positions follows the same turn.
    public var rotation = 0 {
        didSet {
            precondition([0, 90, 180, 270].contains(rotation), "rotation is 0, 90, 180 or 270")
            placeRoot()
            guard rotation != oldValue else { return }
            if (rotation - oldValue) % 180 != 0 { screenSizeHandler?(screenSize) }   // turned a quarter: the scene lays out again
            input.cursor?.redraw()                           // the plane's arrow is turned with the picture
            if input.onScreenKeyboard != nil { input.dropOnScreenKeyboard() }   // laid out for the old width
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
        self.logger = logger
        telemetry = RunTelemetry(startTime: clock.now)
        let root = Layer()
        root.name = "root"
        root.bounds = Rect(x: 0, y: 0, width: Double(display.width), height: Double(display.height))
        root.position = Point(x: Double(display.width) / 2, y: Double(display.height) / 2)
        tree = LayerTree(root: root)
        touch = TouchInput(dispatcher: TouchDispatcher(tree: tree))
        frames = FramePipeline(canvas: Canvas(target: display.shadow), background: background)
        scenes = SceneHost(loadsInBackground: loop.isRealTime)
        // The order they are serviced in, within each phase.
        for source in [signalHandling, sceneLoader, timers, input, displayPower, systemd] as [any LoopSource] {
            sources.register(source)
        }
        dispatcher.report = { [logger] message in logger.warning("\(message)") }
        // A scene that names its gestures publishes them itself (a scene file); a Swift
        // scene's are published by kind and the name of the layer they are on.
        dispatcher.onRecognized = { [unowned self] recognizer, layer in
            guard (scene as? any ControllableScene)?.publishesGestures != true else { return }
            publish("gesture", ["gesture": .string(recognizer.kind), "layer": .string(layer.name ?? "")])
        }
        dispatcher.onTouchDown = { [unowned self] touch in input.touchWentDown(touch) }
    }

    /// A display link calling `callback` once per frame until paused or invalidated.
    public func addDisplayLink(_ callback: @escaping (DisplayLink) -> Void) -> DisplayLink {
        links.add(callback)
    }

    /// The installed scene, owned by the runtime until `removeScene`, which also releases
    /// every closure the scene registered (so closures capturing it cannot keep it alive).
    public internal(set) var scene: (any Scene)? {
        get { scenes.current }
        set { scenes.current = newValue }
    }

    /// Feeds `source`'s touches (libinput or a script) through the dispatcher.
    public func addTouchSource(_ source: TouchSource) {
        touch.add(source)
    }

    /// The touch sources, in the order they were added.
    public var touchSources: [TouchSource] { touch.sources }

    /// Makes `source` the one registered on the loop under `key`, replacing the one before
    /// (nil: none): a plug-in's descriptor or deadline, such as a watched scene file.
    package func setLoopSource(_ source: (any LoopSource)?, forKey key: String) {
        sources.set(source, forKey: key)
    }

    /// The source registered under `key`, if any.
    package func loopSource(forKey key: String) -> (any LoopSource)? {
        sources.source(forKey: key)
    }

    /// Ends the run at the next turn, for `reason`.
    func requestStop(_ reason: StopReason) {
        if stopReason == nil { stopReason = reason }
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

    /// How many times `run` has woken (each a turn of the loop): what a playing video or an
    /// animation costs in wake-ups.
    public private(set) var wakeUps = 0

    /// When the frame waiting to be drawn starts (a repaint window's, or one for a display
    /// link's later vblank), nil when none waits: a test stepping the clock itself goes there.
    public var frameWaitingUntil: Double? { frames.scheduler.frameDueAt?.start }

    /// No flip or vblank is outstanding and no retry is scheduled.
    public var isIdle: Bool { !display.isFlipPending && frames.scheduler.isIdle }

    /// Idle, nothing to draw, no running link, no finger down, no scripted input left.
    public var isSettled: Bool {
        isIdle && !tree.needsFrame && !links.hasActiveLinks && touch.isSettled
            && !timers.hasPendingOneShot && display.nextEventTime == nil
    }

    /// Runs the loop. On a virtual clock time jumps from one event to the next.
    @discardableResult
    public func run(exitAfter: Double? = nil, untilSettled: Bool) -> StopReason {
        let deadline = exitAfter.map { clock.now + $0 }
        let neededBeforeLinks = tree.needsFrame
        if let vblank = resynchronizeIfWaking() {
            let linksTarget = links.takeFiredTarget()
            commitIfNeeded()
            produceFrame(after: vblank, linksTarget: neededBeforeLinks ? nil : linksTarget)
        }
        while true {
            if let stopReason { return stopReason }
            if untilSettled && isSettled { return .settled }
            if let deadline, clock.now >= deadline { return .timeLimit }
            let wasIdle = isQuiet
            if wasIdle { telemetry.enterIdle(at: clock.now) }
            let deferral = displayEventsDeferral
            let wake = wait(until: nextDeadline(exitingAt: deadline, displayDeferredUntil: deferral), watchingDisplay: deferral == nil)
            if stopReason == .signal { return .signal }
            if wake == .nothingPending {
                telemetry.leaveIdle(at: clock.now)
                return .nothingPending
            }
            let cpuAtWake = telemetry.idleCPUStart != nil ? RunTelemetry.processCPUTime() : 0
            wakeUps &+= 1
            let didWork = turn()
            telemetry.woke(at: clock.now, cpuAtWake: cpuAtWake, wasIdle: wasIdle, stillQuiet: isQuiet, didWork: didWork)
        }
    }

    /// When the loop must wake: the earliest of the touch sources' events, the display's
    /// (a dummy's simulated vblanks), the frame scheduler's, gesture deadlines, every
    /// registered source's, and the run's own end.
    private func nextDeadline(exitingAt deadline: Double?, displayDeferredUntil deferral: Double?) -> Double? {
        let now = clock.now
        var earliest = sources.nextDeadline(now: now)
        func consider(_ time: Double?) {
            if let time, time < earliest ?? .infinity { earliest = time }
        }
        consider(touch.nextDeadline)
        consider(deferral ?? display.nextEventTime)
        consider(frames.scheduler.nextDeadline)
        consider(deadline)
        return earliest
    }

    /// Waits for the next event through the clock's loop (a virtual one jumps to `next`) on
    /// the display's and input's descriptors and every registered source's, then services
    /// the sources of the `woken` phase (signals, finished loads, control requests).
    private func wait(until next: Double?, watchingDisplay: Bool = true) -> LoopWake {
        var descriptors: [FileDescriptor] = []
        if watchingDisplay, let fd = display.device.eventDescriptor { descriptors.append(FileDescriptor(rawValue: fd)) }
        if let fd = display.device.hotplugDescriptor { descriptors.append(FileDescriptor(rawValue: fd)) }
        touch.collectDescriptors(into: &descriptors)
        sources.collectDescriptors(into: &descriptors)
        let wake = loop.wait(until: next, descriptors: descriptors)
        if case .failed(let error) = wake { logger.error("poll failed: \(error)") }
        _ = sources.service(.woken, now: clock.now)
        return wake
    }

    /// Nothing to draw, no link running (or the panel blanked), nothing in flight: the loop
    /// should sleep.
    private var isQuiet: Bool { isIdle && (display.isBlanked || !tree.needsFrame && !links.hasActiveLinks) }

    /// One turn of the loop (see `turn()`).
    public func step() {
        _ = turn()
    }

    /// One turn of the loop, in two phases as Core Animation's run loop has them (a touch
    /// and a display link fire in separate turns there; here they may be due at once):
    /// first the input due now, committed, so display links see what it started; then the
    /// display — a hotplug, a retry, the completed flips and vblanks (running the display
    /// links) or, after idle, the current vblank — committed, and the frame that is due
    /// drawn. Each phase ends in its one commit; drawing never commits by itself. Returns
    /// whether anything was handled (a turn that did nothing is an idle wake-up).
    private func turn() -> Bool {
        let now = clock.now
        var didWork = deliverInput(now: now)
        if sources.service(.input, now: now) { didWork = true }
        commitIfNeeded()
        if display.device.takeHotplug() {
            didWork = true
            output.handleHotplug()
        }
        if frames.scheduler.takeRetry(now: now), output.isPaused { output.resume() }
        let neededBeforeLinks = tree.needsFrame
        let lastDisplayEvent = handleDisplayEvents()
        if lastDisplayEvent != nil { didWork = true }
        if sources.service(.display, now: now) { didWork = true }
        let vblank = lastDisplayEvent ?? resynchronizeIfWaking()
        let linksTarget = links.takeFiredTarget()
        commitIfNeeded()
        if let target = frames.scheduler.takeDueFrame(now: now), tree.needsFrame, canDraw {
            renderFrame(targetTimestamp: target)
        }
        if let vblank, produceFrame(after: vblank, linksTarget: neededBeforeLinks ? nil : linksTarget) { didWork = true }
        if sources.service(.end, now: now) { didWork = true }
        return didWork
    }

    /// The touches and keys due by `now`, through the dispatcher and the keyboard, and the
    /// gesture deadlines that passed; true when any arrived.
    private func deliverInput(now: Double) -> Bool {
        var didWork = false
        for source in touchSources {
            for event in source.events(upTo: now) {
                didWork = true
                guard displayPower.admit(event) else { continue }
                if case .down(let slot, _) = event.kind {
                    telemetry.touchWentDown()
                    if slot != LibinputSource.pointerSlot { input.fingerTouched() }   // the mouse's button is no finger
                }
                let mark = changeMark
                dispatcher.dispatch(event)
                input.eventDelivered()                    // focus changes the event asked for, now it is over
                if case .frame = event.kind { continue }
                telemetry.noteInput(at: event.time, changed: changeMark != mark)
            }
        }
        if let deadline = dispatcher.nextDeadline, now >= deadline {
            didWork = true
            dispatcher.advance(to: now)                 // a long press begins, a multi-tap window closes
        }
        for source in touchSources {
            for key in source.keyEvents(upTo: now) {
                didWork = true
                displayPower.noteActivity(at: now)
                let mark = changeMark
                input.deliver(key)
                telemetry.noteInput(at: now, changed: changeMark != mark)
            }
        }
        return didWork
    }

    /// What input handling may change: the model (property sets, animations added or
    /// removed) and whether a display link runs.
    var changeMark: (UInt64, Bool) { (tree.modelChanges, links.hasActiveLinks) }

    /// A phase's one commit: every change made during it — by input, display links, a
    /// reload — takes effect together, with the current time as its commit time (rule 38).
    private func commitIfNeeded() {
        guard tree.needsCommit else { return }
        let start = frames.timingClock?.now
        tree.commit(at: clock.now)
        if let start, let end = frames.timingClock?.now { frames.pendingCommitCost += end - start }
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
            if event.kind == .sequence { frames.scheduler.vblankArrived() }
            if event.kind == .pageFlip {
                telemetry.flipCompleted(at: event.timestamp, frameDuration: display.frameDuration)
            }
            systemd.displayProgressed(at: clock.now, flipped: event.kind == .pageFlip)
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
            let vblank = try output.timedDeviceCall("a vblank query") { () throws(KMSError) in try display.resynchronize() }
            links.vblank(sequence: vblank.sequence, timestamp: vblank.timestamp, refreshRate: display.refreshRate)
            return vblank.timestamp
        } catch {
            output.refused(error)
            return nil
        }
    }

    /// The output changed under the loop (a connector came or went): a new panel's size
    /// re-lays the root out and reaches the input sources; everything is drawn again and a
    /// newly lit panel gets a full idle period.
    func outputChanged(lit: Bool) {
        if lit, frames.canvas.target !== display.shadow {
            frames.canvas = Canvas(target: display.shadow)
            placeRoot()
            let size = Size(width: Double(display.width), height: Double(display.height))
            touch.panelResized(to: size)
        }
        frames.scheduler.outputChanged()
        input.cursor?.restore()
        displayPower.noteActivity(at: clock.now)
        tree.setNeedsCommit()
    }

    /// Sends an event (`state`, `gesture`, `control`, `display`, `scene`) to whoever listens (the
    /// control socket's subscribed clients).
    func publish(_ kind: String, _ fields: [String: ControlValue]) {
        hooks.onPublish?(kind, fields)
    }
}
