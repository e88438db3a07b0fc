import Lamina
import LaminaDisplay
import LaminaGeometry
import Logging

/// A dummy display on a virtual clock: the fake vblank source every display test uses.
public struct DummyDisplayRig {
    public let clock: VirtualClock
    public let device: DummyKMSDevice
    public let display: Display

    /// A `width x height` output whose vblanks tick at `refresh` Hz from time `start`.
    public init(width: Int = 64, height: Int = 48, refresh: Double = 60, start: Double = 100) throws {
        clock = VirtualClock(start: start)
        let htotal = width + 160, vtotal = height + 30
        let mode = KMSMode(name: "\(width)x\(height)", width: width, height: height,
                           clock: Int((refresh * Double(htotal * vtotal) / 1000).rounded()),
                           htotal: htotal, vtotal: vtotal, isPreferred: true)
        device = DummyKMSDevice(clock: clock, modes: [mode])
        display = try Display(device: device)
    }

    /// A runtime on this display with a quiet logger.
    public func makeRuntime(background: Color = .black) -> Runtime {
        var logger = Logger(label: "lamina-test")
        logger.logLevel = .critical
        return Runtime(display: display, clock: clock, background: background, logger: logger)
    }

    /// Advances the clock to the next device event and handles it; false when none is pending.
    @discardableResult
    public func advanceToNextEvent(_ runtime: Runtime) -> Bool {
        guard let next = device.nextEventTime else { return false }
        clock.advance(to: next)
        runtime.step()
        return true
    }
}
