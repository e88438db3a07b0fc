import Foundation
import Lamina
@testable import LaminaControl
@testable import LaminaRuntime
import LaminaTestSupport
import Testing

/// Scene files' `video` layers (issue 32): the clip checked where the file names it, played
/// on the dummy display frame by frame on the virtual clock, driven and reported through the
/// control socket.
@Suite("Scene files: video layers", .serialized)
struct SceneFileVideoTests {
    /// The first video's report in a `stats` reply.
    static func firstVideo(_ stats: [String: ControlValue]?) -> [String: ControlValue]? {
        guard case .array(let videos)? = stats?["videos"] else { return nil }
        return videos.first?.object
    }

    @Test("a video layer names a clip in the scene's folder or a streaming URL; every mistake is one line naming the field")
    func mistakes() throws {
        let cases: [(String, String)] = [
            ("{kind: video, bounds: [0, 0, 320, 240]}", "a video layer names its clip"),
            ("{kind: video, source: missing.webm}", "layers[0].source: 'missing.webm' does not exist"),
            ("{kind: video, source: ../outside.webm}", "does not exist"),
            ("{kind: video, source: /etc/passwd}", "a video is named by a path relative to the scene file's folder"),
            ("{kind: video, source: 'ftp://host/a.mp4'}", "does not exist"),
            ("{kind: video, source: 'rtsp://camera/stream', rate: 9}", "layers[0].rate"),
            ("{kind: video, source: 'rtsp://camera/stream', loop: maybe}", "layers[0].loop"),
            ("{kind: video, source: 'rtsp://camera/stream', muted: no-thanks}", "layers[0].muted"),
            ("{kind: video, source: 'rtsp://camera/stream', volume: 1.5}", "layers[0].volume"),
            ("{kind: video, source: 'rtsp://camera/stream', volume: loud}", "layers[0].volume"),
            ("{kind: video, source: 'https://signage.example/a b.mp4', contents: x.png}", "a video layer has no property 'contents'"),
        ]
        for (layer, expected) in cases {
            let error = SceneFileFixture.error("lamina: 1\nlayers:\n  - \(layer)\n") ?? "(accepted)"
            #expect(error.contains(expected), "\(layer): \(error)")
        }
        let five = (0..<5).map { _ in "  - {kind: video, source: 'rtsp://camera/stream'}" }.joined(separator: "\n")
        #expect(SceneFileFixture.error("lamina: 1\nlayers:\n\(five)\n")?.contains("more than 4 video layers") == true)
        let row = """
            lamina: 1
            bindings:
              items: {list: [{a: "1"}]}
            templates:
              line:
                parameters: {a: x}
                layer: {kind: video, source: 'rtsp://camera/stream'}
            layers:
              - {kind: list, items: $items, row: line, bounds: [0, 0, 300, 300]}
            """
        #expect(SceneFileFixture.error(row)?.contains("a list's row holds plain layers, not a video") == true)
        // A FIFO (or a folder) named as the clip is refused, never opened: opening a FIFO waits.
        let folder = try SceneFileFixture.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(mkfifo(folder + "/clip.webm", 0o600) == 0)
        try FileManager.default.createDirectory(atPath: folder + "/clips.webm", withIntermediateDirectories: false)
        for name in ["clip.webm", "clips.webm"] {
            #expect(throws: ConfigError.self) { _ = try SceneFileFixture.compile("lamina: 1\nlayers:\n  - {kind: video, source: \(name)}\n", in: folder) }
            do { _ = try SceneFileFixture.compile("lamina: 1\nlayers:\n  - {kind: video, source: \(name)}\n", in: folder) } catch {
                #expect("\(error)".contains("layers[0].source: '\(name)' is not a regular file"), "\(error)")
            }
        }
    }

    @Test("a file's video at its own size goes on the display's overlay plane, and `overlayPlane: false` keeps it drawn; stats count the frames on the plane")
    func overlayPlane() throws {
        let folder = try SceneFileFixture.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        _ = try SweepClip.make(in: folder, name: "sweep.webm")
        for allowed in [true, false] {
            let rig = try DummyDisplayRig(width: 400, height: 300, refresh: 60, start: 0)
            rig.device.addOverlayPlane()
            let runtime = rig.makeRuntime()
            let document = try SceneFileFixture.compile("""
                lamina: 1
                layers:
                  - {name: promo, kind: video, source: sweep.webm, overlayPlane: \(allowed),
                     bounds: [0, 0, 320, 240], position: [200, 150]}
                  - {name: caption, bounds: [0, 0, 30, 20], position: [385, 290], backgroundColor: "#336699"}
                """, in: folder)
            try runtime.install(FileScene.self, settings: FileScene.Settings(document: document))
            runtime.run(exitAfter: 0.5, untilSettled: false)
            let composed = try #require(try rig.display.captureComposedFrame())
            #expect(SweepClip.frameShown(composed, x: 40, y: 30) != nil, "the video on the panel")
            #expect(composed[380, 290] == 0xFF33_6699, "the caption beside it")
            if allowed {
                #expect(rig.device.overlayShown?.destination == PixelRect(x0: 40, y0: 30, x1: 360, y1: 270))
                #expect(SweepClip.frameShown(rig.display.readFront(), x: 40, y: 30) == nil, "not drawn into the primary")
                #expect((runtime.stats.overlayPlaneFrames ?? 0) >= 14, "\(String(describing: runtime.stats.overlayPlaneFrames))")
                #expect(runtime.stats.summary.contains("frames with video on the overlay plane"))
            } else {
                #expect(rig.device.overlayShown == nil && rig.device.overlayTests.asked == 0)
                #expect(runtime.stats.overlayPlaneFrames == nil)
            }
        }
        do {
            _ = try SceneFileFixture.compile("lamina: 1\nlayers:\n  - {kind: video, source: sweep.webm, overlayPlane: maybe}\n", in: folder)
            Issue.record("overlayPlane: maybe was taken")
        } catch {
            #expect("\(error)".contains("layers[0].overlayPlane"), "\(error)")
        }
    }

