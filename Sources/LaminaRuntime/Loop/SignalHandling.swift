#if canImport(Glibc)
import Glibc
#endif
import LaminaSystem
import Logging
import SystemPackage

/// The signals the daemon answers, read from a descriptor between events (on any clock):
/// SIGINT / SIGTERM stop cleanly, a sent SIGHUP reloads, SIGUSR1 logs the stats, SIGUSR2
/// follows a VT switch request. Serviced right after the loop's wait.
final class SignalHandling: LoopSource {
    private unowned let runtime: Runtime
    private var signals: SignalDescriptor?

    init(runtime: Runtime) {
        self.runtime = runtime
    }

    /// Starts watching; throws when the descriptor cannot be made.
    func watch() throws(SystemCallError) {
        signals = try SignalDescriptor(watching: [SIGINT, SIGTERM, SIGUSR1, SIGUSR2, SIGHUP])
    }

    let phase = LoopPhase.woken

    var wakeDescriptors: [FileDescriptor] { signals.map { [$0.descriptor] } ?? [] }

    func nextDeadline(now: Double) -> Double? { nil }

    /// Acts on the signals that arrived: SIGUSR1 stats, SIGHUP reload (one a process sent),
    /// SIGUSR2 a VT switch (only with a VT to switch; otherwise logged and ignored),
    /// SIGINT/SIGTERM stop.
    func service(now: Double) -> Bool {
        guard let signals else { return false }
        let logger = runtime.logger
        for arrival in signals.drain() {
            let signal = arrival.signal
            if signal == SIGUSR1 {
                if let onStatsRequest = runtime.hooks.onStatsRequest { onStatsRequest() } else { logger.info("stats: \(runtime.stats.summary)") }
            } else if signal == SIGHUP && arrival.fromKernel {
                logger.info("terminal hangup (SIGHUP from the kernel) ignored: only a sent SIGHUP reloads")
            } else if signal == SIGHUP {
                if let onReload = runtime.hooks.onReload { onReload { _ in } } else { logger.notice("SIGHUP: nothing to reload") }
            } else if signal == VTSwitching.signal {
                guard runtime.output.vtSwitch != nil else {
                    logger.notice("SIGUSR2 ignored: Lamina is not switching a VT")
                    continue
                }
                if runtime.output.isSwitchedAway { runtime.output.returnFromSwitch() } else { runtime.output.switchAway() }
            } else {
                logger.info("stop requested by signal")
                runtime.requestStop(.signal)
            }
        }
        return false
    }
}
