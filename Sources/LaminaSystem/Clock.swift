#if canImport(Glibc)
import Glibc
#endif

/// The one media clock: seconds on `CLOCK_MONOTONIC` (rule 1). Engine code is handed times;
/// only the event loop, input and the devices that stand in for hardware read a clock, and
/// `SystemClock` is the only code that reads `CLOCK_MONOTONIC`.
public protocol MonotonicClock: AnyObject {
    /// The current time in seconds.
    var now: Double { get }

    /// A loop that waits on this clock: `poll(2)` in real time, jumps on a virtual clock.
    func makeEventLoop() -> EventLoop
}

/// `CLOCK_MONOTONIC`, the clock DRM flip timestamps and libinput event times use.
public final class SystemClock: MonotonicClock, Sendable {
    /// The process's monotonic clock.
    public init() {}

    /// One instance for code that reads the time on a hot path (every input event, every
    /// timed device call): the clock has no state, so nothing is allocated per read.
    public static let shared = SystemClock()

    public var now: Double { Self.read().seconds }

    public func makeEventLoop() -> EventLoop { PollLoop(clock: self) }

    /// Microseconds on the same clock (libinput's event times are in these).
    public var microseconds: UInt64 {
        let ts = Self.read()
        return UInt64(ts.tv_sec) * 1_000_000 + UInt64(ts.tv_nsec) / 1000
    }

    /// One `clock_gettime(CLOCK_MONOTONIC)`; it cannot fail with a valid clock id and pointer.
    private static func read() -> timespec {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return ts
    }
}

extension timespec {
    var seconds: Double { Double(tv_sec) + Double(tv_nsec) / 1e9 }
}

/// A clock that moves only when told: tests and offline rendering run on it as fast as
/// the CPU allows.
public final class VirtualClock: MonotonicClock {
    public private(set) var now: Double

    /// A clock standing at `start` seconds until advanced.
    public init(start: Double = 0) {
        now = start
    }

    public func makeEventLoop() -> EventLoop { VirtualLoop(clock: self) }

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

/// The CPU time this process has used, user and system (`CLOCK_PROCESS_CPUTIME_ID`): what
/// the run's stats report per idle second.
public enum ProcessCPUTime {
    /// Seconds of CPU used so far.
    public static var seconds: Double {
        var ts = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}

/// The CPU time the calling thread has used, user and system (`CLOCK_THREAD_CPUTIME_ID`):
/// what the loop itself costs, apart from threads of libraries it drives (GStreamer's).
public enum ThreadCPUTime {
    /// Seconds of CPU the calling thread has used so far.
    public static var seconds: Double {
        var ts = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}
