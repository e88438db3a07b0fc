import Foundation
import Lamina
@testable import LaminaSceneFiles
@testable import LaminaRuntime
import LaminaScenes
import Testing

func fixture(_ name: String) -> String {
    Bundle.module.url(forResource: "Fixtures/\(name)", withExtension: nil)!.path
}

@Suite("TOML subset")
struct TOMLTests {
    @Test("tables, strings with escapes, numbers, booleans, comments")
    func parse() throws {
        let doc = try TOMLDocument(parsing: """
            top = 1
            [a]
            s = "x # not a comment \\"q\\""   # comment
            n = 1_000
            f = 2.5
            b = true
            """)
        #expect(doc.tables[""]?["top"]?.value == .integer(1))
        #expect(doc.tables["a"]?["s"]?.value == .string("x # not a comment \"q\""))
        #expect(doc.tables["a"]?["n"]?.value == .integer(1000))
        #expect(doc.tables["a"]?["f"]?.value == .float(2.5))
        #expect(doc.tables["a"]?["b"]?.value == .boolean(true))
        #expect(doc.tables["a"]?["s"]?.line == 3)
    }

    @Test("syntax errors carry their line", arguments: [
        ("[a\nk = 1", 1), ("k = 1\nk = 2", 2), ("[a]\n[a]", 2), ("x = \"open", 1), ("\n\nx = bare", 3), ("novalue", 1),
    ])
    func errors(text: String, line: Int) {
        do {
            _ = try TOMLDocument(parsing: text)
            Issue.record("parsed: \(text)")
        } catch {
            #expect(error.line == line)
        }
    }
}

@Suite("Configuration")
struct ConfigTests {
    let scenes = Gallery.registry.sceneNames

    @Test("a valid file sets every field; the script path is relative to the file")
    func valid() throws {
        let config = try LaminaConfig.load(path: fixture("good.toml"), sceneNames: scenes)
        #expect(config.backend == .dummy && config.clock == .virtual)
        #expect(config.dummyMode.width == 800 && config.dummyMode.height == 480)
        #expect(abs(config.dummyMode.refreshRate - 60) < 0.01)
        #expect(config.background.hexString == "#102030")
        #expect(config.blankAfter == 300 && config.repaintWindow == false && config.legacyPageFlips)
        #expect(config.touchScript == fixture("tap.touch"))
        let field = try ElasticField.Settings(from: config.settings(forScene: "elastic-field"))
        #expect(field.overshootAmount == 24 && field.fillColor.hexString == "#FF8800")
        #expect(field.size.width == 400 && field.size.height == 100)
    }

    @Test("device_wait: seconds as written; auto waits only when systemd started the daemon (INVOCATION_ID)")
    func deviceWait() throws {
        let path = NSTemporaryDirectory() + "lamina-config-\(UUID().uuidString).toml"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let service = ["INVOCATION_ID": "5f0c2d6e9b8a4c1d8e7f6a5b4c3d2e1f"]
        for (text, interactive, underSystemd) in [("", 0.0, LaminaConfig.serviceDeviceWait),
                                                  ("[display]\ndevice_wait = \"auto\"", 0, LaminaConfig.serviceDeviceWait),
                                                  ("[display]\ndevice_wait = 2.5", 2.5, 2.5), ("[display]\ndevice_wait = 0", 0, 0)] {
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            let config = try LaminaConfig.load(path: path, sceneNames: scenes)
            #expect(config.deviceWaitSeconds(environment: [:]) == interactive, "\(text)")
            #expect(config.deviceWaitSeconds(environment: ["INVOCATION_ID": ""]) == interactive, "\(text)")
            #expect(config.deviceWaitSeconds(environment: service) == underSystemd, "\(text)")
        }
    }

    @Test("an unknown field names file, line and field")
    func unknownField() throws {
        let config = try LaminaConfig.load(path: fixture("bad-field.toml"), sceneNames: scenes)
        do {
            _ = try ElasticField.Settings(from: config.settings(forScene: "elastic-field"))
            Issue.record("accepted")
        } catch {
            #expect(error.file == fixture("bad-field.toml"))
            #expect(error.field == "elastic_field.fill_colour" && error.line == 5)
            #expect(error.reason == "unknown field")
        }
    }

