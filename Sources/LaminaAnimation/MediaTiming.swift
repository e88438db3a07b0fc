/// How an animation shows outside its active interval (`CAMediaTimingFillMode`).
public enum FillMode: String, Hashable, Sendable, CaseIterable {
    /// The model value shows outside the active interval (the default).
    case removed
    /// The end value holds after the active interval.
    case forwards
    /// The start value shows before the active interval.
    case backwards
    /// Both of the above.
    case both

    var fillsForwards: Bool { self == .forwards || self == .both }
    var fillsBackwards: Bool { self == .backwards || self == .both }
}

/// The timing of an animation (`CAMediaTiming`), and the pure evaluator that maps a time
/// in the layer's time space to the animation's phase (behaviour.md rules 6 and 7).
///
/// Defaults follow rule 4: `duration 0` (replaced when the animation is committed),
/// `speed 1`, no repeat, no autoreverse, `fillMode removed`.
public struct MediaTiming: Hashable, Sendable {
    /// Start time in the layer's time space (absolute; 0 means "at commit", rule 5).
    public var beginTime: Double = 0
    /// Seconds of one simple cycle.
    public var duration: Double = 0
    /// How fast local time runs relative to the parent's (1 by default; 0 freezes, negative runs back).
    public var speed: Double = 1
    /// Phase shift inside the active interval; wraps there (rule 7).
    public var timeOffset: Double = 0
    /// Number of cycles (0 = one); `.infinity` repeats forever.
    public var repeatCount: Double = 0
    /// Seconds to repeat for; wins over `repeatCount` when both are set (rule 6).
    public var repeatDuration: Double = 0
    /// Runs backward after each forward run.
    public var autoreverses = false
    /// What shows outside the active time (removed by default).
    public var fillMode: FillMode = .removed

    /// Core Animation's defaults: no delay, no duration yet, speed 1, one run, removed fill.
    public init() {}

    /// One cycle: `duration`, doubled by `autoreverses`.
    public var cycleDuration: Double { duration * (autoreverses ? 2 : 1) }

    /// Rule 6: `repeatDuration` if set (not doubled by autoreverses), else `repeatCount`
    /// cycles, else one cycle.
    public var activeDuration: Double {
        if repeatDuration > 0 { return repeatDuration }
        if repeatCount > 0 { return repeatCount.isInfinite ? .infinity : cycleDuration * repeatCount }
        return cycleDuration
    }

    /// The layer-time instant at which the active interval ends.
    @inline(__always)
    public var endTime: Double {
        speed == 0 ? .infinity : beginTime + activeDuration / abs(speed)
    }

    /// Where an animation is at one instant.
    public struct Phase: Hashable, Sendable {
        /// Seconds into the simple duration after the autoreverse fold: 0…duration.
        public var simpleTime: Double
        /// `simpleTime / duration`, before any timing function (1 when duration is 0).
        public var fraction: Double
        /// The current iteration `⌊t / cycle⌋` (for cumulative animations, rule 17).
        public var iteration: Double
    }

    /// The phase at layer time `tp`, or nil where the model value shows (outside the active
    /// interval without a fill covering it). The interval is closed at its end (rule 7).
    public func phase(at tp: Double) -> Phase? {
        let cycle = cycleDuration
        if speed == 0 { return phase(localTime: timeOffset, cycle: cycle) }
        if tp < beginTime {
            return fillMode.fillsBackwards ? phase(localTime: timeOffset, cycle: cycle) : nil
        }
        let end = endTime
        if tp > end && !fillMode.fillsForwards { return nil }
        if tp >= end {
            // Terminal local time: the end value, also used by a forwards fill.
            let tEnd = (speed > 0 ? 1.0 : -1.0) * activeDuration + timeOffset
            guard cycle > 0, tEnd.isFinite else { return phase(localTime: tEnd, cycle: cycle) }
            var u = Self.flooredModulo(tEnd, cycle)
            var iteration = (tEnd / cycle).rounded(.down)
            if u == 0 && speed > 0 {
                u = cycle
                iteration -= 1
            }
            return folded(u, iteration: iteration)
        }
        return phase(localTime: (tp - beginTime) * speed + timeOffset, cycle: cycle)
    }

    private func phase(localTime t: Double, cycle: Double) -> Phase {
        guard cycle > 0 else { return Phase(simpleTime: 0, fraction: 1, iteration: 0) }
        // `flooredModulo(t, cycle)` with its quotient's floor kept as the iteration: one
        // division and one floor where the two took two of each (every animation, every frame).
        let iteration = (t / cycle).rounded(.down)
        return folded(Self.wrapped(t - cycle * iteration, cycle), iteration: iteration)
    }

    private func folded(_ cycleTime: Double, iteration: Double) -> Phase {
        var u = cycleTime
        if u > duration { u = 2 * duration - u }
        return Phase(simpleTime: u, fraction: duration > 0 ? u / duration : 1, iteration: iteration)
    }

    static func flooredModulo(_ a: Double, _ b: Double) -> Double {
        wrapped(a - b * (a / b).rounded(.down), b)
    }

    /// `a − b·⌊a / b⌋` brought into [0, b) where rounding left it just outside.
    @inline(__always)
    private static func wrapped(_ r: Double, _ b: Double) -> Double {
        r < 0 ? r + b : (r >= b ? r - b : r)
    }
}
