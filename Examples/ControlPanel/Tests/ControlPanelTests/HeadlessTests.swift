import ControlPanelUI
import Foundation
import Lamina
import Testing

/// The app run as its users run it, on the dummy display with a touch script, through the
/// same command line (`LaminaProgram.run`), frames compared with goldens checked by eye.
@Suite("Control panel, headless")
struct HeadlessTests {
    static let resources = Bundle.module.resourceURL!.path

    /// Runs the panel with `panel.toml` and returns the directory of its frames.
    func runPanel() throws -> String {
        let frames = NSTemporaryDirectory() + "control-panel-frames-\(getpid())"
        let options = try RunOptions.parse(["--config", "\(Self.resources)/panel.toml", "--frames-out", frames])
        let status = LaminaProgram.run(options, scenes: SceneRegistry([PanelScene.self]), label: "control-panel",
                                       configSearchPaths: [])
        #expect(status == 0)
        return frames
    }

    @Test("the frames at rest, with Boost pressed, mid-drag and at the end match the goldens")
    func frames() throws {
        let frames = try runPanel()
        defer { try? FileManager.default.removeItem(atPath: frames) }
        let names = try FileManager.default.contentsOfDirectory(atPath: frames).filter { $0.hasPrefix("frame-") }.sorted()
        #expect(names.count == Self.expectedFrameCount, "frames: \(names.count)")
        for golden in Self.goldens {
            let name = "frame-\(golden).png"
            let shown = try RGBAImage.readPNG(from: "\(frames)/\(name)")
            let expected = try RGBAImage.readPNG(from: "\(Self.resources)/Golden/\(golden).png")
            #expect(shown.width == expected.width && shown.height == expected.height)
            let differing = zip(shown.bytes, expected.bytes).filter { abs(Int($0) - Int($1)) > 2 }.count
            #expect(differing == 0, "\(name) differs from Golden/\(golden).png in \(differing) channel values")
        }
    }

    /// Frames the run produces (the virtual clock makes it exact).
    static let expectedFrameCount = 68
    /// Golden frames by number: at rest, Boost pressed, mid-drag, the last (Eco chosen).
    static let goldens = ["00001", "00002", "00030", "00068"]

    @Test("a bad setting fails --check-config with the configuration status, 78")
    func badSetting() throws {
        let path = NSTemporaryDirectory() + "control-panel-bad-\(getpid()).toml"
        try "[panel]\nminimum = 50\nmaximum = 40\n".write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let options = try RunOptions.parse(["--config", path, "--check-config"])
        let status = LaminaProgram.run(options, scenes: SceneRegistry([PanelScene.self]), label: "control-panel",
                                       configSearchPaths: [])
        #expect(status == 78)
    }

    @Test("the scene is released when it is torn down, though its closures capture it strongly")
    func released() throws {
        let runtime = try Runtime.headless(width: 320, height: 240)
        weak var released: PanelScene?
        do {
            let scene = try runtime.install(PanelScene.self, settings: PanelScene.Settings())
            released = scene
            runtime.removeScene()
        }
        #expect(released == nil)
    }
}
