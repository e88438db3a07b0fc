import Foundation
@testable import Lamina
@testable import LaminaSceneFiles
@testable import LaminaControl
@testable import LaminaRuntime
import LaminaSystem
import LaminaTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Scenes are read and compiled off the frame loop (issue 26): while a load runs the loop
/// draws, answers and stops on SIGTERM; bursts of reloads share one load; the queue of
/// waiting loads is bounded.
@Suite("Scene loader", .serialized)
struct SceneLoaderTests {
    /// Waits (poll, no sleep) until the loader's event says a load finished.
    static func waitForLoad(_ loader: SceneLoader) -> Bool {
        guard let fd = loader.wakeup?.descriptor else { return false }
        var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&descriptor, 1, 30_000) == 1
    }

    @Test("requests under one key share the load that waits; at most 4 keys wait; the results reach every request on the loop")
    func coalescing() {
        let loader = SceneLoader(inBackground: true)
        #expect(loader.inBackground)
        loader.queue.suspend()                                  // holds the first load in progress
        nonisolated(unsafe) var loads = 0
        var results: [String: [String?]] = [:]
        func ask(_ key: String, _ outcome: String?) -> Bool {
            loader.request(key, prepare: { { loads += 1; return { outcome } } }, done: { results[key, default: []].append($0) })
        }
        #expect(ask("reload", nil))                             // starts at once
        for _ in 0..<300 { #expect(ask("reload", nil)) }        // one waiting load, 300 requests on it
        #expect(ask("switch-scene a", "no such file"))
        #expect(ask("switch-scene b", nil))
        #expect(ask("screensaver", nil))
        #expect(!ask("switch-scene c", nil))                    // a fifth key waiting: refused at once
        #expect(loader.isBusy && loader.isLoading("switch-scene a") && !loader.isLoading("switch-scene c"))
        loader.queue.resume()
        for _ in 0..<5 {
            #expect(Self.waitForLoad(loader))
            loader.collect()
        }
        #expect(!loader.isBusy)
        #expect(loads == 5)
        #expect(results["reload"]?.count == 301 && results["reload"]?.allSatisfy { $0 == nil } == true)
        #expect(results["switch-scene a"] == ["no such file"] && results["switch-scene b"] == [nil])
        #expect(results["switch-scene c"] == [SceneLoader.busy])            // told at once, nothing loaded
    }

    @Test("while a switch-scene load is held, frames go on and requests are answered; then the reply comes and the scene is shown")
    func loopKeepsRunning() throws {
        let rig = try ControlSocketTests.Rig()
        let loader = SceneLoader(inBackground: true)
        rig.runtime.sceneLoader = loader
        let file = rig.folder + "/other.yaml"
        try "lamina: 1\nbackground: \"#00FF00\"\nlayers: [{name: a}]\n".write(toFile: file, atomically: true, encoding: .utf8)
        let shown = rig.runtime.scene
        rig.runtime.onSwitchScene = { [unowned runtime = rig.runtime] name, done in
            runtime.sceneLoader.request("switch-scene", prepare: {
                {
                    let loaded = Result { () throws(ConfigError) in try SceneFiles.load(path: name) }
                    return {
                        do {
                            try SceneFiles.install(loaded.get(), in: runtime)
                            return nil
                        } catch {
                            return "\(error)"
                        }
                    }
                }
            }, done: done)
        }
        let client = try rig.connect()
        loader.queue.suspend()
        client.send(##"{"id": 1, "command": "switch-scene", "scene": "\##(file)"}"## + "\n")
        let frames = rig.runtime.renderedFrames
        rig.runtime.rootLayer.opacity = 0.5                        // something to draw meanwhile
        for _ in 0..<5 { rig.turn() }
        client.send(##"{"id": 2, "command": "version"}"## + "\n")
        rig.turn()
        #expect(client.lines().compactMap { $0.object?["id"] } == [.number(2)], "answered while the scene loads")
        #expect(rig.runtime.renderedFrames > frames)
        #expect(rig.runtime.scene === shown)
        loader.queue.resume()
        #expect(Self.waitForLoad(loader))
        rig.turn()
        let replies = client.lines().compactMap(\.object)
        #expect(replies == [["id": .number(1), "ok": .bool(true), "scene": .string(file)]])
        #expect(rig.runtime.scene !== shown && rig.runtime.scene is FileScene)
    }

    @Test("the daemon answers and stops on SIGTERM while a scene file's reader hangs (switch-scene in real time)")
    func sigtermDuringALoad() throws {
        let folder = try SceneFileFixture.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try "lamina: 1\nlayers: [{name: a, bounds: [0, 0, 10, 10]}]\n".write(toFile: folder + "/a.yaml", atomically: true, encoding: .utf8)
        try "lamina: 1\nlayers: [{name: b}]\n".write(toFile: folder + "/hangs.yaml", atomically: true, encoding: .utf8)
        let realHelper = CommandLineTests.executable.deletingLastPathComponent().appendingPathComponent(SceneFiles.helperName).path
        // A reader that never answers for hangs.yaml (as one stuck on a slow disk would).
        let helper = folder + "/helper.sh"
        try "#!/bin/sh\ncase \"$1\" in *hangs.yaml) exec sleep 30;; esac\nexec \"\(realHelper)\" \"$@\"\n"
            .write(toFile: helper, atomically: true, encoding: .utf8)
        chmod(helper, 0o755)
        let config = folder + "/lamina.toml"
        try """
            [display]
            backend = "dummy"
            clock = "realtime"
            console = "none"
            [run]
            scene = "a.yaml"
            exit_after = 600
            [control]
            socket = "\(folder)/control"

            """.write(toFile: config, atomically: true, encoding: .utf8)
        let listener = try NotifySocketListener()
        let daemon = try ChildProcess(CommandLineTests.executable.path, ["run", "--config", config],
                                      environment: ["NOTIFY_SOCKET": listener.path, "LAMINA_SCENE_HELPER": helper])
        defer { daemon.signal(SIGKILL) }
        #expect(listener.wait(for: "READY=1", limit: 60))
        let socket = try UnixSocket.connect(path: folder + "/control", nonBlocking: false)
        defer { socket.close() }
        let requests = ##"{"id": 1, "command": "switch-scene", "scene": "hangs.yaml"}"## + "\n" + ##"{"id": 2, "command": "version"}"## + "\n"
        _ = socket.send(Array(requests.utf8)[...])
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        var descriptor = pollfd(fd: socket.descriptor, events: Int16(POLLIN), revents: 0)
        while !received.contains(0x0A), poll(&descriptor, 1, 60_000) == 1, case .moved(let n) = socket.receive(into: &buffer) {
            received += buffer[0..<n]
        }
        let first = try ControlValue.parse(received.prefix { $0 != 0x0A })
        #expect(first.object?["id"] == .number(2), "the version reply comes while the scene still loads")
        daemon.signal(SIGTERM)
        let result = daemon.finish()
        #expect(result.status == 0 && result.stderr.contains("stopped (signal)"), "\(result.stderr.suffix(600))")
    }
}

/// `lamina check-config` and `lamina run` judge a scene file alike (issue 26: a config the
/// check passed could put a board into a crash loop), and neither waits on a FIFO.
@Suite("check-config and run agree")
struct CheckAndRunAgreeTests {
    @Test("hostile scene files are refused by both with the same line and status 78; a good one passes both", arguments: [
        ("image.yaml", "lamina: 1\nlayers:\n  - {contents: pipe.png}\n", "is a FIFO, not a regular file"),
        ("cube.yaml", "lamina: 1\nlayers:\n  - kind: replicator\n    instanceCount: 256\n    sublayers: [{kind: replicator, instanceCount: 256, sublayers: [{kind: replicator, instanceCount: 256}]}]\n",
         "a scene draws at most 20000"),
        ("text.yaml", "lamina: 1\nbindings:\n  s: {string: \"" + String(repeating: "y", count: 4000) + "\"}\nlayers:\n"
            + String(repeating: "  - {kind: text, string: \"{s}\"}\n", count: 20), "a scene shows at most 65536"),
        ("fifo.yaml", "", "is not a regular file"),
        ("good.yaml", "lamina: 1\nlayers:\n  - {bounds: [0, 0, 10, 10]}\n", ""),
    ])
    func agree(_ name: String, _ yaml: String, _ reason: String) throws {
        let folder = try SceneFileFixture.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        mkfifo(folder + "/pipe.png", 0o644)
        if yaml.isEmpty {
            mkfifo(folder + "/" + name, 0o644)
        } else {
            try yaml.write(toFile: folder + "/" + name, atomically: true, encoding: .utf8)
        }
        let config = folder + "/lamina.toml"
        try "[display]\nbackend = \"dummy\"\nclock = \"virtual\"\nconsole = \"none\"\n[run]\nscene = \"\(name)\"\nexit_after = 0.05\n"
            .write(toFile: config, atomically: true, encoding: .utf8)
        let check = try ChildProcess(CommandLineTests.executable.path, ["check-config", config]).finish()
        let run = try ChildProcess(CommandLineTests.executable.path, ["run", "--config", config]).finish()
        if reason.isEmpty {
            #expect(check.status == 0 && run.status == 0, "\(check.stderr) \(run.stderr.suffix(300))")
        } else {
            #expect(check.status == 78 && run.status == 78)
            let checked = check.stderr.split(separator: "\n").first { $0.contains(reason) }
            let ran = run.stderr.split(separator: "\n").first { $0.contains(reason) }
            #expect(checked != nil && checked == ran, "\(check.stderr) | \(run.stderr.suffix(300))")
        }
    }
}
