import CLinux
import SystemPackage
#if canImport(Glibc)
import Glibc
#endif

/// A descriptor another thread makes readable to wake the event loop (`eventfd`): work done
/// off the loop (a screenshot encoded in the background) says it is finished, and the loop,
/// which waits on descriptors only, picks the result up between two frames.
public final class WakeupEvent: @unchecked Sendable {
    /// What the loop polls.
    public let descriptor: Int32

    /// A new, unsignalled event (non-blocking, closed on exec).
    public init() throws(Errno) {
        let fd = eventfd(0, Int32(EFD_NONBLOCK | EFD_CLOEXEC))
        guard fd >= 0 else { throw Errno(rawValue: errno) }
        descriptor = fd
    }

    deinit { close(descriptor) }

    /// Makes the descriptor readable (from any thread).
    public func signal() {
        var one: UInt64 = 1
        _ = write(descriptor, &one, MemoryLayout<UInt64>.size)
    }

    /// Makes it unreadable again; true when it had been signalled.
    @discardableResult
    public func reset() -> Bool {
        var count: UInt64 = 0
        return read(descriptor, &count, MemoryLayout<UInt64>.size) == MemoryLayout<UInt64>.size
    }

    /// Waits until the descriptor is readable or `seconds` pass (for a thread that is not the
    /// loop: a recording on the virtual clock waiting for a video's next frame); true when it
    /// is readable.
    public func wait(seconds: Double) -> Bool {
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        let milliseconds = Int32(max(0, min(seconds, 3600)) * 1000)
        return poll(&entry, 1, milliseconds) == 1
    }
}
