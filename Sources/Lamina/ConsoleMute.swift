#if canImport(Glibc)
import LaminaSystem
import Glibc
#endif
import CLinux
import LaminaDisplay

/// Mutes the text console while Lamina owns the screen (display-input.md §9): the VT in
/// `KD_GRAPHICS` (the console stops drawing and blinking its cursor over the picture) and its
/// keyboard `K_OFF` (keystrokes reach neither the tty nor a login prompt behind it). The
/// previous modes are put back by `restore()`, on exit and on SIGTERM/SIGINT.
public final class ConsoleMute {
    let path: String
    private let fd: Int32
    private let savedMode: Int32
    private let savedKeyboard: Int32
    private var restored = false

    /// Opens the VT at `path` and mutes it; nil (with the reason) when it is not a VT.
    public static func mute(path: String) -> Result<ConsoleMute, SystemCallError> {
        let fd = open(path, O_RDWR | O_CLOEXEC | O_NOCTTY)
        guard fd >= 0 else { return .failure(SystemCallError(call: "open", errno: errno, detail: path)) }
        var mode: Int32 = 0, keyboard: Int32 = 0
        guard ioctl(fd, UInt(KDGETMODE), &mode) == 0, ioctl(fd, UInt(KDGKBMODE), &keyboard) == 0 else {
            let error = errno
            close(fd)
            return .failure(SystemCallError(call: "KDGETMODE", errno: error, detail: "\(path) is not a virtual terminal"))
        }
        guard lamina_ioctl_value(fd, UInt(KDSETMODE), UInt(KD_GRAPHICS)) == 0 else {
            let error = errno
            close(fd)
            return .failure(SystemCallError(call: "KDSETMODE", errno: error, detail: path))
        }
        _ = lamina_ioctl_value(fd, UInt(KDSKBMODE), UInt(K_OFF))
        return .success(ConsoleMute(path: path, fd: fd, mode: mode, keyboard: keyboard))
    }

    private init(path: String, fd: Int32, mode: Int32, keyboard: Int32) {
        self.path = path
        self.fd = fd
        savedMode = mode
        savedKeyboard = keyboard
    }

    deinit { restore() }

    /// Puts the console's display and keyboard modes back. Safe to call twice.
    public func restore() {
        guard !restored else { return }
        restored = true
        _ = lamina_ioctl_value(fd, UInt(KDSKBMODE), UInt(savedKeyboard))
        _ = lamina_ioctl_value(fd, UInt(KDSETMODE), UInt(savedMode))
        close(fd)
    }

    /// Puts a VT a Lamina that died (a crash, SIGKILL) left muted back into text mode: display
    /// `KD_TEXT`, keyboard `K_UNICODE`, VT switching `VT_AUTO` (`lamina restore-console`, the
    /// service's `ExecStopPost=`), so no console stays dark and deaf behind a crash loop.
    /// Returns what failed, or nil.
    public static func restoreAfterExit(path: String) -> SystemCallError? {
        let fd = open(path, O_RDWR | O_CLOEXEC | O_NOCTTY)
        guard fd >= 0 else { return SystemCallError(call: "open", errno: errno, detail: path) }
        defer { close(fd) }
        var mode = vt_mode()
        mode.mode = CChar(VT_AUTO)
        _ = ioctl(fd, UInt(VT_SETMODE), &mode)
        _ = lamina_ioctl_value(fd, UInt(KDSKBMODE), UInt(K_UNICODE))
        guard lamina_ioctl_value(fd, UInt(KDSETMODE), UInt(KD_TEXT)) == 0 else {
            return SystemCallError(call: "KDSETMODE", errno: errno, detail: path)
        }
        return nil
    }

    /// The VT's current display mode (`KD_TEXT` 0, `KD_GRAPHICS` 1), for checks.
    public static func displayMode(path: String) -> Int32? {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var mode: Int32 = 0
        return ioctl(fd, UInt(KDGETMODE), &mode) == 0 ? mode : nil
    }
}
