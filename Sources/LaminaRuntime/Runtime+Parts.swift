import LaminaDisplay
import LaminaInput
import LaminaLayers
import LaminaRaster
import LaminaSystem
import SystemPackage

/// The runtime's public interface to what its parts own: each property here reads or sets
/// the part's own field (drawing, input and focus, output, power, systemd, the control
/// socket, the daemon's hooks), so apps and the daemon keep one object to talk to.
extension Runtime {
    // MARK: Drawing

    /// Draws the presentation tree, only what changed.
    public var renderer: Renderer { frames.renderer }
    /// The colour behind the root layer.
    public var background: Color {
        get { frames.background }
        set { frames.background = newValue }
    }
    /// Receives every presented frame when set.
    public var recorder: FrameRecorder? {
        get { frames.recorder }
        set { frames.recorder = newValue }
    }
    /// When set, the time each frame spends drawing and copying into the scanout buffer and
    /// flipping is measured on this clock (the stats' `renderMs`, the repaint budget): for
    /// benchmarks and the daemon, never for tests.
    public var timingClock: MonotonicClock? {
        get { frames.timingClock }
        set { frames.timingClock = newValue }
    }
    /// Receives each measured frame's cost, step by step (benchmarks keep their own series;
    /// the runtime keeps only a distribution and the last 60).
    public var onFrameCost: ((FrameCost) -> Void)? {
        get { frames.onFrameCost }
        set { frames.onFrameCost = newValue }
    }
    /// Whether video (contents that may use an overlay plane) goes on the display's overlay
    /// plane when the driver takes it (decision 146); off, every frame is composited. On by
    /// default; `[display] overlay_planes = false` turns it off.
    public var usesOverlayPlanes: Bool {
        get { frames.usesOverlayPlanes }
        set { frames.usesOverlayPlanes = newValue }
    }
    /// The overlay placement of the last frame presented, nil when the plane was not used.
    public var overlayPlacement: PlanePlacement? { frames.overlayShown }
    /// Frames presented with video on the overlay plane since the start.
    public var overlayFrames: Int { frames.overlayFrames }
    /// The repaint window: when on, a frame needed after a vblank is drawn as late before the
    /// next vblank as drawing allows (`repaintBudget` before it), not at once, so input that
    /// arrives meanwhile still reaches the next flip. Off, frames start at the vblank.
    public var repaintWindow: Bool {
        get { frames.scheduler.repaintWindow }
        set { frames.scheduler.repaintWindow = newValue }
    }
    /// Seconds before the vblank a frame starts inside the repaint window; nil measures it:
    /// 1.5 x the slowest of the last 60 frames' draw + copy + flip times (`timingClock`),
    /// plus 1 ms, at least 2 ms. A budget of a whole frame or more draws at once.
    public var repaintBudget: Double? {
        get { frames.repaintBudget }
        set { frames.repaintBudget = newValue }
    }

    // MARK: Keys, text, focus and the pointer

    /// Forgets the on-screen keyboard so the next focus builds it again from `keyboard` (a
    /// reload changed the layout).
    package func relabelOnScreenKeyboard() {
        input.dropOnScreenKeyboard()
    }

    /// Receives every key press and release from libinput.
    public var keyHandler: ((KeyEvent) -> Void)? {
        get { input.keyHandler }
        set { input.keyHandler = newValue }
    }
    /// Turns keys into text (an xkbcommon keymap); with it, `textInputHandler` receives
    /// what is typed, key repeat included.
    public var keyboard: Keyboard? {
        get { input.keyboard }
        set { input.keyboard = newValue }
    }
    /// Receives typed text and editing keys (the scene's own handler; the focused text
    /// field gets them too).
    public var textInputHandler: ((TextInput) -> Void)? {
        get { input.textInputHandler }
        set { input.textInputHandler = newValue }
    }
    /// What typing goes into (LaminaWidgets' `focusedTextField` names the text field).
    package var focusedTextInput: (any TextInputTarget)? { input.focused }
    /// Whether the on-screen keyboard slides up when a text field takes focus
    /// (`[input] on_screen_keyboard`).
    public var showsOnScreenKeyboard: Bool {
        get { input.showsOnScreenKeyboard }
        set { input.showsOnScreenKeyboard = newValue }
    }
    /// The on-screen keyboard, made by the first target that took focus (LaminaWidgets'
    /// `onScreenKeyboard` names its type).
    package var textInputPanel: (any TextInputPanel)? { input.onScreenKeyboard }
    /// The pointer drawn for a mouse or trackball (`setCursorMode`); nil: none drawn.
    public var cursor: PointerCursor? { input.cursor }

