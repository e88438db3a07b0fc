import LaminaDisplay
import Logging

/// A KMS device plus the clock its vblanks run on.
public struct OpenedBackend {
    /// The opened KMS device (DRM, fbdev or the dummy).
    public var device: KMSDevice
    /// The clock its vblanks are timed on: the system clock, or a virtual one for the dummy.
    public var clock: MonotonicClock
    /// True for the in-memory device.
    public var isDummy: Bool
    /// The format the device scans out whatever the config says (a framebuffer device's).
    public var format: PixelFormat? = nil
}

/// Why no display backend could be opened.
public struct BackendError: Error, CustomStringConvertible {
    /// Why the backend could not be opened, in one line.
    public var reason: String
    /// `EX_UNAVAILABLE` from sysexits.h.
    public static let exitStatus: Int32 = 69
    public var description: String { reason }
}

/// Opens the display backend a configuration chooses (`auto` tries DRM, fbdev, then the dummy).
public enum Backends {
    /// Opens the chosen backend. `auto` tries DRM cards first, then the framebuffer device,
    /// and when neither can be used falls back to the dummy display and says why.
    public static func open(_ choice: BackendChoice, config: LaminaConfig, logger: Logger) throws(BackendError) -> OpenedBackend {
        switch choice {
        case .dummy:
            return dummy(config: config, logger: logger)
        case .fbdev:
            return try fbdev(config: config, logger: logger)
        case .drm, .auto:
            break
        }
        switch DRMDevice.openFirstUsable() {
        case .success(let device):
            device.prefersLegacyFlips = config.legacyPageFlips
            logger.info("backend: drm on \(device.name)")
            return OpenedBackend(device: device, clock: SystemClock(), isDummy: false)
        case .failure(let error) where choice == .drm:
            throw BackendError(reason: "no usable DRM device: \(error.detail)")
        case .failure(let error):
            logger.notice("no usable DRM device (\(error.detail)); trying the framebuffer device \(config.fbdevPath)")
            do {
                return try fbdev(config: config, logger: logger)
            } catch {
                logger.notice("\(error.reason); using the dummy display")
                return dummy(config: config, logger: logger)
            }
        }
    }

    private static func fbdev(config: LaminaConfig, logger: Logger) throws(BackendError) -> OpenedBackend {
        let device: FBDevDevice
        do {
            device = try FBDevDevice(path: config.fbdevPath, clock: SystemClock())
        } catch {
            throw BackendError(reason: "no usable framebuffer device: \(error)")
        }
        if device.format != config.format {
            logger.notice("\(config.fbdevPath) is \(device.format.rawValue): drawing in that format (display.format says \(config.format.rawValue))")
        }
        logger.info("backend: fbdev on \(device.name), \(device.mode.width)x\(device.mode.height) \(device.format.rawValue), \(device.isDoubleBuffered ? "double buffered by panning" : "single buffered")")
        return OpenedBackend(device: device, clock: device.clock, isDummy: false, format: device.format)
    }

    private static func dummy(config: LaminaConfig, logger: Logger) -> OpenedBackend {
        let clock: MonotonicClock = config.clock == .virtual ? VirtualClock() : SystemClock()
        let device = DummyKMSDevice(clock: clock, modes: [config.dummyMode])
        logger.info("backend: dummy display \(config.dummyMode.width)x\(config.dummyMode.height) at \(config.dummyMode.refreshRate) Hz, \(config.clock.rawValue) clock")
        return OpenedBackend(device: device, clock: clock, isDummy: true)
    }
}
