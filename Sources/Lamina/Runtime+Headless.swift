import Logging

extension Runtime {
    /// A runtime on an in-memory display of `width` x `height` at `refreshRate` Hz, on a
    /// virtual clock that jumps from one event to the next: for an app's own tests (install a
    /// scene, add a `ScriptedTouchSource`, `run(untilSettled: true)`, read `display.shadow`)
    /// without a device or wall time. Logs below errors are dropped.
    public static func headless(width: Int = 800, height: Int = 480, refreshRate: Double = 60,
                                background: Color = .black) throws -> Runtime {
        guard (1...GeometryLimits.maximumDimension).contains(width), (1...GeometryLimits.maximumDimension).contains(height),
              let mode = LaminaConfig.parseMode("\(width)x\(height)@\(refreshRate)") else {
            throw BackendError(reason: "a headless display of \(width)x\(height) at \(refreshRate) Hz cannot be made")
        }
        let clock = VirtualClock()
        let display: Display
        do {
            display = try Display(device: DummyKMSDevice(clock: clock, modes: [mode]), clock: clock)
        } catch {
            throw BackendError(reason: "cannot bring up the headless display: \(error)")
        }
        var logger = Logger(label: "lamina-headless")
        logger.logLevel = .error
        return Runtime(display: display, clock: clock, background: background, logger: logger)
    }
}
