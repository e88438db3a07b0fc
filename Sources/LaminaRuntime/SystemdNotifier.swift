#if canImport(Glibc)
import Glibc
#endif
import LaminaSystem

/// The `sd_notify` protocol without libsystemd: one datagram per message to the socket named
/// by `$NOTIFY_SOCKET` (a leading `@` is the abstract namespace). Without that variable (not
/// started by systemd) it does nothing.
public final class SystemdNotifier {
    private let address: [UInt8]?

    /// Reads `$NOTIFY_SOCKET` from `environment`.
    public init(environment: [String: String]) {
        let forUs = environment["WATCHDOG_PID"].map { Int32($0) == getpid() } ?? true
        if forUs, let usec = environment["WATCHDOG_USEC"].flatMap(Double.init), usec > 0 {
            watchdogInterval = usec / 1e6
        } else {
            watchdogInterval = nil
        }
        guard let path = environment["NOTIFY_SOCKET"], !path.isEmpty, path.utf8.count < 108,
              path.hasPrefix("/") || path.hasPrefix("@") else {
            address = nil
            return
        }
        var bytes = Array(path.utf8)
        if bytes[0] == UInt8(ascii: "@") { bytes[0] = 0 }
        address = bytes
    }

    /// The watchdog period systemd expects pings within (`WATCHDOG_USEC`, for this process
    /// when `WATCHDOG_PID` names one), nil when the unit has no `WatchdogSec=`.
    public let watchdogInterval: Double?

    /// True when started by systemd with a notify socket.
    public var isActive: Bool { address != nil }

    /// Sends `message` (such as `READY=1\nSTATUS=…`) without ever blocking the display loop
    /// (a full socket drops it); returns false when it could not.
    @discardableResult
    public func notify(_ message: String) -> Bool {
        guard let address else { return false }
        return UnixSocket.sendDatagram(Array(message.utf8), to: address)
    }
}
