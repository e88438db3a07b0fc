/// The Web Animations timing model of one effect (behaviour.md rule 88), used to port the
/// WPT timing-model fixtures through the crosswalk of rule 87. Times in any unit (WPT: ms).
public struct WebAnimationTiming: Sendable {
    /// What shows outside the active interval (`fill`).
    public enum Fill: String, Sendable {
        /// Nothing outside it.
        case none
        /// The end value after it.
        case forwards
        /// The start value before it.
        case backwards
        /// Both.
        case both
        /// The spec's default for an effect: as `none`.
        case auto
    }
    /// Where a local time falls.
    public enum Phase: Sendable {
        /// Before the active interval.
        case before
        /// Inside it.
        case active
        /// After it.
        case after
    }

    /// The start delay.
    public var delay = 0.0
    /// The delay after the end.
    public var endDelay = 0.0
    /// One iteration's duration.
    public var duration = 0.0
    /// How many iterations (may be fractional or infinite).
    public var iterations = 1.0
    /// Where in the first iteration it starts, in iterations.
    public var iterationStart = 0.0
    /// The fill mode (auto by default).
    public var fill = Fill.auto
    /// Only its sign matters here: which phase owns a boundary.
    public var playbackRate = 1.0

    /// The spec's defaults.
    public init() {}

    /// `duration × iterations`, 0 if either is 0.
    public var activeDuration: Double { duration == 0 || iterations == 0 ? 0 : duration * iterations }

    /// The end of the effect: delay, active duration and end delay, at least 0.
    public var endTime: Double { max(delay + activeDuration + endDelay, 0) }
    /// Where the before phase ends.
    public var beforeActiveBoundary: Double { max(min(delay, endTime), 0) }
    /// Where the active phase ends.
    public var activeAfterBoundary: Double { max(min(delay + activeDuration, endTime), 0) }

    /// The phase at local time `local`.
    public func phase(at local: Double) -> Phase {
        let backwards = playbackRate < 0
        if local < beforeActiveBoundary || (backwards && local == beforeActiveBoundary) { return .before }
        if local > activeAfterBoundary || (!backwards && local == activeAfterBoundary) { return .after }
        return .active
    }

    private var fillsBackwards: Bool { fill == .backwards || fill == .both }
    private var fillsForwards: Bool { fill == .forwards || fill == .both }

    /// Nil where the effect has no effect (outside the active interval without a fill).
    public func activeTime(at local: Double) -> Double? {
        switch phase(at: local) {
        case .before: return fillsBackwards ? max(local - delay, 0) : nil
        case .active: return local - delay
        case .after: return fillsForwards ? max(min(local - delay, activeDuration), 0) : nil
        }
    }

    /// The overall progress at `local`, nil where the effect shows nothing.
    public func overallProgress(at local: Double) -> Double? {
        guard let active = activeTime(at: local) else { return nil }
        let overall: Double
        if duration == 0 {
            overall = phase(at: local) == .before ? 0 : iterations
        } else {
            overall = active / duration
        }
        return overall + iterationStart
    }

    /// The `progress` of `getComputedTiming()`: position in the current iteration, 1 at the
    /// very end of a non-empty active interval.
    public func simpleIterationProgress(at local: Double) -> Double? {
        guard let overall = overallProgress(at: local), let active = activeTime(at: local) else { return nil }
        var simple = overall.isInfinite ? iterationStart.truncatingRemainder(dividingBy: 1)
                                        : overall - overall.rounded(.down)
        let phase = phase(at: local)
        if simple == 0 && (phase == .active || phase == .after) && active == activeDuration && iterations != 0 {
            simple = 1
        }
        return simple
    }

    /// The current iteration at `local`, nil where the effect shows nothing.
    public func currentIteration(at local: Double) -> Double? {
        guard let overall = overallProgress(at: local), let simple = simpleIterationProgress(at: local) else { return nil }
        if phase(at: local) == .after && iterations.isInfinite { return .infinity }
        if simple == 1 { return overall.rounded(.down) - 1 }
        return overall.rounded(.down)
    }
}
