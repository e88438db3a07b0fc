#if canImport(Glibc)
import Glibc
#endif
import CLinux
import SystemPackage

/// Signals as a readable descriptor (`signalfd(2)`): the signals given are blocked for the
/// process and queued on the descriptor, so they arrive through the same `poll` as display
/// and input events and are acted on between events (a clean stop restores the CRTC and
/// finishes writing frames).
public final class SignalDescriptor {
    /// The descriptor to poll (non-blocking, closed on exec).
    public let descriptor: FileDescriptor

    /// Blocks `signals` and opens a descriptor that queues them. Throws the failing call's
    /// error number: a daemon that cannot watch its signals cannot stop cleanly.
    public init(watching signals: [Int32]) throws(SystemCallError) {
        var mask = sigset_t()
        sigemptyset(&mask)
        for signal in signals { sigaddset(&mask, signal) }
        guard sigprocmask(SIG_BLOCK, &mask, nil) == 0 else {
            throw SystemCallError(call: "sigprocmask", errno: Glibc.errno)
        }
        let fd = signalfd(-1, &mask, Int32(SFD_CLOEXEC | SFD_NONBLOCK))
        guard fd >= 0 else { throw SystemCallError(call: "signalfd", errno: Glibc.errno) }
        descriptor = FileDescriptor(rawValue: fd)
    }

    deinit { try? descriptor.close() }

    /// A signal that arrived, and whether the kernel raised it (a terminal hangup, say)
    /// rather than a process (`kill`, `systemctl kill`).
    public struct Arrival: Equatable, Sendable {
        /// The signal's number.
        public var signal: Int32
        /// Raised by the kernel (`SI_KERNEL`), not sent by a process.
        public var fromKernel: Bool

        /// A signal `signal`, raised by the kernel or not.
        public init(signal: Int32, fromKernel: Bool) {
            self.signal = signal
            self.fromKernel = fromKernel
        }
    }

    /// The signals waiting, consumed (none when nothing is queued).
    public func drain() -> [Arrival] {
        var signals: [Arrival] = []
        var info = signalfd_siginfo()
        while true {
            let count = try? withUnsafeMutableBytes(of: &info) { try descriptor.read(into: $0) }
            guard count == MemoryLayout<signalfd_siginfo>.size else { return signals }
            signals.append(Arrival(signal: Int32(info.ssi_signo), fromKernel: info.ssi_code == 0x80))   // SI_KERNEL
        }
    }
}
