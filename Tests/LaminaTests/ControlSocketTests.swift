import Foundation
import Lamina
@testable import LaminaSceneFiles
@testable import LaminaControl
@testable import LaminaRuntime
import LaminaDisplay
import LaminaRaster
import LaminaScenes
import LaminaSystem
import LaminaTestSupport
import Testing

/// The control socket (issue 16): JSON lines in, JSON lines out, between two frames of a
/// runtime on the virtual clock; a client here is a non-blocking socket in the test's thread.
@Suite("Control socket", .serialized)
struct ControlSocketTests {
    static let scene = """
        lamina: 1
        bindings:
          shade: {colour: "#FF0000"}
          label: {string: Ready}
        layers:
          - {name: box, bounds: [0, 0, 100, 100], position: [100, 100], backgroundColor: $shade}
          - {name: text, kind: text, string: "{label}", bounds: [0, 0, 100, 30], position: [300, 30]}
        states:
          moved:
            box: {position: [300, 200]}

        """

    /// A runtime showing `scene` with its control socket open in a fresh folder.
    final class Rig {
        let folder: String
        let rig: DummyDisplayRig
        let runtime: Runtime
        let log = CapturedLog()
        var socketPath: String { folder + "/control" }

        init(scene: String = ControlSocketTests.scene) throws {
            folder = try SceneFileFixture.folder()
            rig = try DummyDisplayRig(width: 400, height: 300, refresh: 60, start: 0)
            runtime = rig.makeRuntime(log: log)
            let document = try SceneFileFixture.compile(scene, in: folder)
            try runtime.install(FileScene.self, settings: FileScene.Settings(document: document))
            try runtime.openControlSocket(path: folder + "/control")
            runtime.onSwitchScene = { [unowned runtime] name, done in
                do {
                    try Gallery.registry.install(scene: name, settings: LaminaConfig().settings(forScene: name), in: runtime)
                    done(nil)
                } catch {
                    done("\(error)")
                }
            }
            #expect(runtime.run(untilSettled: true) == .settled)
        }

        deinit {
            runtime.closeControlSocket()
            try? FileManager.default.removeItem(atPath: folder)
        }

        func connect() throws -> Client { try Client(path: socketPath) }

        /// `count` clients, accepted a few at a time (the listen backlog is short).
        func connect(_ count: Int) throws -> [Client] {
            var clients: [Client] = []
            for i in 0..<count {
                if i % 4 == 3 { turn() }
                clients.append(try connect())
            }
            return clients
        }

        /// One frame's worth of the loop (the socket is read between events).
        func turn() { runtime.run(exitAfter: rig.display.frameDuration, untilSettled: false) }
    }

    /// A client in the test's thread.
    final class Client {
        let socket: UnixSocket
        var received: [UInt8] = []

        init(path: String) throws {
            socket = try UnixSocket.connect(path: path, nonBlocking: true)
        }

        deinit { socket.close() }

        func send(_ text: String) {
            var bytes = Array(text.utf8)[...]
            while !bytes.isEmpty, case .moved(let n) = socket.send(bytes) { bytes = bytes.dropFirst(n) }
        }

        /// The lines that have arrived, parsed.
        func lines() -> [ControlValue] {
            var buffer = [UInt8](repeating: 0, count: 65536)
            while case .moved(let n) = socket.receive(into: &buffer) { received += buffer[0..<n] }
            var result: [ControlValue] = []
            while let newline = received.firstIndex(of: 0x0A) {
                if let value = try? ControlValue.parse(received[..<newline]) { result.append(value) }
                received.removeFirst(newline + 1)
            }
            return result
        }

        var isClosed: Bool {
            var buffer = [UInt8](repeating: 0, count: 65536)
            while true {
                switch socket.receive(into: &buffer) {
                case .moved(let n): received += buffer[0..<n]
                case .closed, .failed: return true
                case .wouldBlock: return false
                }
            }
        }
    }

    private func ask(_ rig: Rig, _ client: Client, _ request: String) -> [String: ControlValue] { Self.ask(rig, client, request) }

    /// Sends `request` and returns the reply after one turn.
    static func ask(_ rig: Rig, _ client: Client, _ request: String) -> [String: ControlValue] {
        client.send(request + "\n")
        rig.turn()
        return client.lines().last { $0.object?["event"] == nil }?.object ?? [:]
    }

