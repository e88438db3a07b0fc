import ArgumentParser
import Foundation
import Lamina
import LaminaScenes
import Logging

#if canImport(Glibc)
import Glibc
#endif

/// `lamina`: the display runtime's command line.
struct LaminaCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lamina",
        abstract: "A display runtime for Linux kiosks and touchscreen boards.",
        subcommands: [RunCommand.self, CheckConfigCommand.self, BenchCommand.self, SoakCommand.self, CurveCommand.self, ProbeCommand.self, RestoreConsoleCommand.self],
        defaultSubcommand: RunCommand.self)
}

extension BackendChoice: ExpressibleByArgument {}
extension ClockChoice: ExpressibleByArgument {}

struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run the daemon: own the display, read touch, animate the scene.",
        discussion: """
            Without --config, configs/lamina.toml (then /etc/lamina/lamina.toml) is read if it \
            exists. On the dummy backend the run ends once the touch script is done and \
            everything has settled, unless --exit-after is given. A bad config or touch script \
            exits with status 78; no usable display backend exits with 69.
            """)

    @Option(name: .long, help: "Configuration file (TOML).")
    var config: String?

    @Option(name: .long, help: "Display backend: auto, drm, fbdev or dummy.")
    var backend: BackendChoice?

    @Option(name: .long, help: "Dummy display pacing: realtime or virtual.")
    var clock: ClockChoice?

    @Option(name: .long, help: "Scene to run.")
    var scene: String?

    @Option(name: .long, help: "Touch script to replay (on any backend; the config's applies to the dummy only).")
    var touchScript: String?

    @Option(name: .long, help: "Write every frame as PNG, plus contact-sheet.png, into this directory.")
    var framesOut: String?

    @Option(name: .long, help: "Stop after this many seconds.")
    var exitAfter: Double?

    @Option(name: .long, help: "At exit, write the run's stats (frames, flip rate, jitter, latency, idle wake-ups) as JSON here.")
    var statsJson: String?

    @Flag(name: .long, help: "Log at debug level.")
    var verbose = false

    func validate() throws {
        if let exitAfter, !(exitAfter > 0 && exitAfter <= 1e9) {
            throw ValidationError("--exit-after must be a number of seconds in (0, 1e9]")
        }
    }

    func run() throws {
        let logger = makeLogger(verbose: verbose)
        var options = DaemonOptions()
        options.configPath = config
        options.backend = backend
        options.clock = clock
        options.scene = scene
        options.touchScript = touchScript
        options.framesOut = framesOut
        options.exitAfter = exitAfter
        options.statsJSON = statsJson
        do {
            _ = try Daemon.run(options, catalog: Scenes(), logger: logger)
        } catch let error as ConfigError {
            fail("bad configuration: \(error)", status: ConfigError.exitStatus)
        } catch let error as BackendError {
            fail(error.description, status: BackendError.exitStatus)
        }
    }
}

/// Journal lines (priority prefixes) under systemd, swift-log's stream lines on a terminal;
/// debug level with `--verbose`.
func makeLogger(verbose: Bool) -> Logger {
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
    return Logger(label: "lamina")
}

func fail(_ message: String, status: Int32) -> Never {
    FileHandle.standardError.write(Data("lamina: \(message)\n".utf8))
    exit(status)
}

LaminaCommand.main()
