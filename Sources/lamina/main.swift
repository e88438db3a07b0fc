import ArgumentParser
import Lamina
import LaminaScenes

/// `lamina`: the display runtime's command line.
struct LaminaCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lamina",
        abstract: "A display runtime for Linux kiosks and touchscreen boards.",
        subcommands: [RunCommand.self, ScenesCommand.self, CheckConfigCommand.self, ControlCommand.self, CalibrateCommand.self, BenchCommand.self, SoakCommand.self, CurveCommand.self, ProbeCommand.self, RestoreConsoleCommand.self],
        defaultSubcommand: RunCommand.self)
}

struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run the daemon: own the display, read touch, animate the scene.",
        discussion: """
            Without --config, configs/lamina.toml (then /etc/lamina/lamina.toml) is read if it \
            exists. On the dummy backend the run ends once the touch script is done and \
            everything has settled, unless --exit-after is given. A bad config or touch script \
            exits with status 78; no usable display backend exits with 69. Scenes: \
            \(Gallery.registry.sceneNames.joined(separator: ", ")) (--list-scenes says what each shows); \
            or a scene file, --scene FILE.yaml (docs/scene-files.md; configs/scenes has two), \
            shown again each time it is saved.
            """)

    @OptionGroup var options: RunOptions

    func run() throws {
        let status = LaminaProgram.run(options, scenes: Gallery.registry, label: "lamina", configSearchPaths: Daemon.defaultConfigPaths)
        if status != 0 { throw ExitCode(status) }
    }
}

/// `lamina scenes`: the built-in scenes, one line each.
struct ScenesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scenes",
        abstract: "List the built-in scenes with what each shows (the names --scene takes).")

    func run() {
        let scenes = Gallery.registry.scenes
        let width = scenes.map { $0.name.count }.max() ?? 0
        for scene in scenes { print(scene.name.padded(to: width) + "  " + scene.summary) }
        print("A scene file runs with --scene FILE.yaml (docs/scene-files.md; configs/scenes/*.yaml: three of these as files, and a status board).")
    }
}

LaminaCommand.main()