    /// Draws the pointer as `mode` says, hiding an `auto` one after `hideAfter` idle
    /// seconds (`[input] cursor`, `cursor_hide_after`); `always` shows it at once, in the
    /// middle of the screen until the pointer moves.
    public func setCursorMode(_ mode: CursorMode, hideAfter: Double = 3) {
        input.setCursorMode(mode, hideAfter: hideAfter)
    }

    // MARK: Output

    /// Calls into the display driver that held the loop longer than half a second (logged).
    public var deviceStalls: Int { output.deviceStalls }
    /// Page flips the device refused (logged and retried).
    public var failedFlips: Int { output.failedFlips }
    /// True while DRM master is lost (VT switched away, or another client took the display):
    /// no frames are drawn; master is asked for again every `masterRetryInterval`.
    public var isOutputPaused: Bool { output.isPaused }
    /// How often a paused output asks for DRM master again.
    public var masterRetryInterval: Double {
        get { output.masterRetryInterval }
        set { output.masterRetryInterval = newValue }
    }
    /// Answers the kernel's VT switch requests (`VT_PROCESS` mode) when Lamina owns a VT.
    public var vtSwitch: VTSwitchAcknowledging? {
        get { output.vtSwitch }
        set { output.vtSwitch = newValue }
    }
    /// True between a VT switch away and the return: master is dropped, nothing is drawn.
    public var isSwitchedAway: Bool { output.isSwitchedAway }
    /// Refusals in a row (other than EBUSY) after which the mode is set again.
    public static var refusalsBeforeModeset: Int { OutputSupervisor.refusalsBeforeModeset }

    /// The kernel asks to switch away from Lamina's VT: stop drawing, drop DRM master so the
    /// next VT's owner (the console, another compositor) can drive the display, then allow
    /// the switch.
    public func switchAwayForVT() {
        output.switchAway()
    }

    /// Lamina's VT is shown again: acknowledge, take DRM master back, set the mode and
    /// repaint everything (retried every `masterRetryInterval` while another client still
    /// holds master).
    public func returnFromVTSwitch() {
        output.returnFromSwitch()
    }

    // MARK: Power

    /// The panel's backlight (`[power] backlight`), or nil when there is none to drive.
    public var backlight: Backlight? {
        get { displayPower.backlight }
        set { displayPower.backlight = newValue }
    }
    /// Brightness, dimming and the daily schedule (`[power]`).
    public var power: PowerSettings {
        get { displayPower.settings }
        set { displayPower.settings = newValue }
    }
    /// The time of day, seconds after local midnight (tests replace it to run a schedule on
    /// the virtual clock).
    public var timeOfDay: () -> Double {
        get { displayPower.timeOfDay }
        set { displayPower.timeOfDay = newValue }
    }
    /// Shows (true) or takes away (false) the screensaver scene; set by the daemon.
    public var onScreensaver: ((Bool) -> Void)? {
        get { displayPower.onScreensaver }
        set { displayPower.onScreensaver = newValue }
    }
    /// The screensaver scene is showing (until a touch).
    public var isScreensaverShowing: Bool { displayPower.isScreensaverShowing }
    /// Seconds without a touch after which the panel is blanked (DPMS off) until the next
    /// touch; nil never blanks (the default: display-input.md §10).
    public var blankAfter: Double? {
        get { displayPower.blankAfter }
        set { displayPower.blankAfter = newValue }
    }
    /// Times the panel was blanked.
    public var blankCount: Int { displayPower.blankCount }
    /// Seconds the panel spent blanked in all.
    public var blankedSeconds: Double { displayPower.blankedSeconds }

