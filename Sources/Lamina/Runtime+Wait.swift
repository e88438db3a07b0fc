#if canImport(Glibc)
import Glibc
#endif
import LaminaSystem
import SystemPackage

/// Waiting for the next thing to do, and the signals that arrive meanwhile.
extension Runtime {
    /// Stop cleanly on SIGINT / SIGTERM, reload on SIGHUP, log the stats on SIGUSR1, and
    /// follow VT switch requests on SIGUSR2 (the daemon, on any clock; on a virtual one the
    /// signals are read between events).
    /// Throws when the signal descriptor cannot be made: a daemon that could not stop cleanly
    /// or reload must not run (the caller logs it and exits).
    public func watchSignals() throws(SystemCallError) {
        signals = try SignalDescriptor(watching: [SIGINT, SIGTERM, SIGUSR1, SIGUSR2, SIGHUP])
    }

    /// `watchSignals()`, logging a failure instead of throwing it (the runtime then runs
    /// without signal handling).
    @available(*, deprecated, renamed: "watchSignals()", message: "a failure to watch signals must stop the daemon")
    public func watchStopSignals() {
        do { try watchSignals() } catch { logger.error("cannot watch signals: \(error)") }
    }

    /// Waits for the next event through the clock's loop (a virtual one jumps to `next`),
    /// then acts on the signals that arrived meanwhile.
    func wait(until next: Double?) -> LoopWake {
        var descriptors: [Int32] = []
        if let fd = display.device.eventDescriptor { descriptors.append(fd) }
        if let fd = display.device.hotplugDescriptor { descriptors.append(fd) }
        descriptors += touchSources.compactMap(\.eventDescriptor)
        if let signals { descriptors.append(signals.descriptor.rawValue) }
        if let folder = watchedFolder { descriptors.append(folder.watcher.descriptor.rawValue) }
        if let fd = sceneLoader.descriptor { descriptors.append(fd) }
        var deadline = next
        if let control {
            descriptors += control.descriptors
            if let screenshots { descriptors.append(screenshots.wakeup.descriptor) }
            // A reply the socket would not take yet: try again soon (the loop polls for input only).
            if control.hasPendingOutput && loop.isRealTime { deadline = min(next ?? .infinity, clock.now + 0.02) }
            // Requests left for the next turn (the per-turn budget): come back at once.
            if control.hasPendingInput { deadline = clock.now }
            // An idle client's time runs out (in real time; a virtual clock checks at each turn).
            if loop.isRealTime, let idle = control.nextIdleDeadline { deadline = min(deadline ?? .infinity, idle) }
        }
        let wake = loop.wait(until: deadline, descriptors: descriptors.map(FileDescriptor.init(rawValue:)))
        if case .failed(let error) = wake { logger.error("poll failed: \(error)") }
        handleSignals()
        sceneLoader.collect()
        handleFolderChanges()
        handleControl()
        return wake
    }

    /// Tells the folder's observer which files were written or renamed in (a scene file's
    /// live reload), read between events like the signals.
    func handleFolderChanges() {
        guard let folder = watchedFolder else { return }
        let names = folder.watcher.drain()
        if !names.isEmpty { folder.changed(names) }
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
                    if let onReload { onReload { _ in } } else { logger.notice("SIGHUP: nothing to reload") }
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