    @Test("a reload keeps a video playing where it was while its layer keeps its name and source; a new source starts from its first frame")
    func reloadKeepsVideo() throws {
        let folder = try SceneFileFixture.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        _ = try SweepClip.make(in: folder, name: "sweep.webm")
        _ = try SweepClip.make(in: folder, name: "other.webm")
        let rig = try DummyDisplayRig(width: 320, height: 240, refresh: 60, start: 0)
        let runtime = rig.makeRuntime()
        func file(_ source: String, caption: String) throws -> SceneDocument {
            try SceneFileFixture.compile("""
                lamina: 1
                layers:
                  - {name: promo, kind: video, source: \(source), loop: true, contentsGravity: topLeft,
                     bounds: [0, 0, 320, 240], position: [160, 120]}
                  - {name: caption, bounds: [0, 0, 20, 20], position: [300, 220], backgroundColor: "\(caption)"}
                """, in: folder)
        }
        /// The sweep's frame on screen and the player's place in the clip.
        func shown() throws -> (frame: Int?, position: Double, player: ObjectIdentifier?) {
            let scene = try #require(runtime.scene as? FileScene)
            let player = scene.videoPlayer(named: "promo")
            return (SweepClip.frameShown(rig.display.readFront()), player?.currentTime ?? -1, player.map(ObjectIdentifier.init))
        }
        try SceneFiles.install(try file("sweep.webm", caption: "#336699"), in: runtime)
        runtime.run(exitAfter: 0.5, untilSettled: false)
        let before = try shown()
        #expect(before.position > 0.35, "the clip has played about half a second: \(before.position)")

        // An edit elsewhere in the file: the same player plays on from where it was.
        try SceneFiles.install(try file("sweep.webm", caption: "#993366"), in: runtime)
        runtime.run(exitAfter: 0.25, untilSettled: false)
        let kept = try shown()
        #expect(kept.player == before.player, "the player is handed on")
        let advanced = (kept.position - before.position + 1).truncatingRemainder(dividingBy: 1)
        #expect(abs(advanced - 0.25) <= 1.0 / 30 + 1e-9, "0.25 s later in the clip (one frame of slack): \(before.position) → \(kept.position)")
        // The front buffer shows the frame the player took a vblank or two before.
        let expected = Int((kept.position * 30).rounded())
        #expect([expected, expected - 1].map { ($0 + 30) % 30 }.contains(kept.frame ?? -1),
                "the frame on screen is the player's: \(String(describing: kept.frame)) at \(kept.position) s")
        #expect(rig.display.readFront()[300, 220] == 0xFF99_3366, "the edit is shown")

