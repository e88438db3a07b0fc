import FoundationEssentials

/// A run's numbers (`--stats-json`, the exit summary, SIGUSR1): frames and flips, the flip
/// cadence, time spent drawing, how long input waits for the glass, and how often the loop
/// wakes while nothing changes.
public struct RunStats: Codable, Sendable {
    /// Summary of a distribution, in milliseconds: count, minimum and maximum exact, the
    /// percentiles from a fixed-memory histogram (within 0.1 %).
    public struct Percentiles: Codable, Sendable {
        /// How many samples.
        public var count: Int
        /// The smallest sample.
        public var min: Double
        /// The median.
        public var p50: Double
        /// The 95th percentile.
        public var p95: Double
        /// The 99th percentile.
        public var p99: Double
        /// The largest sample.
        public var max: Double

        /// A summary from its parts.
        public init(count: Int, min: Double, p50: Double, p95: Double, p99: Double, max: Double) {
            self.count = count
            self.min = min
            self.p50 = p50
            self.p95 = p95
            self.p99 = p99
            self.max = max
        }
    }

    /// Seconds from the start of the run to its end (on the runtime's clock).
    public var seconds: Double
    /// Frames drawn and handed to the display.
    public var frames: Int
    /// Page flips completed.
    public var flips: Int
    /// Flips per second while frames run back to back (intervals under 1.5 frames; idle
    /// gaps between animations are not counted).
    public var flipRate: Double?
    /// Those back-to-back intervals: their standard deviation and largest deviation from the
    /// mode's frame duration, in ms.
    public var flipIntervalJitterMs: Double?
    /// The largest deviation of a flip interval from the refresh period, in milliseconds.
    public var flipIntervalMaxDeviationMs: Double?
    /// Vblanks that passed without a new frame while one was due.
    public var missedVBlanks: Int
    /// Page flips the device refused (logged and retried).
    public var failedFlips: Int
    /// Calls into the display driver that held the loop over half a second (each logged).
    public var deviceStalls: Int
    /// Drawing time per frame (rasterizing the damage and copying it out); recording with
    /// `--frames-out` is not in it.
    public var renderMs: Percentiles?
    /// Handing each frame to the `--frames-out` recorder (a copy, and a wait while the
    /// encoder is behind); nil when nothing records.
    public var recordMs: Percentiles? = nil
    /// From each input event that changed something (a property, an animation, a running
    /// display link) to the flip of the first frame drawn after it.
    public var inputToFlipMs: Percentiles?
    /// Input events that changed nothing when they were handled (a touch beside every
    /// target, a tap's down before the tap is recognized): not in `inputToFlipMs`.
    public var inputsWithoutChange: Int
    /// Touches that went down.
    public var touches: Int
    /// Gestures recognized, by kind (`tap`, `pan`, `longPress`, `pinch`, `rotation`, `swipe`).
    public var gestures: [String: Int] = [:]
    /// Time with nothing to draw, no link running and nothing in flight, and the loop's
    /// wake-ups during it that found nothing to do (no input, no display event; the goal is
    /// none).
    public var idleSeconds: Double
    /// Times the loop woke while idle (nothing to draw).
    public var idleWakeUps: Int
    /// Idle wake-ups per second of idle time.
    public var wakeUpsPerIdleSecond: Double?
    /// Process CPU time (user + system) over the run, and per idle second (ms): what the
    /// daemon costs while the screen shows a still picture (the goal is zero).
    public var cpuSeconds: Double
    /// CPU time used per second of idle time, in milliseconds.
    public var idleCPUMsPerSecond: Double?
    /// From a change that woke an idle display (input handled, a property set) to the flip
    /// that shows it: the repaint window's wait, drawing and the wait for the vblank.
    public var frameRequestToFlipMs: Percentiles?
    /// Mean fraction of the screen redrawn per frame.
    public var damagedFraction: Double?
    /// The videos playing (nil when the scene has none): who decodes each, and its frames.
    public var videos: [VideoReport]? = nil
    /// Frames presented with a video on the display's overlay plane (nil when none was).
    public var overlayPlaneFrames: Int? = nil

