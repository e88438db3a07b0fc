import Foundation
import Lamina
@testable import LaminaSceneFiles
@testable import LaminaRuntime
import LaminaScenes
import LaminaTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Live reload (issue 15): saving the scene file — written in place or renamed over — shows
/// the new scene at the next frame with the bindings' values kept; a broken edit is logged
/// with its position and the running scene stays. On the virtual clock, so frame by frame.
@Suite("Scene file live reload", .serialized)
struct SceneFileReloadTests {
    static func scene(box: String) -> String {
        """
        lamina: 1
        bindings:
          shade: {colour: "#FF0000"}
        layers:
          - {name: box, bounds: [0, 0, 100, 100], position: [100, 100], backgroundColor: "\(box)"}
          - {name: badge, bounds: [0, 0, 50, 50], position: [300, 100], backgroundColor: $shade}

        """
    }

    /// Writes `text` beside `path` and renames it over `path`, as editors and deploy scripts do.
    private func renameOver(_ path: String, _ text: String) throws {
        try text.write(toFile: path + ".tmp", atomically: false, encoding: .utf8)
        #expect(rename(path + ".tmp", path) == 0)
    }

    @Test("an edit shows at the next frame with bindings kept; a broken edit is logged with file:line:column and changes nothing")
    func liveReload() throws {
        let folder = try SceneFileFixture.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/panel.yaml"
        try Self.scene(box: "#0000FF").write(toFile: path, atomically: false, encoding: .utf8)
        let rig = try DummyDisplayRig(width: 400, height: 300, refresh: 60, start: 0)
        let log = CapturedLog()
        let runtime = rig.makeRuntime(log: log)
        var config = LaminaConfig()
        config.scene = FileScene.name
        config.sceneFile = path
        try Daemon.installScene(config, catalog: Gallery.registry, in: runtime)
        Daemon.watchSceneFile(config, runtime: runtime, logger: log.logger())
        #expect(runtime.run(untilSettled: true) == .settled)
        #expect(rig.display.shadow[100, 100] == 0xFF00_00FF && rig.display.shadow[300, 100] == 0xFFFF_0000)

        // The binding is changed at run time (as the control socket will); then the file is edited.
        let running = try #require(runtime.scene as? FileScene)
        try running.setBinding("shade", to: .color(Color(red: 0, green: 1, blue: 0)))
        #expect(runtime.run(untilSettled: true) == .settled)
        try renameOver(path, Self.scene(box: "#FFFF00"))
        let frame = rig.display.frameDuration
        runtime.run(exitAfter: frame, untilSettled: false)                 // one vblank later
        #expect(rig.display.shadow[100, 100] == 0xFFFF_FF00, "the edit is on the next frame")
        #expect(rig.display.shadow[300, 100] == 0xFF00_FF00, "the binding kept its running value")
        #expect(log.count(containing: "scene file reloaded: \(path)") == 1)
        #expect(runtime.scene !== running)

        // Written in place (truncate and write, one close) counts too.
        try Self.scene(box: "#00FFFF").write(toFile: path, atomically: false, encoding: .utf8)
        runtime.run(exitAfter: frame, untilSettled: false)
        #expect(rig.display.shadow[100, 100] == 0xFF00_FFFF)

        // A broken edit: logged with its position, the scene stays as it was.
        let shown = rig.display.shadow.copy()
        try renameOver(path, Self.scene(box: "#00FFFF").replacingOccurrences(of: "[0, 0, 100, 100]", with: "[0, 0, 100]"))
        #expect(runtime.run(untilSettled: true) == .settled)
        #expect(log.count(containing: "scene file edit rejected, keeping the running scene: \(path):5:25: layers[0](box).bounds: expected a rectangle") == 1,
                "\(log.lines.suffix(3))")
        #expect(Pixels.differing(rig.display.shadow, shown) == 0)