    /// Sets the brightness in use (`[power] brightness`, the control socket's
    /// `set-brightness`); shown at once unless dimmed or dark.
    public func setBrightness(_ level: Double) {
        displayPower.setBrightness(level)
    }

    /// Turns the panel off (true) or on (false) when asked from outside (the control
    /// socket's `blank` and `unblank`); nil when the device refused (logged).
    package func setBlanked(_ blanked: Bool, reason: String, status: String) -> BlankRequestOutcome? {
        displayPower.setBlanked(blanked, reason: reason, status: status)
    }

    // MARK: systemd

    /// Told `READY=1` when the first frame is on screen (its flip completed), not merely
    /// drawn; `WATCHDOG=1` as flips (or, idle, probing vblanks) complete; `STATUS=` lines.
    public var notifier: SystemdNotifier? {
        get { systemd.notifier }
        set { systemd.notifier = newValue }
    }
    /// The systemd watchdog period, nil without one (`WatchdogSec=`).
    public var watchdogInterval: Double? {
        get { systemd.watchdogInterval }
        set { systemd.watchdogInterval = newValue }
    }
    /// Watchdog pings sent.
    public var watchdogPings: Int { systemd.watchdog.pings }

    // MARK: Signals and the daemon's hooks

    /// Stop cleanly on SIGINT / SIGTERM, reload on SIGHUP, log the stats on SIGUSR1, and
    /// follow VT switch requests on SIGUSR2 (the daemon, on any clock; on a virtual one the
    /// signals are read between events).
    /// Throws when the signal descriptor cannot be made: a daemon that could not stop cleanly
    /// or reload must not run (the caller logs it and exits).
    public func watchSignals() throws(SystemCallError) {
        try signalHandling.watch()
    }

    /// `watchSignals()`, logging a failure instead of throwing it (the runtime then runs
    /// without signal handling).
    @available(*, deprecated, renamed: "watchSignals()", message: "a failure to watch signals must stop the daemon")
    public func watchStopSignals() {
        do { try watchSignals() } catch { logger.error("cannot watch signals: \(error)") }
    }

    /// Called on SIGHUP (when signals are watched) and by the control socket's `reload`: the
    /// daemon reloads its configuration, through `sceneLoader`, and calls the closure it is
    /// given on the loop when done, with why the reload was rejected (nil: applied).
    public var onReload: ((_ done: @escaping (String?) -> Void) -> Void)? {
        get { hooks.onReload }
        set { hooks.onReload = newValue }
    }
    /// Called by the control socket's `switch-scene` with a scene name or scene file; calls
    /// the closure it is given on the loop when done, with why it could not switch (nil: it
    /// did). Set by the daemon.
    public var onSwitchScene: ((_ scene: String, _ done: @escaping (String?) -> Void) -> Void)? {
        get { hooks.onSwitchScene }
        set { hooks.onSwitchScene = newValue }
    }
    /// Called on SIGUSR1 (when signals are watched): by default logs the stats.
    public var onStatsRequest: (() -> Void)? {
        get { hooks.onStatsRequest }
        set { hooks.onStatsRequest = newValue }
    }
    /// Receives the events the runtime and its scene publish (`state`, `gesture`, `display`,
    /// `scene`): the control socket, when one is open, sends them to its subscribers.
    package var onPublish: ((_ kind: String, _ fields: [String: ControlValue]) -> Void)? {
        get { hooks.onPublish }
        set { hooks.onPublish = newValue }
    }
}