    /// One line for the log.
    public var summary: String {
        var parts = ["\(frames) frames", "\(flips) flips"]
        if let flipRate { parts.append(String(cFormat: "%.2f Hz", flipRate)) }
        if let flipIntervalJitterMs { parts.append(String(cFormat: "jitter %.3f ms", flipIntervalJitterMs)) }
        parts.append("\(missedVBlanks) missed vblanks")
        parts.append("\(failedFlips) failed flips")
        if deviceStalls > 0 { parts.append("\(deviceStalls) driver stalls") }
        if let renderMs { parts.append(String(cFormat: "render p50 %.3f ms p95 %.3f ms", renderMs.p50, renderMs.p95)) }
        if let recordMs { parts.append(String(cFormat: "recording p50 %.3f ms", recordMs.p50)) }
        if let inputToFlipMs { parts.append(String(cFormat: "input→flip p50 %.1f ms", inputToFlipMs.p50)) }
        if touches > 0 || !gestures.isEmpty {
            parts.append("\(touches) touches" + gestures.sorted { $0.key < $1.key }.map { ", \($0.value) \($0.key)" }.joined())
        }
        if let frameRequestToFlipMs { parts.append(String(cFormat: "request→flip p50 %.1f ms", frameRequestToFlipMs.p50)) }
        if let wakeUpsPerIdleSecond { parts.append(String(cFormat: "%.2f wake-ups per idle second", wakeUpsPerIdleSecond)) }
        if let idleCPUMsPerSecond { parts.append(String(cFormat: "%.3f ms CPU per idle second", idleCPUMsPerSecond)) }
        for video in videos ?? [] {
            parts.append("video \(video.name ?? video.source) by \(video.decoder ?? "no decoder yet"): \(video.decoded) decoded, "
                         + "\(video.shown) shown, \(video.dropped) dropped, \(video.late) late")
        }
        if let overlayPlaneFrames { parts.append("\(overlayPlaneFrames) frames with video on the overlay plane") }
        return parts.joined(separator: ", ")
    }

    /// The numbers as pretty-printed JSON.
    public func json() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return try encoder.encode(self)
    }
}

extension Runtime {
    /// The numbers so far.
    public var stats: RunStats {
        let t = telemetry
        let idle = t.idleSeconds + (t.idleSince.map { clock.now - $0 } ?? 0)
        let screen = Double(display.width * display.height)
        let idleCPU = t.idleCPUSeconds + (t.idleCPUStart.map { RunTelemetry.processCPUTime() - $0 } ?? 0)
        return RunStats(
            seconds: clock.now - t.startTime, frames: t.renderedFrames, flips: t.flipCadence.count,
            flipRate: t.flipCadence.rate,
            flipIntervalJitterMs: t.flipCadence.jitter.map { $0 * 1000 },
            flipIntervalMaxDeviationMs: t.flipCadence.maxDeviation.map { $0 * 1000 },
            missedVBlanks: display.missedVBlanks, failedFlips: failedFlips, deviceStalls: deviceStalls,
            renderMs: RunStats.Percentiles(t.frameCosts), recordMs: RunStats.Percentiles(t.recordCosts),
            inputToFlipMs: RunStats.Percentiles(t.inputLatencies), inputsWithoutChange: t.inputsWithoutChange,
            touches: t.touchCount, gestures: dispatcher.recognizedGestures,
            idleSeconds: idle, idleWakeUps: t.idleWakeUps, wakeUpsPerIdleSecond: idle > 0 ? Double(t.idleWakeUps) / idle : nil,
            cpuSeconds: RunTelemetry.processCPUTime() - t.startCPU,
            idleCPUMsPerSecond: idle > 0 ? idleCPU * 1000 / idle : nil,
            frameRequestToFlipMs: RunStats.Percentiles(t.requestLatencies),
            damagedFraction: t.renderedFrames > 0 && screen > 0 ? Double(t.damagedPixels) / (Double(t.renderedFrames) * screen) : nil,
            videos: videos.all.isEmpty ? nil : videos.all.map(\.report),
            overlayPlaneFrames: frames.overlayFrames > 0 ? frames.overlayFrames : nil)
    }
}
