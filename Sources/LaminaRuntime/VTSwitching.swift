#if canImport(Glibc)
import Glibc
#endif
import LaminaSystem

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
    private let terminal: VirtualTerminal
    private var restored = false

    /// Puts the VT at `path` in `VT_PROCESS` mode; the failure says why (not a VT, or not
    /// allowed: the VT must be the controlling terminal or the process needs
    /// `CAP_SYS_TTY_CONFIG`).
    package static func take(path: String) -> Result<VTSwitching, SystemCallError> {
        do throws(SystemCallError) {
            let terminal = try VirtualTerminal(path: path)
            try terminal.setSwitchingMode(processSignal: signal)
            return .success(VTSwitching(path: path, terminal: terminal))
        } catch {
            return .failure(error)
        }
    }

    private init(path: String, terminal: VirtualTerminal) {
        self.path = path
        self.terminal = terminal
    }

    deinit { restore() }

    public func allowSwitchAway() {
        try? terminal.allowRelease()
    }

    public func acknowledgeReturn() {
        try? terminal.acknowledgeAcquire()
    }

    /// Back to `VT_AUTO`: the kernel switches without asking. Safe to call twice.
    package func restore() {
        guard !restored else { return }
        restored = true
        try? terminal.setSwitchingMode(processSignal: nil)
    }

    /// Asks the console to switch to VT `number` (`VT_ACTIVATE` on `console`, as `chvt`
    /// does, without waiting: a VT in `VT_PROCESS` mode switches when its owner allows).
    public static func activate(_ number: Int, console: String = "/dev/tty0") throws(SystemCallError) {
        try VirtualTerminal(path: console).activate(number)
    }

    /// The VT shown now (`VT_GETSTATE`), or nil without a console.
    public static func activeVT(console: String = "/dev/tty0") -> Int? {
        try? VirtualTerminal(path: console, readOnly: true).activeNumber()
    }
}
