import LaminaSystem
import SystemPackage

/// Waiting for a display device that is not usable yet. A service started at boot can run
/// before udev has loaded the display driver or applied its rules: the card node is missing,
/// or still `root:root 0600` so opening it fails with `EACCES` (display-input.md §8). A kiosk
/// must then wait for the device rather than fall back to another display; wlroots waits for
/// a GPU the same way.
public enum DeviceWait {
    /// How often a failed attempt is retried when no udev event wakes the wait earlier.
    public static let retryInterval = 0.25

    /// Calls `attempt` until it succeeds, `keepWaiting` says its failure is final, or
    /// `seconds` have passed on `clock`; between attempts it waits on `loop` for
    /// `retryInterval`, or until one of `wakeOn` is readable (a udev monitor: a device added
    /// or changed). Returns the last attempt's result and the number of attempts.
    public static func retrying<Value, Failure: Error>(
        upTo seconds: Double, clock: MonotonicClock, loop: EventLoop, wakeOn: [FileDescriptor] = [],
        drain: () -> Void = {}, attempt: () -> Result<Value, Failure>, keepWaiting: (Failure) -> Bool
    ) -> (result: Result<Value, Failure>, attempts: Int) {
        let deadline = clock.now + max(0, seconds)
        var attempts = 0
        while true {
            let result = attempt()
            attempts += 1
            guard case .failure(let error) = result, clock.now < deadline, keepWaiting(error) else {
                return (result, attempts)
            }
            if case .nothingPending = loop.wait(until: min(deadline, clock.now + retryInterval), descriptors: wakeOn) {
                return (result, attempts)
            }
            drain()
        }
    }
}

extension DRMDevice {
    /// `openFirstUsable`, retried for up to `seconds` while it fails and `keepWaiting`
    /// agrees, woken early by udev's `drm` events (display-input.md §8). Returns at once when
    /// a card can be used; `attempts` says whether it had to wait.
    public static func openFirstUsable(
        directory: String = "/dev/dri", waitingUpTo seconds: Double, clock: MonotonicClock,
        keepWaiting: (KMSError) -> Bool = { _ in true }
    ) -> (result: Result<DRMDevice, KMSError>, attempts: Int) {
        let monitor = seconds > 0 ? HotplugMonitor() : nil
        return DeviceWait.retrying(
            upTo: seconds, clock: clock, loop: clock.makeEventLoop(),
            wakeOn: monitor.map { [FileDescriptor(rawValue: $0.descriptor)] } ?? [],
            drain: { _ = monitor?.takeHotplug() },
            attempt: { openFirstUsable(directory: directory) }, keepWaiting: keepWaiting)
    }

}
