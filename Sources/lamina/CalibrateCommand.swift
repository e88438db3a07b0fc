import ArgumentParser
import Lamina
import LaminaScenes

/// `lamina calibrate`: the touch calibration wizard on the configured display.
struct CalibrateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "calibrate",
        abstract: "Calibrate the touchscreen: touch five targets; writes [input] calibration to the config.",
        discussion: """
            Stop the lamina service first (the wizard needs the display). Touch the centre of \
            each cross: four near the corners, then a check point in the middle, which must \
            land within --max-error pixels through the fitted matrix or the round starts again. \
            Prints each target's error in pixels and libinput's six numbers, then writes them \
            to the config's [input] calibration (--udev prints a udev rule instead, for every \
            libinput program on the machine; --dry-run writes nothing). Exit 0 when calibrated, \
            1 when not.
            """)

    @Option(name: .long, help: "Configuration file (TOML) to read and write. Default: configs/lamina.toml, then /etc/lamina/lamina.toml.")
    var config: String?

    @Option(name: .long, help: "Display backend: auto, drm, fbdev or dummy.")
    var backend: BackendChoice?

    @Option(name: .long, help: "Dummy display pacing: realtime or virtual.")
    var clock: ClockChoice?

    @Option(name: .long, help: "Touches to replay instead of a finger (a touch script: docs in README).")
    var touchScript: String?

    @Option(name: .long, help: "Write every frame as PNG, plus contact-sheet.png, into this directory.")
    var framesOut: String?

    @Option(name: .long, help: "Largest error in pixels the check point may show (1 to 200).")
    var maxError = 15.0

    @Option(name: .long, help: "Rounds to try before giving up (1 to 10).")
    var attempts = 3

    @Flag(name: .long, help: "Print a udev rule setting LIBINPUT_CALIBRATION_MATRIX instead of writing the config.")
    var udev = false

    @Flag(name: .long, help: "Print the result only; write nothing.")
    var dryRun = false

    func validate() throws {
        guard (1...200).contains(maxError) else { throw ValidationError("--max-error must be between 1 and 200 pixels") }
        guard (1...10).contains(attempts) else { throw ValidationError("--attempts must be between 1 and 10") }
        if udev && dryRun { throw ValidationError("--udev and --dry-run: choose one") }
    }

    func run() throws {
        var options = DaemonOptions()
        options.configPath = config
        options.backend = backend
        options.clock = clock
        options.touchScript = touchScript
        options.framesOut = framesOut
        let session = CalibrationSession(maximumCheckError: maxError, attempts: attempts)
        let status = LaminaProgram.calibrate(options, session: session, destination: udev ? .udevRule : dryRun ? .printOnly : .config,
                                             scenes: Gallery.registry, label: "lamina")
        if status != 0 { throw ExitCode(status) }
    }
}
