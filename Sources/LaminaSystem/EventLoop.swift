#if canImport(Glibc)
import Glibc
#endif
import SystemPackage

/// How a run loop waits for its next event, decided by its clock: in real time it sleeps
/// in `poll(2)` until a descriptor is readable or the next deadline; on a virtual clock it
/// jumps the clock to the next deadline at once (tests, offline rendering). Code above asks
/// the loop, never which clock it has.
public protocol EventLoop: AnyObject {
    /// True when time passes by itself while the loop waits (a real clock): frames may then
    /// start late before a vblank, and VT switches and real-time warnings apply.
    var isRealTime: Bool { get }

    /// Waits until `deadline` (nil: none) or until one of `descriptors` is readable.
    func wait(until deadline: Double?, descriptors: [FileDescriptor]) -> LoopWake
}

/// Why `EventLoop.wait` returned.
public enum LoopWake: Equatable, Sendable {
    /// The deadline came or a descriptor is readable (or a signal interrupted the wait).
    case woke
    /// A virtual loop with no deadline: nothing can ever happen again.
    case nothingPending
    /// `poll` failed with this error (logged by the caller; the loop goes on).
    case failed(Errno)
}

/// Real time: `poll(2)` on the descriptors with the deadline as its timeout (capped at a
/// minute, so a wrong deadline costs one wake-up, not a hang).
public final class PollLoop: EventLoop {
    /// The clock deadlines are on.
    public let clock: MonotonicClock
    public var isRealTime: Bool { true }

    /// A loop waiting with `poll(2)` against `clock`.
    public init(clock: MonotonicClock) {
        self.clock = clock
    }

    public func wait(until deadline: Double?, descriptors: [FileDescriptor]) -> LoopWake {
        var fds = descriptors.map { pollfd(fd: $0.rawValue, events: Int16(POLLIN), revents: 0) }
        var timeout: Int32 = -1
        if let deadline { timeout = Int32(max(0, min(60_000, ((deadline - clock.now) * 1000).rounded(.up)))) }
        let ready = poll(&fds, nfds_t(fds.count), timeout)
        if ready < 0 {
            let error = Errno(rawValue: errno)
            return error == .interrupted ? .woke : .failed(error)
        }
        return .woke
    }
}

/// Virtual time: the clock jumps to the deadline; descriptors are never waited on.
public final class VirtualLoop: EventLoop {
    /// The clock the loop moves.
    public let clock: VirtualClock
    public var isRealTime: Bool { false }

    /// A loop that advances `clock` to each deadline instead of waiting.
    public init(clock: VirtualClock) {
        self.clock = clock
    }

    public func wait(until deadline: Double?, descriptors: [FileDescriptor]) -> LoopWake {
        guard let deadline else { return .nothingPending }
        clock.advance(to: deadline)
        return .woke
    }
}

extension FileDescriptor {
    /// Whether a read would not block now (`poll(2)` with a zero timeout; EINTR retried).
    public func isReadableNow() throws(Errno) -> Bool {
        var pending = pollfd(fd: rawValue, events: Int16(POLLIN), revents: 0)
        while true {
            let ready = poll(&pending, 1, 0)
            if ready >= 0 { return ready > 0 && pending.revents & Int16(POLLIN) != 0 }
            let error = Errno(rawValue: errno)
            if error != .interrupted { throw error }
        }
    }
}