    @Test("bad values name the field and why", arguments: [
        ("[display]\nbackend = \"x11\"", "display.backend", "not one of"),
        ("[display]\ndummy_mode = \"big\"", "display.dummy_mode", "WIDTHxHEIGHT@HZ"),
        ("[display]\nblank_after = -5", "display.blank_after", "out of range"),
        ("[display]\nrepaint_window = \"maybe\"", "display.repaint_window", "not one of"),
        ("[display]\ndevice_wait = \"later\"", "display.device_wait", "'later' is not \"auto\" or a number"),
        ("[display]\ndevice_wait = 1e9", "display.device_wait", "out of range"),
        ("[display]\ndevice_wait = true", "display.device_wait", "expected a number"),
        ("[input]\nkeyboard_layout = \"lamina-nowhere\"", "input.keyboard_layout", "no keymap for layout 'lamina-nowhere'"),
        ("[input]\ncalibration = \"1 0 0\"", "input.calibration", "six finite numbers"),
        ("[input]\ncalibration = \"nan 0 0 0 1 0\"", "input.calibration", "six finite numbers"),
        ("[input]\ncalibration = \"1 0 inf 0 1 0\"", "input.calibration", "six finite numbers"),
        ("[display]\r\nbackend = \"hdmi\"\r\n", "display.backend", "'hdmi' is not one of"),
        ("[input]\nsource = \"x11\"", "input.source", "not one of"),
        ("[input]\non_screen_keyboard = \"yes\"", "input.on_screen_keyboard", "true or false"),
        ("[input]\ncursor = \"sometimes\"", "input.cursor", "not one of"),
        ("[input]\ncursor_hide_after = 0", "input.cursor_hide_after", "out of range"),
        ("[input]\ndevices = \"event3\"", "input.devices", "not a /dev path"),
        ("[run]\nscene = \"nope\"", "run.scene", "not one of"),
        ("[run]\nexit_after = -1", "run.exit_after", "out of range"),
        ("[run]\nexit_after = \"soon\"", "run.exit_after", "expected a number"),
        ("[video]\naudio_device = \"hdmi\"", "video.audio_device", "'hdmi' is not auto, pulse, pipewire, alsa or alsa:DEVICE"),
        ("[video]\naudio_device = \"alsa:hw:0 ! filesink location=/etc/x\"", "video.audio_device", "is not auto"),
        ("[video]\naudio_device = \"alsa:\"", "video.audio_device", "is not auto"),
        ("[video]\naudio_device = 3", "video.audio_device", "expected a string"),
        ("[video]\naudio = \"pulse\"", "video.audio", "unknown field"),
        ("[displya]\nbackend = \"dummy\"", "[displya]", "unknown table"),
        ("backend = \"dummy\"", "backend", "unknown field"),
    ])
    func badValues(text: String, field: String, fragment: String) throws {
        let path = NSTemporaryDirectory() + "lamina-config-\(UUID().uuidString).toml"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        do {
            _ = try LaminaConfig.load(path: path, sceneNames: scenes)
            Issue.record("accepted: \(text)")
        } catch {
            #expect(error.file == path && error.field == field)
            #expect(error.reason.contains(fragment), "\(error.reason)")
            #expect(error.line != nil)
        }
    }

