import FoundationEssentials
import LaminaDisplay
import LaminaSystem
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
    /// and when neither can be used falls back to the dummy display and says why. `auto` and
    /// `drm` first wait up to `deviceWait` seconds for a card that is missing or cannot be
    /// opened yet (a service started before udev has finished at boot); `auto` does not wait
    /// on a board with a framebuffer device and no card node at all.
    public static func open(_ choice: BackendChoice, config: LaminaConfig, deviceWait: Double = 0,
                            logger: Logger) throws(BackendError) -> OpenedBackend {
        switch choice {
        case .dummy:
            return dummy(config: config, logger: logger)
        case .fbdev:
            return try fbdev(config: config, logger: logger)
        case .drm, .auto:
            break
        }
        let clock = SystemClock()
        let started = clock.now
        var announced = false
        let (result, attempts) = DRMDevice.openFirstUsable(waitingUpTo: deviceWait, clock: clock) { error in
            if choice == .auto, DRMDevice.cardPaths().isEmpty, FileManager.default.fileExists(atPath: config.fbdevPath) {
                return false
            }
            if !announced {
                logger.notice("no usable DRM device yet (\(error.detail)); waiting up to \(String(cFormat: "%g", deviceWait)) s for udev")
                announced = true
            }
            return true
        }
        switch result {
        case .success(let device):
            device.prefersLegacyFlips = config.legacyPageFlips
            if attempts > 1 { logger.notice("\(device.path) usable after \(String(cFormat: "%.1f", clock.now - started)) s") }
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
