import ArgumentParser

extension BackendChoice: ExpressibleByArgument {}
extension ClockChoice: ExpressibleByArgument {}

/// The command line every Lamina program shares: `lamina run` and each app's own binary
/// (``LaminaApp``) take exactly these options, with the same meaning and the same checks.
public struct RunOptions: ParsableArguments {
    /// `--config`: the configuration file.
    @Option(name: .long, help: "Configuration file (TOML). Without it the program's default paths are searched.")
    public var config: String?

    /// `--backend`: the display backend.
    @Option(name: .long, help: "Display backend: auto, drm, fbdev or dummy.")
    public var backend: BackendChoice?

    /// `--clock`: how the dummy display is paced.
    @Option(name: .long, help: "Dummy display pacing: realtime or virtual.")
    public var clock: ClockChoice?

    /// `--scene`: the scene to run, a built-in one by name or a scene file (`.yaml`).
    @Option(name: .long, help: "Scene to run: a name (--list-scenes lists them) or a scene file (FILE.yaml; docs/scene-files.md). Default: the config's, else the first.")
    public var scene: String?

    /// `--touch-script`: touches to replay.
    @Option(name: .long, help: "Touch script to replay (on any backend; the config's applies to the dummy only).")
    public var touchScript: String?

    /// `--frames-out`: a directory for every frame as PNG.
    @Option(name: .long, help: "Write every frame as PNG, plus contact-sheet.png, into this directory.")
    public var framesOut: String?

    /// `--exit-after`: seconds to run.
    @Option(name: .long, help: "Stop after this many seconds.")
    public var exitAfter: Double?

    /// `--stats-json`: where to write the run's stats at exit.
    @Option(name: .long, help: "At exit, write the run's stats (frames, flip rate, jitter, latency, idle wake-ups) as JSON here.")
    public var statsJson: String?

    /// `--check-config`: validate the configuration and exit.
    @Flag(name: .long, help: "Validate the configuration (and the scene settings and touch script it names) and exit: 0 when good, 78 when not.")
    public var checkConfig = false

    /// `--list-scenes`: list the scenes and exit.
    @Flag(name: .long, help: "List the scenes with a line on each, and exit.")
    public var listScenes = false

    /// `--restore-console`: put this VT back into text mode and exit.
    @Option(name: .long, help: "Put this VT (such as /dev/tty1) back into text mode and exit: a service's ExecStopPost= after a crash.")
    public var restoreConsole: String?

    /// `--verbose`: log at debug level.
    @Flag(name: .long, help: "Log at debug level.")
    public var verbose = false

    public init() {}

    public func validate() throws {
        if let exitAfter, !(exitAfter > 0 && exitAfter <= 1e9) {
            throw ValidationError("--exit-after must be a number of seconds in (0, 1e9]")
        }
        if let restoreConsole, !restoreConsole.hasPrefix("/dev/tty") {
            throw ValidationError("--restore-console takes a /dev/tty path, not '\(Escaped(restoreConsole))'")
        }
    }

    /// The daemon's options from these, with `configSearchPaths` where no `--config` is given.
    public func daemonOptions(configSearchPaths: [String]) -> DaemonOptions {
        var options = DaemonOptions()
        options.configPath = config
        options.configSearchPaths = configSearchPaths
        options.backend = backend
        options.clock = clock
        options.scene = scene
        options.touchScript = touchScript
        options.framesOut = framesOut
        options.exitAfter = exitAfter
        options.statsJSON = statsJson
        return options
    }
}