        // Another clip in the layer: a new player, from the first frame.
        try SceneFiles.install(try file("other.webm", caption: "#993366"), in: runtime)
        runtime.run(exitAfter: 0.05, untilSettled: false)
        let fresh = try shown()
        #expect(fresh.player != nil && fresh.player != before.player)
        #expect(fresh.position < 0.1, "starts again: \(fresh.position)")
        #expect(runtime.videos.all.count == 1, "the old player is gone from stats")
    }

    @Test("a scene file's video plays every frame; `lamina ctl video` plays, seeks and loops it; subscribers hear ready and ended; stats names the decoder")
    func playsAndIsDriven() throws {
        let folder = try SceneFileFixture.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        _ = try SweepClip.make(in: folder, name: "sweep.webm")
        let rig = try DummyDisplayRig(width: 400, height: 300, refresh: 60, start: 0)
        let runtime = rig.makeRuntime()
        let document = try SceneFileFixture.compile("""
            lamina: 1
            layers:
              - {name: promo, kind: video, source: sweep.webm, playing: false, contentsGravity: topLeft,
                 bounds: [0, 0, 320, 240], position: [160, 120], backgroundColor: "#000000"}
              - {name: caption, bounds: [0, 0, 80, 40], position: [360, 280], backgroundColor: "#336699"}
            """, in: folder)
        try runtime.install(FileScene.self, settings: FileScene.Settings(document: document))
        try runtime.openControlSocket(path: folder + "/control")
        defer { runtime.closeControlSocket() }
        let client = try ControlSocketTests.Client(path: folder + "/control")
        var events: [[String: ControlValue]] = []
        func ask(_ request: String) -> [String: ControlValue] {
            client.send(request + "\n")
            runtime.run(exitAfter: rig.display.frameDuration, untilSettled: false)
            let lines = client.lines().compactMap(\.object)
            events += lines.filter { $0["event"] != nil }
            return lines.last { $0["event"] == nil } ?? [:]
        }
        #expect(ask(#"{"command": "subscribe", "events": ["video"]}"#)["ok"] == .bool(true))
        #expect(runtime.run(untilSettled: true) == .settled, "playing: false waits for a play")
        #expect(ask(#"{"command": "video", "layer": "nobody", "action": "play"}"#)["error"]?.string == "no video layer is named 'nobody' (videos: promo)")
        #expect(ask(#"{"command": "video", "layer": "promo", "action": "seek", "value": -1}"#)["error"]?.string?.hasPrefix("seek needs `value`") == true)
        #expect(ask(#"{"command": "video", "layer": "promo", "action": "rate", "value": 9}"#)["error"]?.string == "rate needs `value`, a number from 0 to 8")
        #expect(ask(#"{"command": "video", "layer": "promo", "action": "fly"}"#)["error"]?.string?.hasPrefix("video needs `action`") == true)
        #expect(ask(#"{"command": "video", "layer": "promo", "action": "volume", "value": 1.5}"#)["error"]?.string == "volume needs `value`, a number from 0 to 1")
        // Muted until asked; unmuted on a virtual clock (the test's) there is no sound to
        // follow it, and the report says so: no sink.
        let muted = ask(#"{"command": "video", "layer": "promo", "action": "volume", "value": 0.4}"#)["video"]?.object
        #expect(muted?["muted"] == .bool(true) && muted?["volume"] == .number(0.4) && muted?["sound"] == nil)
        let unmuted = ask(#"{"command": "video", "layer": "promo", "action": "unmute"}"#)["video"]?.object
        #expect(unmuted?["muted"] == .bool(false) && unmuted?["sound"] == nil, "\(String(describing: unmuted))")
        #expect(ask(#"{"command": "video", "layer": "promo", "action": "mute"}"#)["video"]?.object?["muted"] == .bool(true))
        #expect(ask(#"{"command": "video", "layer": "promo", "action": "play"}"#)["ok"] == .bool(true))
        #expect(runtime.run(untilSettled: true) == .settled, "an ended video lets the daemon sleep")
        #expect(SweepClip.frameShown(rig.display.readFront()) == SweepClip.frames - 1, "the last frame stays")
        events += client.lines().compactMap(\.object)
        #expect(events.allSatisfy { $0["event"] == .string("video") })
        #expect(events.map { $0["layer"] } == [.string("promo"), .string("promo")])
        #expect(events.map { $0["action"] } == [.string("ready"), .string("ended")])
        let stats = ask(#"{"command": "stats"}"#)["stats"]?.object
        let video = Self.firstVideo(stats)
        #expect(video?["name"] == .string("promo") && video?["shown"] == .number(Double(SweepClip.frames)))
        #expect(video?["dropped"] == .number(0) && video?["late"] == .number(0))
        #expect(video?["decoder"]?.string?.isEmpty == false, "the decoder is named: \(String(describing: video?["decoder"]))")
        #expect(ask(#"{"command": "video", "layer": "promo", "action": "seek", "value": 0.5}"#)["ok"] == .bool(true))
        #expect(runtime.run(untilSettled: true) == .settled)
        #expect(SweepClip.frameShown(rig.display.readFront()) == 15, "the frame at 0.5 s")
        #expect(ask(#"{"command": "video", "layer": "promo", "action": "loop", "value": true}"#)["video"]?.object?["playing"] == .bool(false))
        #expect(ask(#"{"command": "video", "layer": "promo", "action": "play"}"#)["video"]?.object?["playing"] == .bool(true))
        runtime.run(exitAfter: 2, untilSettled: false)             // 0.5 s to the end, then more than a pass
        #expect(ask(#"{"command": "video", "layer": "promo", "action": "pause"}"#)["video"]?.object?["playing"] == .bool(false))
        #expect(runtime.run(untilSettled: true) == .settled)
        #expect(SweepClip.frameShown(rig.display.readFront()) != nil, "a frame of the clip, not black")
        events += client.lines().compactMap(\.object)
        #expect(events.count == 2, "a looping video never ends: \(events)")
        let after = Self.firstVideo(ask(#"{"command": "stats"}"#)["stats"]?.object)
        #expect((after?["shown"]?.number ?? 0) >= Double(SweepClip.frames + 60), "two more seconds shown across the loop")
        #expect(after?["dropped"] == .number(0) && after?["late"] == .number(0), "\(String(describing: after))")
        #expect(rig.display.readFront()[360, 280] == 0xFF33_6699, "the UI beside the video is drawn")
    }
}