    @Test("bindings, states and the version: each request answered between two frames, with its id")
    func commands() throws {
        let rig = try Rig()
        let client = try rig.connect()
        #expect(ask(rig, client, ##"{"id": 7, "command": "version"}"##) == ["ok": .bool(true), "id": .number(7), "protocol": .number(1), "program": .string("lamina")])
        #expect(ask(rig, client, ##"{"command": "set-binding", "name": "shade", "value": "#0000FF"}"##)["ok"] == .bool(true))
        #expect(ask(rig, client, ##"{"command": "set-binding", "name": "label", "value": "Running"}"##)["ok"] == .bool(true))
        #expect(rig.runtime.run(untilSettled: true) == .settled)
        #expect(rig.rig.display.shadow[100, 100] == 0xFF00_00FF)
        let bindings = ask(rig, client, ##"{"command": "get-bindings"}"##)
        #expect(bindings["bindings"] == .object(["shade": .string("#0000FF"), "label": .string("Running"),   // and the ones Lamina sets
                                                 "screenWidth": .number(400), "screenHeight": .number(300), "keyboardHeight": .number(0)]))
        #expect(ask(rig, client, ##"{"command": "go-to-state", "state": "moved"}"##)["state"] == .string("moved"))
        #expect(rig.runtime.run(untilSettled: true) == .settled)
        #expect(rig.rig.display.shadow[300, 200] == 0xFF00_00FF)
        let stats = ask(rig, client, ##"{"command": "stats"}"##)["stats"]?.object
        #expect((stats?["frames"]?.number ?? 0) > 1)
    }

    @Test("mistakes get an error reply and the connection stays: bad JSON, not an object, unknown command or field, wrong kinds, an over-long line")
    func mistakes() throws {
        let rig = try Rig()
        let client = try rig.connect()
        func error(_ request: String) -> String { ask(rig, client, request)["error"]?.string ?? "(no error)" }
        #expect(error("{nope").hasPrefix("not a JSON object"))
        #expect(error("[1, 2]") == "a request is a JSON object")
        // Nesting is refused before decoding (its cost grows with the cube of the depth).
        #expect(error(String(repeating: "[", count: 17) + String(repeating: "]", count: 17)).hasPrefix("not a JSON object: nested more than 16 deep"))
        // As RFC 8259 and the protocol say: a key twice and a trailing comma are errors, not "first wins".
        #expect(error(##"{"command": "version", "command": "stats"}"##).hasPrefix("not a JSON object: the key 'command' is written twice"))
        #expect(error(##"{"command": "version",}"##).hasPrefix("not a JSON object: expected a key in quotes"))
        #expect(error(##"{"command": "subscribe", "events": ["state",]}"##).hasPrefix("not a JSON object: no comma after the last item"))
        #expect(error(##"{"command": "set-binding", "name": "shade", "value": "#ＦＦＦ"}"##).contains("is not a colour"))
        #expect(error(##"{"command": "set-brightness", "level": 0x1}"##).hasPrefix("not a JSON object"))
        #expect(error(String(repeating: "[", count: 16) + String(repeating: "]", count: 16)) == "a request is a JSON object")
        #expect(error(##"{"command": "go-to-state", "state": "[[[[[[[[[[[[[[[[[[[[[[[["}"##).hasPrefix("no state '[[[["))
        #expect(error(##"{"command": "fly"}"##).hasPrefix("unknown command 'fly'"))
        #expect(error(##"{"command": "version", "verbose": true}"##) == "version takes no field 'verbose'")
        #expect(error(##"{"command": "set-binding", "name": "shade", "value": 3}"##).contains("'shade' is a colour binding"))
        #expect(error(##"{"command": "set-binding", "name": "shade", "value": "#12"}"##).contains("is not a colour"))
        #expect(error(##"{"command": "set-binding", "name": "volume", "value": 3}"##).hasPrefix("no binding 'volume'"))
        #expect(error(##"{"command": "go-to-state", "state": "gone"}"##).hasPrefix("no state 'gone'"))
        #expect(error(##"{"command": "subscribe", "events": ["weather"]}"##).contains("is not an event"))
        #expect(error(##"{"command": "set-brightness", "level": 0.5}"##) == "no backlight is configured")
        let sysfs = try BacklightTests.sysfs([("panel", "raw", 100)])
        defer { try? FileManager.default.removeItem(atPath: sysfs) }
        rig.runtime.backlight = try Backlight(path: sysfs + "/panel")
        #expect(error(##"{"command": "set-brightness", "level": 2}"##) == "set-brightness needs `level`, a number from 0 to 1")
        #expect(ask(rig, client, ##"{"command": "set-brightness", "level": 0.25}"##)["level"] == .number(0.25))
        #expect(BacklightTests.read(sysfs + "/panel/brightness") == "25")
        // 100 KiB without a newline, then its end: one error, and the next request works.
        client.send(String(repeating: "x", count: 100 * 1024))
        rig.turn()
        client.send("yz\n")
        rig.turn()
        let replies = client.lines()
        #expect(replies.count == 1 && replies[0].object?["error"]?.string == "a request line is at most 65536 bytes")
        #expect(ask(rig, client, ##"{"command": "version"}"##)["ok"] == .bool(true))
        #expect(!client.isClosed)
    }

    @Test("subscribers get state, display and scene events; blank and unblank; switch-scene; a screenshot is the frame on the glass")
    func eventsAndScreens() throws {
        let rig = try Rig()
        let watcher = try rig.connect(), client = try rig.connect()
        #expect(ask(rig, watcher, ##"{"command": "subscribe", "events": ["state", "display", "scene"]}"##)["ok"] == .bool(true))
        _ = ask(rig, client, ##"{"command": "go-to-state", "state": "moved"}"##)
        #expect(ask(rig, client, ##"{"command": "blank"}"##)["lit"] == .bool(false))
        #expect(rig.rig.display.isBlanked)
        #expect(ask(rig, client, ##"{"command": "unblank"}"##)["lit"] == .bool(true))
        #expect(rig.runtime.run(untilSettled: true) == .settled)
        let shot = ask(rig, client, ##"{"command": "screenshot"}"##)
        let path = try #require(shot["path"]?.string)
        #expect(path == rig.folder + "/screenshot.png")
        let image = try RGBAImage.readPNG(from: path)
        #expect(Pixels.differing(PixelBuffer(rgba: image), rig.rig.display.shadow) == 0)
        #expect(ask(rig, client, ##"{"command": "switch-scene", "scene": "spinner"}"##)["scene"] == .string("spinner"))
        #expect(rig.runtime.scene is Spinner)
        #expect(ask(rig, client, ##"{"command": "switch-scene", "scene": "nothing"}"##)["ok"] == .bool(false))
        let events = watcher.lines().compactMap { $0.object }.filter { $0["event"] != nil }
        #expect(events == [
            ["event": .string("state"), "state": .string("moved")],
            ["event": .string("display"), "lit": .bool(false)],
            ["event": .string("display"), "lit": .bool(true)],
            ["event": .string("scene"), "scene": .string("spinner")],
        ])
    }

    @Test("bounded: past 16 clients and the 4 places kept for root and the daemon's user, a client is refused; a client that stops reading is dropped, the others keep working")
    func bounded() throws {
        let rig = try Rig()
        // The tests run as root, who may take the kept places too.
        let all = ControlServer.maximumClients + ControlServer.reservedClients
        var clients = try rig.connect(all)
        rig.turn()
        #expect(rig.runtime.control?.clientCount == all)
        let extra = try rig.connect()
        rig.turn()
        #expect(extra.lines().first?.object?["error"] == .string("too many clients"))
        #expect(extra.isClosed)
        // One client floods requests and never reads its replies.
        let flood = clients.removeFirst()
        let request = Array(String(repeating: ##"{"command": "version"}"## + "\n", count: 2000).utf8)
        var turns = 0
        while rig.runtime.control?.clientCount == all && turns < 2000 {
            _ = flood.socket.send(request[...])
            rig.turn()
            turns += 1
        }
        #expect(rig.runtime.control?.clientCount == all - 1)
        #expect(rig.log.count(containing: "stopped reading") == 1)
        #expect(ask(rig, clients[0], ##"{"command": "version"}"##)["ok"] == .bool(true))
        #expect(rig.rig.display.missedVBlanks == 0)
    }

    @Test("idle connections do not hold places: a client that asks nothing for 60 s is disconnected, a subscriber stays; only root and the daemon's user take the kept places")
    func idleClients() throws {
        let rig = try Rig()
        let idle = try rig.connect(ControlServer.maximumClients)
        let talker = try rig.connect(), subscriber = try rig.connect()
        #expect(ask(rig, subscriber, ##"{"command": "subscribe", "events": ["state"]}"##)["ok"] == .bool(true))
        rig.runtime.run(exitAfter: 40, untilSettled: false)
        #expect(ask(rig, talker, ##"{"command": "version"}"##)["ok"] == .bool(true))
        #expect(rig.runtime.control?.clientCount == ControlServer.maximumClients + 2)
        rig.runtime.run(exitAfter: 25, untilSettled: false)              // 65 s: the silent ones are gone
        #expect(idle.filter { !$0.isClosed }.isEmpty)
        #expect(!talker.isClosed && !subscriber.isClosed)
        #expect(rig.runtime.control?.clientCount == 2)
        let late = try rig.connect()
        #expect(ask(rig, late, ##"{"command": "version"}"##)["ok"] == .bool(true))
        let own = UnixSocket.ownIdentity.uid
        #expect(ControlServer.mayUseReservedPlace(.init(pid: 1, uid: 0, gid: 0), ownUser: 999))
        #expect(ControlServer.mayUseReservedPlace(.init(pid: 1, uid: own, gid: 5), ownUser: own))
        #expect(!ControlServer.mayUseReservedPlace(.init(pid: 1, uid: 1234, gid: 1234), ownUser: 999))
    }

    @Test("a Swift scene's gestures are events too: the recognizer's kind and its layer's name")
    func swiftSceneGestures() throws {
        let rig = try Rig()
        let watcher = try rig.connect()
        #expect(ask(rig, watcher, ##"{"command": "switch-scene", "scene": "elastic-field"}"##)["ok"] == .bool(true))
        #expect(ask(rig, watcher, ##"{"command": "subscribe", "events": ["gesture"]}"##)["ok"] == .bool(true))
        let center = rig.runtime.rootLayer.bounds.size
        rig.runtime.addTouchSource(ScriptedTouchSource(script: try TouchScript(parsing: "at 0.05 tap \(center.width / 2),\(center.height / 2)"),
                                                       start: rig.rig.clock.now))
        #expect(rig.runtime.run(untilSettled: true) == .settled)
        #expect(watcher.lines().map(\.object) == [["event": .string("gesture"), "gesture": .string("tap"), "layer": .string("elastic-field")]])
    }

    @Test("many requests in one write: every one answered, in order, with its id, a few each turn; no vblank missed")
    func manyRequests() throws {
        let rig = try Rig()
        let client = try rig.connect()
        client.send((1...200).map { ##"{"id": \##($0), "command": "version"}"## + "\n" }.joined())
        var replies: [ControlValue] = []
        for _ in 0..<10 where replies.count < 200 {
            rig.turn()
            replies += client.lines()
        }
        #expect(replies.map { $0.object?["id"] } == (1...200).map { .number(Double($0)) })
        #expect(replies.allSatisfy { $0.object?["ok"] == .bool(true) })
        #expect(rig.rig.display.missedVBlanks == 0)
    }

    @Test("who may connect: root, the daemon's user, and members of the allowed group")
    func credentials() {
        let own: UInt32 = 1234, group: UInt32 = 4321
        #expect(ControlServer.admits(.init(pid: 1, uid: 0, gid: 0), ownUser: own, allowedGroup: group))
        #expect(ControlServer.admits(.init(pid: 1, uid: own, gid: 99), ownUser: own, allowedGroup: group))
        #expect(ControlServer.admits(.init(pid: 1, uid: 65534, gid: group), ownUser: own, allowedGroup: group))
        #expect(!ControlServer.admits(.init(pid: 1, uid: 65534, gid: 65534), ownUser: own, allowedGroup: group))
    }

    @Test("the config's [control] table: auto is the systemd runtime directory's socket, none is off, a path must be absolute")
    func config() throws {
        var config = LaminaConfig()
        #expect(config.controlSocketPath(environment: ["RUNTIME_DIRECTORY": "/run/lamina"]) == "/run/lamina/control")
        #expect(config.controlSocketPath(environment: [:]) == nil)
        config.controlSocket = "none"
        #expect(config.controlSocketPath(environment: ["RUNTIME_DIRECTORY": "/run/lamina"]) == nil)
        let folder = try SceneFileFixture.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try "[control]\nsocket = \"relative/control\"\n".write(toFile: folder + "/lamina.toml", atomically: true, encoding: .utf8)
        #expect(throws: ConfigError.self) { try LaminaConfig.load(path: folder + "/lamina.toml", sceneNames: ["elastic-field"]) }
    }
}
