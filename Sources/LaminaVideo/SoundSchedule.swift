/// When a playing video's frames are shown: the timeline time (see ``VideoFrame/time``) shown at
/// the display's `clock` time (seconds on `CLOCK_MONOTONIC`), going on at the player's rate. The
/// decoder puts its sound on the same schedule.
public struct SoundSchedule: Equatable, Sendable {
    /// A vblank's time, when `timeline` is shown.
    public var clock: Double
    /// The timeline time shown then.
    public var timeline: Double
    /// Whether `clock` is the wall's (`CLOCK_MONOTONIC` now), not a virtual clock's.
    public var isRealTime: Bool

    /// A schedule showing `timeline` at `clock`.
    public init(clock: Double, timeline: Double, isRealTime: Bool = true) {
        self.clock = clock
        self.timeline = timeline
        self.isRealTime = isRealTime
    }
}
