import ArgumentParser
import Lamina
import LaminaScenes

/// `lamina check-config FILE`: validates a configuration, or a scene file (`.yaml`), without
/// running (before a reload or an install): exit 0 and one line when good, 78 with the file,
/// line, field and reason when not.
struct CheckConfigCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check-config",
        abstract: "Validate a configuration file or a scene file without running (exit 78 on a bad one).")

    @Argument(help: "The configuration file (TOML), or a scene file (.yaml, .yml).")
    var file: String

    func run() throws {
        let status = LaminaProgram.checkConfig(path: file, scenes: Gallery.registry, label: "lamina")
        if status != 0 { throw ExitCode(status) }
    }
}