    @Test("[video] audio_device names where a video's sound goes, as the GStreamer sink that plays to it")
    func audioDevice() throws {
        let cases: [(String, AudioDevice, String)] = [
            ("auto", .automatic, "autoaudiosink"), ("pulse", .pulse, "pulsesink"), ("pipewire", .pipewire, "pipewiresink"),
            ("alsa", .alsa(nil), "alsasink"), ("alsa:hw:1,0", .alsa("hw:1,0"), "alsasink device=hw:1,0"),
            ("alsa:plughw:CARD=Device,DEV=0", .alsa("plughw:CARD=Device,DEV=0"), "alsasink device=plughw:CARD=Device,DEV=0"),
        ]
        for (text, device, sink) in cases {
            let path = NSTemporaryDirectory() + "lamina-config-\(UUID().uuidString).toml"
            try "[video]\naudio_device = \"\(text)\"\n".write(toFile: path, atomically: true, encoding: .utf8)
            defer { try? FileManager.default.removeItem(atPath: path) }
            let config = try LaminaConfig.load(path: path, sceneNames: scenes)
            #expect(config.audioDevice == device && device.description == text && device.sinkDescription == sink)
        }
        let shipped = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("configs/lamina.toml").path
        #expect(try LaminaConfig.load(path: shipped, sceneNames: scenes).audioDevice == .automatic)
        for bad in ["", "ALSA", "alsa:" + String(repeating: "a", count: AudioDevice.maximumNameLength + 1), "alsa:hw 0",
                    "alsa:hw:0\u{0}", "alsa:hwé", "alsa:a!b", "alsa:\"x\""] {
            #expect(AudioDevice(bad) == nil, "\(bad)")
        }
        #expect(AudioDevice("alsa:" + String(repeating: "a", count: AudioDevice.maximumNameLength)) != nil)
    }

    @Test("CRLF line endings: every line is read and numbered (a bad backend on line 3 is found, not read as one comment)")
    func crlf() throws {
        let path = NSTemporaryDirectory() + "lamina-config-\(UUID().uuidString).toml"
        try "# kiosk\r\n[display]\r\nbackend = \"nope\"\r\nbackground = \"#zz\"\r\n".write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(throws: ConfigError.self) { try LaminaConfig.load(path: path, sceneNames: scenes) }
        do {
            _ = try LaminaConfig.load(path: path, sceneNames: scenes)
        } catch {
            #expect(error.line == 3 && error.field == "display.backend", "\(error)")
        }
        let good = NSTemporaryDirectory() + "lamina-config-\(UUID().uuidString).toml"
        try "[display]\r\nbackend = \"dummy\"\r\nrotation = 90\r\n".write(toFile: good, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: good) }
        let config = try LaminaConfig.load(path: good, sceneNames: scenes)
        #expect(config.backend == .dummy && config.rotation == 90)
    }

    @Test("a value with control characters or megabytes of text is echoed as one short line")
    func oneLineErrors() throws {
        let huge = String(repeating: "x", count: 1_000_000)
        for (text, field, reason) in [("[display]\nbackend = \"a\\nb\u{1B}[2J\"\n", "display.backend", "'a\\nb\\u{1B}[2J' is not one of"),
                                      ("[input]\nsource = \"\(huge)\"\n", "input.source", "longer than 4096 characters")] {
            let path = NSTemporaryDirectory() + "lamina-config-\(UUID().uuidString).toml"
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            defer { try? FileManager.default.removeItem(atPath: path) }
            do {
                _ = try LaminaConfig.load(path: path, sceneNames: scenes)
                Issue.record("accepted")
            } catch {
                let line = "\(error)"
                #expect(!line.contains("\n") && !line.contains("\u{1B}") && line.count < 400, "\(line.prefix(300))")
                #expect(line.contains(field) && line.contains(reason), "\(line.prefix(300))")
            }
        }
    }

    @Test("a bad colour and a syntax error")
    func colourAndSyntax() throws {
        do {
            let config = try LaminaConfig.load(path: fixture("bad-color.toml"), sceneNames: scenes)
            _ = try ElasticField.Settings(from: config.settings(forScene: "elastic-field"))
            Issue.record("accepted")
        } catch {
            #expect(error.field == "elastic_field.fill_color" && error.reason.contains("3, 6 or 8 hex digits"))
        }
        #expect(throws: ConfigError.self) { try LaminaConfig.load(path: fixture("bad-syntax.toml"), sceneNames: scenes) }
        do {
            _ = try LaminaConfig.load(path: "/nonexistent/lamina.toml", sceneNames: scenes)
        } catch {
            #expect(error.description == "/nonexistent/lamina.toml: cannot be read: no such file")
        }
    }

    @Test("a bad touch script names the file and the line")
    func badScript() {
        do {
            _ = try Daemon.loadTouchScript(path: fixture("bad.touch"))
            Issue.record("accepted")
        } catch {
            #expect(error.file == fixture("bad.touch") && error.line == 2)
            #expect(error.reason.contains("not a point"))
        }
    }
}
