#if canImport(Glibc)
import Glibc
#endif

/// Waiting for the next thing to do, and the signals that arrive meanwhile.
extension Runtime {
    /// Stop cleanly on SIGINT / SIGTERM, reload on SIGHUP, log the stats on SIGUSR1, and
    /// follow VT switch requests on SIGUSR2 (the daemon, on any clock; on a virtual one the
    /// signals are read between events).
    public func watchStopSignals() {
        signals = SignalWatcher()
    }

    func wait(until next: Double?) {
        var fds: [pollfd] = []
        if let fd = display.device.eventDescriptor { fds.append(pollfd(fd: fd, events: Int16(POLLIN), revents: 0)) }
        if let fd = display.device.hotplugDescriptor { fds.append(pollfd(fd: fd, events: Int16(POLLIN), revents: 0)) }
        for source in touchSources {
            if let fd = source.eventDescriptor { fds.append(pollfd(fd: fd, events: Int16(POLLIN), revents: 0)) }
        }
        if let signals { fds.append(pollfd(fd: signals.descriptor, events: Int16(POLLIN), revents: 0)) }
        var timeout: Int32 = -1
        if let next { timeout = Int32(max(0, min(60_000, ((next - clock.now) * 1000).rounded(.up)))) }
        let ready = poll(&fds, nfds_t(fds.count), timeout)
        if ready < 0 && errno != EINTR { logger.error("poll failed: errno \(errno)") }
        handleSignals()
    }

    /// Acts on the signals that arrived: SIGUSR1 stats, SIGHUP reload (one a process sent),
    /// SIGUSR2 a VT switch (only with a VT to switch; otherwise logged and ignored),
    /// SIGINT/SIGTERM stop.
    func handleSignals() {
        if let signals {
            for arrival in signals.drain() {
                let signal = arrival.signal
                if signal == SIGUSR1 {
                    if let onStatsRequest { onStatsRequest() } else { logger.info("stats: \(stats.summary)") }
                } else if signal == SIGHUP && arrival.fromKernel {
                    logger.info("terminal hangup (SIGHUP from the kernel) ignored: only a sent SIGHUP reloads")
                } else if signal == SIGHUP {
                    if let onReload { onReload() } else { logger.notice("SIGHUP: nothing to reload") }
                } else if signal == VTSwitching.signal {
                    guard vtSwitch != nil else {
                        logger.notice("SIGUSR2 ignored: Lamina is not switching a VT")
                        continue
                    }
                    if isSwitchedAway { returnFromVTSwitch() } else { switchAwayForVT() }
                } else {
                    logger.info("stop requested by signal")
                    stopRequested = true
                }
            }
        }
    }
}
