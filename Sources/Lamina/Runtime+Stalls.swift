import FoundationEssentials
import LaminaSystem

extension Runtime {
    /// A call into the display driver longer than this is a stall worth a log line.
    static let stallThreshold = 0.5

    /// Runs one call into the display driver (a flip, a modeset, reading events) and logs
    /// it when the kernel held the loop longer than `stallThreshold` (decision 86): a driver
    /// that blocks (an fbdev pan turned into a blocking atomic commit, a stalled vblank) then
    /// names itself in the journal, and `deviceStalls` counts it. Measured on
    /// CLOCK_MONOTONIC whatever the run's clock, since the stall is real time lost.
    func timedDeviceCall<T, Failure: Error>(_ what: StaticString, _ body: () throws(Failure) -> T) throws(Failure) -> T {
        let start = Self.monotonicNow()
        defer {
            let held = Self.monotonicNow() - start
            if held > Self.stallThreshold {
                deviceStalls += 1
                logger.warning("the display driver held \(what) for \(String(cFormat: "%.2f", held)) s")
            }
        }
        return try body()
    }

    private static func monotonicNow() -> Double {
        SystemClock.shared.now
    }
}