        // Other files in the folder do not reload it.
        try "x".write(toFile: folder + "/notes.txt", atomically: true, encoding: .utf8)
        #expect(runtime.run(untilSettled: true) == .settled)
        #expect(log.count(containing: "scene file reloaded") == 2)
    }

    @Test("a reload keeps the state the scene was in when the file still has it; otherwise the initial state (issue 30)")
    func reloadKeepsState() throws {
        let folder = try SceneFileFixture.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/panel.yaml"
        func scene(_ states: String, colour: String = "#0000FF") -> String {
            "lamina: 1\nlayers:\n  - {name: box, bounds: [0, 0, 100, 100], position: [100, 100], backgroundColor: \"\(colour)\"}\n"
                + "states:\n\(states)initialState: rest\n"
        }
        let both = "  rest: ~\n  open:\n    box: {position: [300, 100]}\n"
        try scene(both).write(toFile: path, atomically: false, encoding: .utf8)
        let rig = try DummyDisplayRig(width: 400, height: 300, refresh: 60, start: 0)
        let log = CapturedLog()
        let runtime = rig.makeRuntime(log: log)
        var config = LaminaConfig()
        config.scene = FileScene.name
        config.sceneFile = path
        try Daemon.installScene(config, catalog: Gallery.registry, in: runtime)
        Daemon.watchSceneFile(config, runtime: runtime, logger: log.logger())
        #expect(runtime.run(untilSettled: true) == .settled)
        (runtime.scene as? FileScene)?.go(toState: "open")
        #expect(runtime.run(untilSettled: true) == .settled)
        var published: [String] = []
        runtime.onPublish = { kind, fields in if kind == "state" { published.append("\(fields["state"].map { "\($0)" } ?? "")") } }
        try renameOver(path, scene(both, colour: "#00FF00"))                  // an edit of the colour
        runtime.run(exitAfter: rig.display.frameDuration, untilSettled: false)  // the watcher reads it
        #expect(log.count(containing: "scene file reloaded") == 1)
        #expect(runtime.run(untilSettled: true) == .settled)
        let reloaded = try #require(runtime.scene as? FileScene)
        #expect(reloaded.currentState == "open" && reloaded.layer(named: "box")?.position == Point(x: 300, y: 100))
        #expect(published.isEmpty)                                            // for listeners the state did not change
        try renameOver(path, scene("  rest: ~\n"))                           // the state is gone
        runtime.run(exitAfter: rig.display.frameDuration, untilSettled: false)
        #expect(log.count(containing: "scene file reloaded") == 2)
        #expect((runtime.scene as? FileScene)?.currentState == "rest", "\(log.lines.suffix(4))")
    }

    @Test("check-config validates the scene file a config names, and its [bindings]")
    func checkConfig() throws {
        let folder = try SceneFileFixture.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Self.scene(box: "#0000FF").write(toFile: folder + "/panel.yaml", atomically: false, encoding: .utf8)
        let config = folder + "/lamina.toml"
        func check(_ text: String) -> String? {
            do {
                try text.write(toFile: config, atomically: true, encoding: .utf8)
                _ = try Daemon.check(path: config, catalog: Gallery.registry)
                return nil
            } catch {
                return "\(error)"
            }
        }
        #expect(check("[run]\nscene = \"panel.yaml\"\n[bindings]\nshade = \"#00FF00\"\n") == nil)
        #expect(check("[run]\nscene = \"panel.yaml\"\n[bindings]\nshade = 3\n")?.contains("lamina.toml:4: bindings.shade") == true)
        #expect(check("[run]\nscene = \"panel.yaml\"\n[bindings]\nvolume = 3\n")?.contains("bindings.volume: \(folder)/panel.yaml declares no binding of that name") == true)
        #expect(check("[run]\nscene = \"missing.yaml\"\n")?.contains("missing.yaml: cannot be read") == true)
        try "lamina: 1\nlayers:\n  - {kind: blob}\n".write(toFile: folder + "/panel.yaml", atomically: false, encoding: .utf8)
        #expect(check("[run]\nscene = \"panel.yaml\"\n")?.contains("panel.yaml:3:12: layers[0].kind: 'blob' is not one of") == true)
    }

    @Test("the daemon with --scene FILE: an edit reloads it (STATUS), SIGHUP keeps the command line's scene file, a broken edit is rejected, SIGTERM ends cleanly")
    func daemonProcess() throws {
        let folder = try SceneFileFixture.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let scene = folder + "/panel.yaml", config = folder + "/lamina.toml"
        try Self.scene(box: "#0000FF").write(toFile: scene, atomically: false, encoding: .utf8)
        try "[display]\nbackend = \"dummy\"\nconsole = \"none\"\n".write(toFile: config, atomically: true, encoding: .utf8)
        let listener = try NotifySocketListener()
        let daemon = try ChildProcess(CommandLineTests.executable.path,
                                      ["run", "--config", config, "--scene", scene, "--exit-after", "30"],
                                      environment: ["NOTIFY_SOCKET": listener.path])
        #expect(listener.wait(for: "READY=1", limit: 20))
        try renameOver(scene, Self.scene(box: "#00FF00"))
        let edited = listener.wait(for: "STATUS=scene file reloaded: \(scene)", limit: 10)
        daemon.signal(SIGHUP)
        let reloaded = listener.wait(for: "STATUS=reloaded \(config): scene \(scene)", limit: 10)
        try renameOver(scene, "lamina: 1\nlayers: [{kind: blob}]\n")
        let rejected = listener.wait(for: "STATUS=scene file edit rejected: \(scene):2:17: layers[0].kind", limit: 10)
        daemon.signal(SIGTERM)
        let result = daemon.finish()
        #expect(edited && reloaded && rejected, "\(result.stderr)")
        #expect(result.status == 0 && result.stderr.contains("stopped (signal)"), "\(result.stderr)")
    }
}
