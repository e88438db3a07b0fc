import ArgumentParser
import Lamina

/// `lamina restore-console /dev/tty1`: text mode, Unicode keyboard and automatic VT
/// switching back on a VT a crashed daemon left muted. The service runs it as a privileged
/// `ExecStopPost=` after every stop, clean or not.
struct RestoreConsoleCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "restore-console",
        abstract: "Put a virtual terminal back into text mode after Lamina exits or crashes.")

    @Argument(help: "The VT, such as /dev/tty1.")
    var path: String

    func run() throws {
        guard path.hasPrefix("/dev/tty") else { throw ValidationError("'\(path)' is not a /dev/tty path") }
        let status = LaminaProgram.restoreConsole(path: path, label: "lamina")
        if status != 0 { throw ExitCode(status) }
    }
}
