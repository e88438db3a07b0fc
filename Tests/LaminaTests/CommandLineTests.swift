import Foundation
import Lamina
@testable import LaminaSceneFiles
@testable import LaminaRuntime
import LaminaScenes
import Testing

/// The `lamina` binary end to end: exit statuses and messages a user sees.
@Suite("lamina command line")
struct CommandLineTests {
    /// The `lamina` executable next to the test bundle in the build directory.
    static var executable: URL {
        var dir = Bundle.module.bundleURL
        while dir.path != "/" {
            let candidate = dir.appendingPathComponent("lamina")
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isDirectory), !isDirectory.boolValue {
                return candidate
            }
            dir.deleteLastPathComponent()
        }
        return URL(fileURLWithPath: "/nonexistent/lamina")
    }

    /// Runs the binary and returns its status with one of its streams (the other discarded).
    func launch(_ arguments: [String], capturing stdout: Bool) throws -> (status: Int32, text: String) {
        let process = Process()
        process.executableURL = Self.executable
        process.arguments = arguments
        let pipe = Pipe()
        if stdout {
            process.standardOutput = pipe
            process.standardError = FileHandle.nullDevice
        } else {
            process.standardError = pipe
            process.standardOutput = FileHandle.nullDevice
        }
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    func run(_ arguments: [String]) throws -> (status: Int32, stderr: String) {
        let result = try launch(arguments, capturing: false)
        return (result.status, result.text)
    }

    @Test("lamina scenes lists every built-in scene with its line, and says how a scene file runs")
    func scenesCommand() throws {
        let result = try launch(["scenes"], capturing: true)
        #expect(result.status == 0)
        let lines = result.text.split(separator: "\n")
        for scene in Gallery.registry.scenes {
            #expect(lines.contains { $0.hasPrefix(scene.name + " ") && $0.hasSuffix(scene.summary) }, "\(scene.name)")
        }
        #expect(result.text.contains("--scene FILE.yaml"))
    }

    @Test("lamina calibrate on the dummy: five scripted touches from a miswired panel print each residual and the matrix, and set [input] calibration; touches that stop short exit 1")
    func calibrateCommand() throws {
        let folder = NSTemporaryDirectory() + "lamina-calibrate-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let config = folder + "/lamina.toml", script = folder + "/touches.touch"
        try "[run]\nscene = \"spinner\"\n".write(toFile: config, atomically: true, encoding: .utf8)
        // The dummy's 1920x1080 panel with its axes swapped: the device reads (y, x) scaled
        // back onto the panel, so a target at panel (x, y) is read at (1920·y/1080, 1080·x/1920).
        let targets = [(240.0, 135.0), (1680, 135), (1680, 945), (240, 945), (960, 540)]
        let lines = targets.enumerated().map { i, t in "at \(0.5 + Double(i) * 0.6) tap \(1920 * t.1 / 1080),\(1080 * t.0 / 1920)" }
        try lines.joined(separator: "\n").write(toFile: script, atomically: true, encoding: .utf8)
        let arguments = ["calibrate", "--config", config, "--backend", "dummy", "--clock", "virtual", "--touch-script", script]
        let result = try launch(arguments, capturing: true)
        #expect(result.status == 0, "\(result.text)")
        #expect(result.text.contains("target 1 at 240,135 px: 0.00 px off"))
        #expect(result.text.contains("check point at 960,540 px: 0.00 px off"))
        #expect(result.text.contains("matrix: 0.000000 1.000000 0.000000 1.000000 0.000000 0.000000"), "\(result.text)")
        let written = try String(contentsOfFile: config, encoding: .utf8)
        #expect(written == "[run]\nscene = \"spinner\"\n\n[input]\ncalibration = \"0.000000 1.000000 0.000000 1.000000 0.000000 0.000000\"  # lamina calibrate\n")
        #expect(try run(["check-config", config]).status == 0)

        let udev = try launch(arguments + ["--udev"], capturing: true)
        #expect(udev.status == 0 && udev.text.contains("ENV{LIBINPUT_CALIBRATION_MATRIX}=\"0.000000 1.000000"))
        #expect(try String(contentsOfFile: config, encoding: .utf8) == written)

        try lines.prefix(2).joined(separator: "\n").write(toFile: script, atomically: true, encoding: .utf8)
        let short = try run(arguments)
        #expect(short.status == 1)
        #expect(short.stderr.contains("lamina: not calibrated: the touches ended after 2 of 5 targets"), "\(short.stderr)")
        #expect(try run(["calibrate", "--max-error", "0"]).status == 64)
    }

    @Test("--scene with a scene file that does not check out exits 78 with file:line:column")
    func badSceneFile() throws {
        let path = NSTemporaryDirectory() + "lamina-cli-\(UUID().uuidString.prefix(8)).yaml"
        try "lamina: 1\nlayers:\n  - {opacity: lots}\n".write(toFile: path, atomically: true, encoding: .utf8)
        defer { unlink(path) }
        let result = try run(["run", "--scene", path, "--backend", "dummy"])
        #expect(result.status == 78)
        #expect(result.stderr.contains("\(path):3:15: layers[0].opacity: 'lots' is not a number"), "\(result.stderr)")
    }

    @Test("a bad config exits 78 naming the file, the line, the field and the reason")
    func badConfig() throws {
        let path = fixture("bad-field.toml")
        let result = try run(["run", "--config", path])
        #expect(result.status == 78)
        #expect(result.stderr.contains("\(path):5: elastic_field.fill_colour: unknown field"), "\(result.stderr)")
    }

    @Test("check-config: the shipped config is ok (exit 0); a bad scene setting exits 78 naming file, line and field, without running")
    func checkConfig() throws {
        let shipped = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("configs/lamina.toml").path
        let good = try output(["check-config", shipped])
        #expect(good.status == 0 && good.stdout.contains("ok (backend auto, scene elastic-field)"), "\(good.stdout)")
        let bad = try run(["check-config", fixture("bad-field.toml")])
        #expect(bad.status == 78)
        #expect(bad.stderr.contains("bad-field.toml:5: elastic_field.fill_colour: unknown field"), "\(bad.stderr)")
    }

    @Test("check-config FILE.yaml checks the scene file itself; run --check-config --scene checks that scene (issue 30)")
    func checkSceneFiles() throws {
        let folder = NSTemporaryDirectory() + "lamina-check-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let good = folder + "/good.yaml", broken = folder + "/broken.yaml"
        try "lamina: 1\nlayers:\n  - {bounds: [0, 0, 10, 10], backgroundColor: \"#FF0000\"}\n".write(toFile: good, atomically: true, encoding: .utf8)
        try "lamina: 1\nlayers:\n  - kind: shape\n    fillColor: #22D3EE\n".write(toFile: broken, atomically: true, encoding: .utf8)
        let ok = try output(["check-config", good])
        #expect(ok.status == 0 && ok.stdout.contains("good.yaml: ok (a scene file of 1 layers)"), "\(ok.stdout)")
        let bad = try run(["check-config", broken])
        #expect(bad.status == 78)
        #expect(bad.stderr.contains("broken.yaml:4:") && bad.stderr.contains("YAML comment"), "\(bad.stderr)")
        try "[display]\nbackend = \"dummy\"\n".write(toFile: folder + "/lamina.toml", atomically: true, encoding: .utf8)
        let viaRun = try run(["run", "--check-config", "--config", folder + "/lamina.toml", "--scene", broken])
        #expect(viaRun.status == 78 && viaRun.stderr.contains("broken.yaml:4:"), "\(viaRun.stderr)")
        let unknown = try run(["run", "--check-config", "--scene", "no-such-scene"])
        #expect(unknown.status == 78 && unknown.stderr.contains("no scene named 'no-such-scene'"), "\(unknown.stderr)")
    }

    @Test("a bad touch script exits 78 naming the script and the line")
    func badScript() throws {
        let result = try run(["run", "--config", fixture("bad-script.toml")])
        #expect(result.status == 78)
        #expect(result.stderr.contains("bad.touch:2: line 2:"), "\(result.stderr)")
    }

    @Test("backend fbdev without the framebuffer device exits 69 naming it")
    func fbdevMissing() throws {
        let path = NSTemporaryDirectory() + "lamina-fbdev-\(UUID().uuidString).toml"
        try "[display]\nbackend = \"fbdev\"\nfbdev = \"/dev/lamina-no-fb\"\n".write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try run(["run", "--config", path])
        #expect(result.status == 69)
        #expect(result.stderr.contains("no usable framebuffer device: open failed: errno 2, No such file or directory (/dev/lamina-no-fb)"), "\(result.stderr)")
    }

    @Test("auto with no DRM card and no framebuffer device falls back to the dummy display and says why",
          .enabled(if: !FileManager.default.fileExists(atPath: "/dev/dri"), "this machine has /dev/dri"))
    func autoFallsBack() throws {
        let path = NSTemporaryDirectory() + "lamina-auto-\(UUID().uuidString).toml"
        try "[display]\nbackend = \"auto\"\nfbdev = \"/dev/lamina-no-fb\"\nclock = \"virtual\"\n[run]\nexit_after = 0.5\n"
            .write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try run(["run", "--config", path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("trying the framebuffer device /dev/lamina-no-fb"))
        #expect(result.stderr.contains("no usable framebuffer device: open failed: errno 2, No such file or directory (/dev/lamina-no-fb); using the dummy display"))
    }

    @Test("the dummy run taps the field, writes frames and a contact sheet, and ends settled")
    func dummyRun() throws {
        let out = NSTemporaryDirectory() + "lamina-frames-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: out) }
        let result = try run(["run", "--config", fixture("good.toml"), "--frames-out", out])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("stopped (settled)"))
        let files = try FileManager.default.contentsOfDirectory(atPath: out)
        #expect(files.contains("contact-sheet.png"))
        #expect(files.filter { $0.hasPrefix("frame-") }.count > 30)
    }

    func output(_ arguments: [String]) throws -> (status: Int32, stdout: String) {
        let result = try launch(arguments, capturing: true)
        return (result.status, result.text)
    }

    @Test("lamina curve basic prints rule 8's autoreverse row; bad parameters exit 64 with a reason")
    func curve() throws {
        let result = try output(["curve", "basic", "--from", "0", "--to", "1", "--model", "0.5", "--duration", "1",
                                 "--autoreverses", "--removed-on-completion", "false", "--at", "0.5,1.2,2.1", "--json"])
        #expect(result.status == 0)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let values = try #require(json["samples"] as? [[String: Double]]).compactMap { $0["value"] }
        #expect(values.count == 3)
        for (value, expected) in zip(values, [0.5, 0.8, 0.5]) { #expect(abs(value - expected) < 1e-9) }
        let bad = try run(["curve", "timing", "--bezier", "2,0,1,1"])
        #expect(bad.status == 64)
        #expect(bad.stderr.contains("x1 and x2 must lie in [0, 1]"), "\(bad.stderr)")
        let spring = try output(["curve", "spring", "--samples", "2"])
        #expect(spring.stdout.contains("settlingDuration = 1.4727003346780927"))   // rule 29's default spring
    }
}
