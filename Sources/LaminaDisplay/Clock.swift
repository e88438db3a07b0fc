#if canImport(Glibc)
import Glibc
#endif

/// The one media clock: seconds on `CLOCK_MONOTONIC` (rule 1). Engine code is handed times;
/// only the event loop and the devices that stand in for hardware read a clock.
public protocol MonotonicClock: AnyObject {
    /// The current time in seconds.
    var now: Double { get }
}

/// `CLOCK_MONOTONIC`, the clock DRM flip timestamps and libinput event times use.
public final class SystemClock: MonotonicClock {
    public init() {}

    public var now: Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}

/// A clock that moves only when told: tests and offline rendering run on it as fast as
/// the CPU allows.
public final class VirtualClock: MonotonicClock {
    public private(set) var now: Double

    public init(start: Double = 0) {
        now = start
    }

    /// Moves the clock forward by `seconds` (never backward).
    public func advance(by seconds: Double) {
        precondition(seconds >= 0, "a monotonic clock never goes back")
        now += seconds
    }

    /// Moves the clock to `time` if that is later than now.
    public func advance(to time: Double) {
        if time > now { now = time }
    }
}
