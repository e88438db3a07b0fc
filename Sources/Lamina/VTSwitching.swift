#if canImport(Glibc)
import LaminaSystem
import Glibc
#endif
import CLinux
import LaminaDisplay

/// The two answers a process owning a VT in `VT_PROCESS` mode gives the kernel.
public protocol VTSwitchAcknowledging: AnyObject {
    /// `VT_RELDISP 1`: the display is let go (DRM master dropped); the switch away may happen.
    func allowSwitchAway()
    /// `VT_RELDISP VT_ACKACQ`: the VT is ours again.
    func acknowledgeReturn()
}

/// VT switching without logind (display-input.md §9): Lamina's VT in `VT_PROCESS` mode, so
/// the kernel asks (with `SIGUSR2`) before switching away and tells (with `SIGUSR2` again)
/// when the VT is back. On the first, Lamina drops DRM master and then allows the switch;
/// on the second it takes master back, sets its mode and repaints. Without this a switch
/// to another VT leaves Lamina's picture up, or the console and Lamina fight over the
/// screen. `restore()` puts back `VT_AUTO` (on exit and SIGTERM).
public final class VTSwitching: VTSwitchAcknowledging {
    /// The signal the kernel sends for both release and acquire requests.
    public static let signal = SIGUSR2
    let path: String
    private let fd: Int32
    private var restored = false

    /// Puts the VT at `path` in `VT_PROCESS` mode; the failure says why (not a VT, or not
    /// allowed: the VT must be the controlling terminal or the process needs
    /// `CAP_SYS_TTY_CONFIG`).
    static func take(path: String) -> Result<VTSwitching, SystemCallError> {
        let fd = open(path, O_RDWR | O_CLOEXEC | O_NOCTTY)
        guard fd >= 0 else { return .failure(SystemCallError(call: "open", errno: errno, detail: path)) }
        var mode = vt_mode()
        mode.mode = CChar(VT_PROCESS)
        mode.relsig = Int16(signal)
        mode.acqsig = Int16(signal)
        guard ioctl(fd, UInt(VT_SETMODE), &mode) == 0 else {
            let error = errno
            close(fd)
            return .failure(SystemCallError(call: "VT_SETMODE", errno: error, detail: path))
        }
        return .success(VTSwitching(path: path, fd: fd))
    }

    private init(path: String, fd: Int32) {
        self.path = path
        self.fd = fd
    }

    deinit { restore() }

    public func allowSwitchAway() {
        _ = lamina_ioctl_value(fd, UInt(VT_RELDISP), 1)
    }

    public func acknowledgeReturn() {
        _ = lamina_ioctl_value(fd, UInt(VT_RELDISP), UInt(VT_ACKACQ))
    }

    /// Back to `VT_AUTO`: the kernel switches without asking. Safe to call twice.
    func restore() {
        guard !restored else { return }
        restored = true
        var mode = vt_mode()
        mode.mode = CChar(VT_AUTO)
        _ = ioctl(fd, UInt(VT_SETMODE), &mode)
        close(fd)
    }

    /// Asks the console to switch to VT `number` (`VT_ACTIVATE` on `console`, as `chvt`
    /// does, without waiting: a VT in `VT_PROCESS` mode switches when its owner allows).
    public static func activate(_ number: Int, console: String = "/dev/tty0") throws(SystemCallError) {
        let fd = open(console, O_RDWR | O_CLOEXEC | O_NOCTTY)
        guard fd >= 0 else { throw SystemCallError(call: "open", errno: errno, detail: console) }
        defer { close(fd) }
        guard lamina_ioctl_value(fd, UInt(VT_ACTIVATE), UInt(number)) == 0 else {
            throw SystemCallError(call: "VT_ACTIVATE", errno: errno)
        }
    }

    /// The VT shown now (`VT_GETSTATE`), or nil without a console.
    public static func activeVT(console: String = "/dev/tty0") -> Int? {
        let fd = open(console, O_RDONLY | O_CLOEXEC | O_NOCTTY)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var state = vt_stat()
        return ioctl(fd, UInt(VT_GETSTATE), &state) == 0 ? Int(state.v_active) : nil
    }
}
