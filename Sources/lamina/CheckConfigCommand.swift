import ArgumentParser
import Foundation
import Lamina
import LaminaScenes

/// `lamina check-config FILE`: validates a configuration without running (before a reload or
/// an install): exit 0 and one line when good, 78 with the file, line, field and reason when not.
struct CheckConfigCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check-config",
        abstract: "Validate a configuration file without running (exit 78 on a bad one).")

    @Argument(help: "The configuration file (TOML).")
    var file: String

    func run() throws {
        do {
            let config = try Daemon.check(path: file, catalog: Gallery.registry)
            print("\(file): ok (backend \(config.backend.rawValue), scene \(config.scene))")
        } catch {
            fail("bad configuration: \(error)", status: ConfigError.exitStatus)
        }
    }
}
