#if canImport(Glibc)
import Glibc
#endif
import LaminaSystem

/// What a run measures of its frames, input and idle time: an observer the loop tells what
/// happened, holding its own state in fixed memory (decision 88). `Runtime.stats` reads it.
struct RunTelemetry {
    /// When the run started, on its clock, and the process's CPU time then.
    let startTime: Double
    let startCPU = RunTelemetry.processCPUTime()

    /// Flips completed, their cadence and the kernel's timestamps of the most recent ones.
    private(set) var flipCadence = FlipCadence()
    /// Frames drawn and handed to the display, and the pixels they redrew.
    private(set) var renderedFrames = 0
    private(set) var damagedPixels = 0
    private(set) var frameCosts = DurationDistribution()
    /// Handing each frame to the `--frames-out` recorder, timed apart from drawing.
    private(set) var recordCosts = DurationDistribution()
    /// The last 60 frame costs (draw + copy + flip), for the repaint budget.
    private(set) var recentFrameCosts = RecentValues(capacity: 60)

    private(set) var inputLatencies = DurationDistribution()
    private(set) var inputsWithoutChange = 0
    private(set) var touchCount = 0
    /// Times of the inputs that changed something since the last frame was handed over (at
    /// most `maxPendingInputs`; more between two frames count once, at the earliest).
    private var pendingInputTimes: [Double] = []
    static let maxPendingInputs = 256
    /// Per flip in flight, the inputs it shows.
    private var inputsInFlight: [[Double]] = []

    private(set) var requestLatencies = DurationDistribution()
    /// When a change woke the idle display, until the frame drawn for it is handed over.
    private var pendingRequestTime: Double?
    /// Per flip in flight, the wake-up request it answers.
    private var requestsInFlight: [Double?] = []

    private(set) var idleSeconds = 0.0
    private(set) var idleSince: Double?
    private(set) var idleWakeUps = 0
    private(set) var idleCPUStart: Double?
    private(set) var idleCPUSeconds = 0.0

    init(startTime: Double) {
        self.startTime = startTime
    }

    /// CPU time this process has used, user and system (`CLOCK_PROCESS_CPUTIME_ID`).
    static func processCPUTime() -> Double { ProcessCPUTime.seconds }

    // MARK: Input

    mutating func touchWentDown() { touchCount += 1 }

    /// An input that changed something counts toward the input-to-flip latency of the next
    /// frame handed over; one that changed nothing counts as such.
    mutating func noteInput(at time: Double, changed: Bool) {
        guard changed else {
            inputsWithoutChange += 1
            return
        }
        if pendingInputTimes.count < Self.maxPendingInputs { pendingInputTimes.append(time) }
    }

    /// A change woke the idle display at `time` (the first one counts).
    mutating func frameRequested(at time: Double) {
        if pendingRequestTime == nil { pendingRequestTime = time }
    }

    // MARK: Frames and flips

    /// A frame was drawn, redrawing `damage` pixels (handed over or not).
    mutating func frameDrawn(damagedPixels damage: Int) {
        damagedPixels += damage
    }

    /// A drawn frame was handed to the display: the inputs and the wake-up request it
    /// answers travel with its flip.
    mutating func frameHandedOver() {
        renderedFrames += 1
        inputsInFlight.append(pendingInputTimes)
        pendingInputTimes.removeAll()
        requestsInFlight.append(pendingRequestTime)
        pendingRequestTime = nil
    }

    /// Draw + copy + flip of one frame took `seconds` (measured on the timing clock).
    mutating func frameCost(_ seconds: Double) {
        frameCosts.record(seconds)
        recentFrameCosts.append(seconds)
    }

    /// Handing one frame to the recorder took `seconds` (not part of its drawing time).
    mutating func frameRecorded(_ seconds: Double) {
        recordCosts.record(seconds)
    }

    /// A flip completed at the kernel's `timestamp`.
    mutating func flipCompleted(at timestamp: Double, frameDuration: Double) {
        flipCadence.record(timestamp, frameDuration: frameDuration)
        if !inputsInFlight.isEmpty {
            for time in inputsInFlight.removeFirst() { inputLatencies.record(timestamp - time) }
        }
        if !requestsInFlight.isEmpty, let requested = requestsInFlight.removeFirst() {
            requestLatencies.record(timestamp - requested)
        }
    }

    // MARK: Idle

    /// The loop is about to sleep with nothing to do (from `now`, if not already idle).
    mutating func enterIdle(at now: Double) {
        guard idleSince == nil else { return }
        idleSince = now
        idleCPUStart = Self.processCPUTime()
    }

    /// The loop woke: `cpuAtWake` is the CPU time when it woke (the sleep's, not the work's
    /// that ended it), `stillQuiet` whether it stays idle, `didWork` whether it had anything
    /// to do.
    mutating func woke(at now: Double, cpuAtWake: Double, wasIdle: Bool, stillQuiet: Bool, didWork: Bool) {
        if let start = idleCPUStart, !stillQuiet {
            idleCPUSeconds += cpuAtWake - start
            idleCPUStart = nil
        }
        if wasIdle && !didWork { idleWakeUps += 1 }              // woke for nothing
        if !stillQuiet { leaveIdle(at: now) }
    }

    /// Idle time ends now.
    mutating func leaveIdle(at now: Double) {
        if let since = idleSince { idleSeconds += now - since }
        idleSince = nil
    }
}
