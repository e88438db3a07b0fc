import LaminaDisplay
import Logging

/// A KMS device plus the clock its vblanks run on.
public struct OpenedBackend {
    public var device: KMSDevice
    public var clock: MonotonicClock
    /// True for the in-memory device.
    public var isDummy: Bool
}

/// Why no display backend could be opened.
public struct BackendError: Error, CustomStringConvertible {
    public var reason: String
    /// `EX_UNAVAILABLE` from sysexits.h.
    public static let exitStatus: Int32 = 69
    public var description: String { reason }
}

public enum Backends {
    /// Opens the chosen backend. `auto` tries DRM cards first and, when none can be used,
    /// falls back to the dummy display and says why.
    public static func open(_ choice: BackendChoice, config: LaminaConfig, logger: Logger) throws(BackendError) -> OpenedBackend {
        if choice == .dummy { return dummy(config: config, logger: logger) }
        switch DRMDevice.openFirstUsable() {
        case .success(let device):
            device.prefersLegacyFlips = config.legacyPageFlips
            logger.info("backend: drm on \(device.name)")
            return OpenedBackend(device: device, clock: SystemClock(), isDummy: false)
        case .failure(let error) where choice == .drm:
            throw BackendError(reason: "no usable DRM device: \(error.detail)")
        case .failure(let error):
            logger.notice("no usable DRM device (\(error.detail)); using the dummy display")
            return dummy(config: config, logger: logger)
        }
    }

    private static func dummy(config: LaminaConfig, logger: Logger) -> OpenedBackend {
        let clock: MonotonicClock = config.clock == .virtual ? VirtualClock() : SystemClock()
        let device = DummyKMSDevice(clock: clock, modes: [config.dummyMode])
        logger.info("backend: dummy display \(config.dummyMode.width)x\(config.dummyMode.height) at \(config.dummyMode.refreshRate) Hz, \(config.clock.rawValue) clock")
        return OpenedBackend(device: device, clock: clock, isDummy: true)
    }
}
