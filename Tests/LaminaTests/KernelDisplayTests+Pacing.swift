import Lamina
@testable import LaminaSceneFiles
@testable import LaminaRuntime
import LaminaPixels
import LaminaSystem
import LaminaTestSupport

/// What the kernel suites may assume about time. They run in a VM under qemu's emulation
/// (6–14× slower than native on amd64, slower again for arm64, and slower still on a loaded
/// machine), so no check bounds how fast the loop runs: a test waits for what it expects up
/// to a generous limit, and flip pacing is checked against the vblank grid, which holds at
/// any speed.
enum KernelPacing {
    /// How long a test waits for something the kernel stack should do "at once" (a uinput
    /// event through udev and libinput, a hotplug through udev) before it fails.
    static let patience = 20.0

    /// Whether every interval between consecutive `timestamps` is a whole number (at least
    /// one) of `period`s, within `tolerance` seconds: flips completed on the kernel's vblanks
    /// (vkms times its vblanks on an hrtimer grid), however many vblanks each frame took.
    static func onVblankGrid(_ timestamps: [Double], period: Double, tolerance: Double = 0.0002) -> Bool {
        zip(timestamps, timestamps.dropFirst()).allSatisfy { earlier, later in
            let periods = (later - earlier) / period
            return periods.rounded() >= 1 && abs(later - earlier - periods.rounded() * period) <= tolerance
        }
    }
}

extension Runtime {
    /// Runs the loop in 20 ms slices until `condition` holds or `limit` seconds pass on the
    /// monotonic clock; true when it held. For waits whose length the machine decides.
    @discardableResult
    func run(until condition: () -> Bool, limit: Double = KernelPacing.patience) -> Bool {
        let clock = SystemClock.shared
        let end = clock.now + limit
        while !condition() {
            if clock.now >= end { return false }
            run(exitAfter: 0.02, untilSettled: false)
        }
        return true
    }

    /// Runs until `count` more flips have completed (frames drawn after what the test did,
    /// read back through writeback), or `KernelPacing.patience` passes; true when they did.
    @discardableResult
    func runFlips(_ count: Int) -> Bool {
        let start = flipCount
        return run(until: { flipCount >= start + count })
    }

    /// Runs flip by flip until `frame()` (a read-back) differs from `reference` in more than
    /// `pixels` pixels, or `KernelPacing.patience` passes; returns the last count. For motion
    /// that lasts a moment (a wobble, a ripple), which a slow machine shows in few frames.
    func runUntilFrame(differsFrom reference: PixelBuffer, byMoreThan pixels: Int,
                       frame: () throws -> PixelBuffer) -> Int {
        var differing = 0
        run(until: {
            runFlips(1)
            differing = (try? frame()).map { Pixels.differing($0, reference) } ?? 0
            return differing > pixels
        })
        return differing
    }

    /// Runs until a touch has begun since `stats.touches` was `touchesBefore` and no finger
    /// is down (the lift dispatched: recognizers have ended).
    @discardableResult
    func runUntilLifted(touchesBefore: Int) -> Bool {
        run(until: { stats.touches > touchesBefore && !dispatcher.hasActiveTouches })
    }
}
