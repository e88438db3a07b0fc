#if canImport(Glibc)
import Glibc
#endif
import CLinux

/// SIGINT, SIGTERM (stop), SIGHUP (reload), SIGUSR1 (stats) and SIGUSR2 (VT switch requests) as a
/// readable descriptor (`signalfd`), so a stop request arrives
/// through the same `poll` as display and input events and the daemon can shut down
/// cleanly (restore the CRTC, finish writing frames).
final class SignalWatcher {
    let descriptor: Int32

    init?() {
        var mask = sigset_t()
        sigemptyset(&mask)
        sigaddset(&mask, SIGINT)
        sigaddset(&mask, SIGTERM)
        sigaddset(&mask, SIGUSR1)
        sigaddset(&mask, SIGUSR2)
        sigaddset(&mask, SIGHUP)
        guard sigprocmask(SIG_BLOCK, &mask, nil) == 0 else { return nil }
        let fd = signalfd(-1, &mask, Int32(SFD_CLOEXEC | SFD_NONBLOCK))
        guard fd >= 0 else { return nil }
        descriptor = fd
    }

    deinit { close(descriptor) }

    /// A signal that arrived, and whether the kernel raised it (a terminal hangup, say)
    /// rather than a process (`kill`, `systemctl kill`).
    struct Arrival {
        var signal: Int32
        var fromKernel: Bool
    }

    /// The signals waiting, consumed.
    func drain() -> [Arrival] {
        var signals: [Arrival] = []
        var info = signalfd_siginfo()
        while read(descriptor, &info, MemoryLayout<signalfd_siginfo>.size) == MemoryLayout<signalfd_siginfo>.size {
            signals.append(Arrival(signal: Int32(info.ssi_signo), fromKernel: info.ssi_code == 0x80))   // SI_KERNEL
        }
        return signals
    }
}
