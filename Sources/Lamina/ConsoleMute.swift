import LaminaSystem

/// Mutes the text console while Lamina owns the screen (display-input.md §9): the VT in
/// `KD_GRAPHICS` (the console stops drawing and blinking its cursor over the picture) and its
/// keyboard `K_OFF` (keystrokes reach neither the tty nor a login prompt behind it). The
/// previous modes are put back by `restore()`, on exit and on SIGTERM/SIGINT.
public final class ConsoleMute {
    let path: String
    private let terminal: VirtualTerminal
    private let savedMode: Int32
    private let savedKeyboard: Int32
    private var restored = false

    /// Opens the VT at `path` and mutes it; nil (with the reason) when it is not a VT.
    public static func mute(path: String) -> Result<ConsoleMute, SystemCallError> {
        do throws(SystemCallError) {
            let terminal = try VirtualTerminal(path: path)
            let mode: Int32, keyboard: Int32
            do throws(SystemCallError) {
                mode = try terminal.displayMode()
                keyboard = try terminal.keyboardMode()
            } catch {
                return .failure(SystemCallError(call: error.call, errno: error.errno, detail: "\(path) is not a virtual terminal"))
            }
            try terminal.setDisplayMode(VirtualTerminal.graphicsMode)
            try? terminal.setKeyboardMode(VirtualTerminal.keyboardOff)
            return .success(ConsoleMute(path: path, terminal: terminal, mode: mode, keyboard: keyboard))
        } catch {
            return .failure(error)
        }
    }

    private init(path: String, terminal: VirtualTerminal, mode: Int32, keyboard: Int32) {
        self.path = path
        self.terminal = terminal
        savedMode = mode
        savedKeyboard = keyboard
    }

    deinit { restore() }

    /// Puts the console's display and keyboard modes back. Safe to call twice.
    public func restore() {
        guard !restored else { return }
        restored = true
        try? terminal.setKeyboardMode(savedKeyboard)
        try? terminal.setDisplayMode(savedMode)
    }

    /// Puts a VT a Lamina that died (a crash, SIGKILL) left muted back into text mode: display
    /// `KD_TEXT`, keyboard `K_UNICODE`, VT switching `VT_AUTO` (`lamina restore-console`, the
    /// service's `ExecStopPost=`), so no console stays dark and deaf behind a crash loop.
    /// Returns what failed, or nil.
    public static func restoreAfterExit(path: String) -> SystemCallError? {
        do throws(SystemCallError) {
            let terminal = try VirtualTerminal(path: path)
            try? terminal.setSwitchingMode(processSignal: nil)
            try? terminal.setKeyboardMode(VirtualTerminal.keyboardUnicode)
            try terminal.setDisplayMode(VirtualTerminal.textMode)
            return nil
        } catch {
            return error
        }
    }

    /// The VT's current display mode (`KD_TEXT` 0, `KD_GRAPHICS` 1), for checks.
    public static func displayMode(path: String) -> Int32? {
        try? VirtualTerminal(path: path, readOnly: true).displayMode()
    }
}
