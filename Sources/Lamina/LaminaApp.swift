#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser
import FoundationEssentials
import Logging

/// An app on Lamina: name its scenes, and `main()` does the rest.
///
/// ```swift
/// import Lamina
///
/// @main
/// struct ControlPanel: LaminaApp {
///     static let name = "control-panel"
///     static let scenes: [any Scene.Type] = [PanelScene.self]
/// }
/// ```
///
/// The program then takes the same command line as `lamina run` (``RunOptions``: backend,
/// clock, config, scene, touch script, frames out, stats, exit after, `--check-config`,
/// `--list-scenes`, `--restore-console`),
/// reads its config from its own paths (``configSearchPaths``), runs the display, input,
/// signals (SIGTERM/SIGINT stop, SIGHUP reloads, SIGUSR1 logs stats), systemd notify and
/// watchdog exactly as the `lamina` daemon does, and exits with the same statuses: 0 after a
/// clean stop, 78 for a bad config, touch script or scene settings (one line naming the
/// file, line and field), 69 when no display backend can be opened, 70 when a scene's
/// `init` fails.
public protocol LaminaApp {
    /// The program's name: its log label, and its default config paths.
    static var name: String { get }
    /// The scenes it can show; the first runs unless the config or `--scene` names another.
    static var scenes: [any Scene.Type] { get }
    /// Where the config is looked for without `--config`, first found wins (none found: the
    /// built-in defaults). By default `NAME.toml` in the working directory, then
    /// `/etc/NAME/NAME.toml`.
    static var configSearchPaths: [String] { get }
}

extension LaminaApp {
    public static var configSearchPaths: [String] { ["\(name).toml", "/etc/\(name)/\(name).toml"] }

    /// Parses the command line and runs the app until it is stopped; never returns.
    public static func main() {
        AppCommand.programName = name
        let command = AppCommand.parseOrExit()
        exit(LaminaProgram.run(command.options, scenes: SceneRegistry(scenes), label: name, configSearchPaths: configSearchPaths))
    }
}

/// An app's command line: ``RunOptions`` under the app's own name (its usage and help).
struct AppCommand: ParsableCommand {
    /// Set once by `LaminaApp.main()` before parsing, on the main thread.
    nonisolated(unsafe) static var programName = "app"

    static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: programName, abstract: "A Lamina app: its scenes on the display, driven by touch.")
    }

    @OptionGroup var options: RunOptions
}

/// What `lamina run` and every ``LaminaApp`` share.
public enum LaminaProgram {
    /// Runs a program's scenes with `options` and returns its exit status.
    public static func run(_ options: RunOptions, scenes: SceneRegistry, label: String, configSearchPaths: [String]) -> Int32 {
        if options.listScenes {
            for scene in scenes.scenes { print(scene.summary.isEmpty ? scene.name : "\(scene.name)  \(scene.summary)") }
            return 0
        }
        if let tty = options.restoreConsole { return restoreConsole(path: tty, label: label) }
        let daemonOptions = options.daemonOptions(configSearchPaths: configSearchPaths)
        if options.checkConfig {
            var status: Int32 = 0
            if let path = daemonOptions.configFile {
                status = checkConfig(path: path, scenes: scenes, label: label)
            } else {
                print("no config file found (searched \(configSearchPaths.joined(separator: ", "))): built-in defaults, scene \(scenes.defaultScene)")
            }
            // `--scene` overrides the config's: it is what would run, so it is checked too.
            if status == 0, let scene = options.scene { status = checkScene(scene, scenes: scenes, label: label) }
            return status
        }
        let logger = LaminaLogging.bootstrap(label: label, verbose: options.verbose)
        do {
            _ = try Daemon.run(daemonOptions, catalog: scenes, logger: logger)
            return 0
        } catch let error as ConfigError {
            return report(label, "bad configuration: \(error)", status: ConfigError.exitStatus)
        } catch let error as BackendError {
            return report(label, error.description, status: BackendError.exitStatus)
        } catch let error as SystemCallError {
            return report(label, error.description, status: 71)          // EX_OSERR
        } catch {
            return report(label, "\(error)", status: SceneStartError.exitStatus)
        }
    }

    /// Puts the VT at `path` back into text mode (`--restore-console`, `lamina
    /// restore-console`: a service's `ExecStopPost=` after a crash): 0 when done, 1 with one
    /// line on standard error when not.
    public static func restoreConsole(path: String, label: String) -> Int32 {
        guard let error = ConsoleMute.restoreAfterExit(path: path) else { return 0 }
        return report(label, "cannot restore \(path): \(error)", status: 1)
    }

    /// Validates the config file at `path` completely without opening a device (`--check-config`,
    /// `lamina check-config`): one line and 0 when good, one line naming file, line and field
    /// and 78 when not.
    /// A scene file (`.yaml`, `.yml`) given here is checked as one (`checkScene`).
    public static func checkConfig(path: String, scenes: SceneRegistry, label: String) -> Int32 {
        if SceneFiles.isFile(path) && !path.hasSuffix(".toml") { return checkScene(path, scenes: scenes, label: label) }
        do {
            let config = try Daemon.check(path: path, catalog: scenes)
            print("\(path): ok (backend \(config.backend.rawValue), scene \(config.scene))")
            return 0
        } catch {
            return report(label, "bad configuration: \(error)", status: ConfigError.exitStatus)
        }
    }

    /// Checks what `--scene` names: a scene file read and compiled completely (one line and 0
    /// when good, `file:line:column` and 78 when not), or a built-in scene that must exist.
    public static func checkScene(_ scene: String, scenes: SceneRegistry, label: String) -> Int32 {
        guard SceneFiles.isFile(scene) else {
            guard scenes.scene(named: scene) != nil else {
                return report(label, "bad configuration: no scene named '\(scene)' (\(scenes.sceneNames.joined(separator: ", ")), or a FILE.yaml)",
                              status: ConfigError.exitStatus)
            }
            print("scene \(scene): ok (built in)")
            return 0
        }
        do {
            let document = try SceneFiles.load(path: scene)
            print("\(scene): ok (a scene file of \(document.layerCount) layers)")
            return 0
        } catch {
            return report(label, "bad scene file: \(error)", status: ConfigError.exitStatus)
        }
    }

    static func report(_ label: String, _ message: String, status: Int32) -> Int32 {
        StandardError.write("\(label): \(message)\n")
        return status
    }
}

/// The log every Lamina program writes.
public enum LaminaLogging {
    /// Journal lines (priority prefixes) under systemd, swift-log's stream lines on a
    /// terminal; debug level with `verbose`. Bootstraps swift-log once per process, and sends
    /// the layers' debug-build warnings (`LayerDiagnostics`) to the same log.
    public static func bootstrap(label: String, verbose: Bool) -> Logger {
        let toJournal = ProcessInfo.processInfo.environment["JOURNAL_STREAM"] != nil
        LoggingSystem.bootstrap { label in
            if toJournal {
                var handler = JournalLogHandler()
                handler.logLevel = verbose ? .debug : .info
                return handler
            }
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = verbose ? .debug : .info
            return handler
        }
        let layers = Logger(label: label)
        LayerDiagnostics.setHandler { message in layers.warning("\(message)") }
        return Logger(label: label)
    }
}
