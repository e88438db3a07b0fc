import Lamina
import LaminaDisplay
import LaminaGeometry
import Logging

/// A dummy display on a virtual clock: the fake vblank source every display test uses.
public struct DummyDisplayRig {
    public let clock: VirtualClock
    public let device: DummyKMSDevice
    public let display: Display

    /// A `width x height` output whose vblanks tick at exactly `refresh` Hz (an integer)
    /// from time `start`: totals are multiples of 1000 x 100, so the pixel clock in kHz is
    /// a whole number.
    public init(width: Int = 64, height: Int = 48, refresh: Int = 60, start: Double = 100) throws {
        clock = VirtualClock(start: start)
        let htotal = 1000 * (width / 1000 + 1), vtotal = 100 * (height / 100 + 1)
        let mode = KMSMode(name: "\(width)x\(height)", width: width, height: height,
                           clock: refresh * htotal * vtotal / 1000,
                           htotal: htotal, vtotal: vtotal, isPreferred: true)
        device = DummyKMSDevice(clock: clock, modes: [mode])
        display = try Display(device: device)
    }

    /// A runtime on this display with a quiet logger.
    public func makeRuntime(background: Color = .black, log: CapturedLog? = nil) -> Runtime {
        var logger = log?.logger() ?? Logger(label: "lamina-test")
        if log == nil { logger.logLevel = .critical }
        return Runtime(display: display, clock: clock, background: background, logger: logger)
    }

    /// Advances the clock to the next device event (or the start of a frame the runtime holds
    /// for a later vblank) and handles it; false when neither is pending.
    @discardableResult
    public func advanceToNextEvent(_ runtime: Runtime) -> Bool {
        guard let next = [device.nextEventTime, runtime.frameWaitingUntil].compactMap({ $0 }).min() else { return false }
        clock.advance(to: next)
        runtime.step()
        return true
    }

    /// Advances the clock to the next device event and lets the display handle it (no
    /// runtime); false when none is pending.
    @discardableResult
    public func step() -> Bool {
        guard let next = device.nextEventTime else { return false }
        clock.advance(to: next)
        try? display.dispatchEvents { _ in }
        return true
    }
}
