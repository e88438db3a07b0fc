#if canImport(Glibc)
import Glibc
#endif
import CLinux
import SystemPackage

/// A virtual terminal's device (`/dev/ttyN`, or `/dev/tty0` for the console): one thin
/// wrapper per ioctl Lamina uses (display-input.md §9), each throwing the call's error. The
/// descriptor is closed when the value goes.
public final class VirtualTerminal {
    /// The device's path.
    public let path: String
    /// The open device.
    public let descriptor: FileDescriptor

    /// Opens the terminal at `path` (never as the controlling terminal), read-write unless
    /// `readOnly`.
    public init(path: String, readOnly: Bool = false) throws(SystemCallError) {
        let fd = open(path, (readOnly ? O_RDONLY : O_RDWR) | O_CLOEXEC | O_NOCTTY)
        guard fd >= 0 else { throw SystemCallError(call: "open", errno: Glibc.errno, detail: path) }
        self.path = path
        descriptor = FileDescriptor(rawValue: fd)
    }

    deinit { try? descriptor.close() }

    /// `KD_TEXT`: the console draws text and its cursor.
    public static let textMode = Int32(KD_TEXT)
    /// `KD_GRAPHICS`: a graphics program owns the screen; the console draws nothing.
    public static let graphicsMode = Int32(KD_GRAPHICS)

    /// The display mode (`KDGETMODE`); throws when the device is not a VT.
    public func displayMode() throws(SystemCallError) -> Int32 {
        var mode: Int32 = 0
        guard ioctl(descriptor.rawValue, UInt(KDGETMODE), &mode) == 0 else { throw failure("KDGETMODE") }
        return mode
    }

    /// Sets the display mode (`KDSETMODE`), a raw value as `displayMode()` returned it.
    public func setDisplayMode(_ mode: Int32) throws(SystemCallError) {
        guard lamina_ioctl_value(descriptor.rawValue, UInt(KDSETMODE), UInt(mode)) == 0 else { throw failure("KDSETMODE") }
    }

    /// The keyboard mode (`KDGKBMODE`: `K_UNICODE`, `K_OFF`, …).
    public func keyboardMode() throws(SystemCallError) -> Int32 {
        var mode: Int32 = 0
        guard ioctl(descriptor.rawValue, UInt(KDGKBMODE), &mode) == 0 else { throw failure("KDGKBMODE") }
        return mode
    }

    /// Sets the keyboard mode (`KDSKBMODE`).
    public func setKeyboardMode(_ mode: Int32) throws(SystemCallError) {
        guard lamina_ioctl_value(descriptor.rawValue, UInt(KDSKBMODE), UInt(mode)) == 0 else { throw failure("KDSKBMODE") }
    }

    /// The keyboard modes `setKeyboardMode` takes.
    public static let keyboardOff = Int32(K_OFF)
    /// The console's own keyboard mode.
    public static let keyboardUnicode = Int32(K_UNICODE)

    /// `VT_SETMODE`: `VT_PROCESS` with `signal` for release and acquire requests (the kernel
    /// asks before switching away), or `VT_AUTO` when nil (it switches without asking).
    public func setSwitchingMode(processSignal signal: Int32?) throws(SystemCallError) {
        var mode = vt_mode()
        if let signal {
            mode.mode = CChar(VT_PROCESS)
            mode.relsig = Int16(signal)
            mode.acqsig = Int16(signal)
        } else {
            mode.mode = CChar(VT_AUTO)
        }
        guard ioctl(descriptor.rawValue, UInt(VT_SETMODE), &mode) == 0 else { throw failure("VT_SETMODE") }
    }

    /// `VT_RELDISP 1`: a switch away the kernel asked about may happen.
    public func allowRelease() throws(SystemCallError) {
        guard lamina_ioctl_value(descriptor.rawValue, UInt(VT_RELDISP), 1) == 0 else { throw failure("VT_RELDISP") }
    }

    /// `VT_RELDISP VT_ACKACQ`: the VT switched back to is taken.
    public func acknowledgeAcquire() throws(SystemCallError) {
        guard lamina_ioctl_value(descriptor.rawValue, UInt(VT_RELDISP), UInt(VT_ACKACQ)) == 0 else { throw failure("VT_RELDISP") }
    }

    /// `VT_ACTIVATE`: asks the console to show VT `number` (without waiting for it).
    public func activate(_ number: Int) throws(SystemCallError) {
        guard lamina_ioctl_value(descriptor.rawValue, UInt(VT_ACTIVATE), UInt(number)) == 0 else { throw failure("VT_ACTIVATE") }
    }

    /// `VT_GETSTATE`: the VT shown now.
    public func activeNumber() throws(SystemCallError) -> Int {
        var state = vt_stat()
        guard ioctl(descriptor.rawValue, UInt(VT_GETSTATE), &state) == 0 else { throw failure("VT_GETSTATE") }
        return Int(state.v_active)
    }

    private func failure(_ call: String) -> SystemCallError {
        SystemCallError(call: call, errno: Glibc.errno, detail: path)
    }
}
