import Foundation
import Lamina
@testable import LaminaSceneFiles
@testable import LaminaRuntime
import LaminaDisplay
import LaminaGeometry
import LaminaInput
import LaminaLayers
import LaminaScenes
import LaminaTestSupport
import Testing

/// The backlight through a fake sysfs folder in the kernel's file protocol, dimming after
/// idle and the daily schedule on the virtual clock (issue 16).
@Suite("Backlight, dimming and schedules")
struct BacklightTests {
    /// A folder like `/sys/class/backlight` with devices of the given types.
    static func sysfs(_ devices: [(name: String, type: String, max: Int)]) throws -> String {
        let root = try SceneFileFixture.folder()
        for device in devices {
            let folder = root + "/" + device.name
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            for (file, value) in [("type", device.type), ("max_brightness", "\(device.max)"), ("brightness", "\(device.max)"),
                                  ("actual_brightness", "\(device.max)"), ("bl_power", "0")] {
                try (value + "\n").write(toFile: folder + "/" + file, atomically: false, encoding: .utf8)
            }
        }
        return root
    }

    static func read(_ path: String) -> String {
        ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test("the device is found by the kernel's preference of type; levels map to raw values, 0 powers the light down")
    func device() throws {
        let root = try Self.sysfs([("acpi_video0", "firmware", 15), ("intel_backlight", "raw", 1200), ("pwm", "platform", 255)])
        defer { try? FileManager.default.removeItem(atPath: root) }
        let light = try #require(try Backlight.find(root: root))
        #expect(light.name == "acpi_video0")
        #expect(try Backlight.find(root: root, name: "intel_backlight")?.maxBrightness == 1200)
        #expect(throws: BacklightError.self) { try Backlight.find(root: root, name: "../etc") }
        #expect(light.raw(for: 0) == 0 && light.raw(for: 0.01) == 1 && light.raw(for: 0.5) == 8 && light.raw(for: 1) == 15)
        try light.set(0)
        #expect(Self.read(root + "/acpi_video0/brightness") == "0" && Self.read(root + "/acpi_video0/bl_power") == "4")
        try light.set(0.2)
        #expect(Self.read(root + "/acpi_video0/brightness") == "3" && Self.read(root + "/acpi_video0/bl_power") == "0")
        try "7\n".write(toFile: root + "/acpi_video0/actual_brightness", atomically: false, encoding: .utf8)
        #expect(abs(try light.level() - 7.0 / 15) < 1e-12)
        #expect(try Backlight.find(root: root + "/none") == nil)
    }

    /// A runtime with a full-screen layer counting taps, a fake backlight and `power`.
    private func rig(power: PowerSettings, blankAfter: Double?) throws -> (DummyDisplayRig, Runtime, CapturedLog, String, () -> Int) {
        let root = try Self.sysfs([("panel", "raw", 255)])
        let rig = try DummyDisplayRig(width: 64, height: 48, refresh: 60, start: 0)
        let log = CapturedLog()
        let runtime = rig.makeRuntime(log: log)
        runtime.blankAfter = blankAfter
        runtime.power = power
        runtime.backlight = try Backlight(path: root + "/panel")
        runtime.setBrightness(power.brightness)
        let button = Layer()
        button.frame = Rect(x: 0, y: 0, width: 64, height: 48)
        runtime.rootLayer.addSublayer(button)
        var taps = 0
        runtime.dispatcher.addGestureRecognizer(TapGestureRecognizer { r in if r.state == .ended { taps += 1 } }, to: button)
        return (rig, runtime, log, root + "/panel", { taps })
    }

    @Test("idle dims the light, then blanks it with the panel; a touch brings it back and is swallowed")
    func dimThenBlank() throws {
        var power = PowerSettings()
        power.brightness = 0.8
        power.dimAfter = 5
        power.dimLevel = 0.2
        let (rig, runtime, log, light, taps) = try rig(power: power, blankAfter: 10)
        defer { try? FileManager.default.removeItem(atPath: Paths.directory(of: light)) }
        #expect(Self.read(light + "/brightness") == "204")                    // 0.8 × 255
        runtime.addTouchSource(ScriptedTouchSource(script: try TouchScript(parsing: """
            at 6.0 tap 10,10
            at 7.0 tap 10,10
            at 30.0 tap 10,10
            at 31.0 tap 10,10
            """), start: 0))
        runtime.run(exitAfter: 5.5, untilSettled: false)
        #expect(Self.read(light + "/brightness") == "51" && !rig.display.isBlanked)   // dimmed to 0.2
        runtime.run(exitAfter: 1.2, untilSettled: false)
        #expect(Self.read(light + "/brightness") == "204" && taps() == 0)            // the touch restored it, swallowed
        runtime.run(exitAfter: 1.0, untilSettled: false)
        #expect(taps() == 1)
        runtime.run(exitAfter: 16, untilSettled: false)                              // dimmed at 12, blanked at 17
        #expect(rig.display.isBlanked && Self.read(light + "/brightness") == "0" && Self.read(light + "/bl_power") == "4")
        runtime.run(exitAfter: 8, untilSettled: false)                               // woken at 30, a tap at 31
        #expect(!rig.display.isBlanked && Self.read(light + "/brightness") == "204" && Self.read(light + "/bl_power") == "0")
        #expect(taps() == 2)
        #expect(log.count(containing: "backlight dimmed to 0.2 after 5 s without a touch") == 2)   // at 5 and at 12
    }

    @Test("the daily schedule turns the screen off at its start and on at its end; a touch between wakes it for a minute")
    func schedule() throws {
        var power = PowerSettings()
        power.scheduleOff = DailySchedule("22:00-22:10")
        let (rig, runtime, log, light, _) = try rig(power: power, blankAfter: nil)
        defer { try? FileManager.default.removeItem(atPath: Paths.directory(of: light)) }
        let start: Double = 21 * 3600 + 59 * 60 + 50                                // 21:59:50 at clock 0
        runtime.timeOfDay = { start + rig.clock.now }
        runtime.addTouchSource(ScriptedTouchSource(script: try TouchScript(parsing: "at 70 tap 10,10"), start: 0))
        runtime.run(exitAfter: 9.9, untilSettled: false)
        #expect(!rig.display.isBlanked)
        runtime.run(exitAfter: 0.2, untilSettled: false)                           // 22:00:00
        #expect(rig.display.isBlanked && Self.read(light + "/brightness") == "0")
        #expect(log.count(containing: "display blanked for the scheduled off time (22:00-22:10)") == 1)
        runtime.run(exitAfter: 60.5, untilSettled: false)                          // the touch at 22:01:00 wakes it
        #expect(!rig.display.isBlanked && Self.read(light + "/brightness") == "255")
        runtime.run(exitAfter: 59, untilSettled: false)                            // a minute without touches
        #expect(!rig.display.isBlanked)
        runtime.run(exitAfter: 1.5, untilSettled: false)
        #expect(rig.display.isBlanked)
        runtime.run(exitAfter: 480, untilSettled: false)                           // past 22:10
        #expect(!rig.display.isBlanked && Self.read(light + "/brightness") == "255")
        #expect(log.count(containing: "display woken at the end of the scheduled off time (22:00-22:10)") == 1)
    }

    @Test("with schedule_touch_wakes off a touch leaves the scheduled screen dark")
    func scheduleIgnoresTouch() throws {
        var power = PowerSettings()
        power.scheduleOff = DailySchedule("23:30-00:30")                           // across midnight
        power.scheduleTouchWakes = false
        let (rig, runtime, _, light, _) = try rig(power: power, blankAfter: nil)
        defer { try? FileManager.default.removeItem(atPath: Paths.directory(of: light)) }
        runtime.timeOfDay = { (23 * 3600 + 45 * 60 + rig.clock.now).truncatingRemainder(dividingBy: 86_400) }
        runtime.addTouchSource(ScriptedTouchSource(script: try TouchScript(parsing: "at 10 tap 10,10"), start: 0))
        runtime.run(exitAfter: 20, untilSettled: false)
        #expect(rig.display.isBlanked)
        runtime.run(exitAfter: 45 * 60, untilSettled: false)                       // 00:30 and past
        #expect(!rig.display.isBlanked)
    }

    @Test("schedules parse HH:MM-HH:MM, across midnight too; anything else is refused with its line")
    func scheduleParsing() throws {
        let overnight = try #require(DailySchedule("22:00-06:30"))
        #expect(overnight.contains(23 * 3600) && overnight.contains(3600) && !overnight.contains(12 * 3600))
        #expect(overnight.secondsToNextBoundary(from: 21 * 3600) == 3600)
        #expect(overnight.secondsToNextBoundary(from: 6 * 3600) == 1800)
        for bad in ["25:00-01:00", "22:00", "22:00-22:00", "7:00-08:00", "aa:bb-cc:dd"] { #expect(DailySchedule(bad) == nil, "\(bad)") }
        let folder = try SceneFileFixture.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try "[power]\nbrightness = 0.5\nschedule_off = \"24:00-06:00\"\n".write(toFile: folder + "/l.toml", atomically: true, encoding: .utf8)
        #expect(throws: ConfigError.self) { try LaminaConfig.load(path: folder + "/l.toml", sceneNames: ["elastic-field"]) }
        do {
            _ = try LaminaConfig.load(path: folder + "/l.toml", sceneNames: ["elastic-field"])
        } catch {
            #expect("\(error)".contains("l.toml:3: power.schedule_off"))
        }
    }
}

/// The screensaver scene (issue 16): after idle it replaces the scene; a touch brings the
/// scene back and is not delivered.
@Suite("Screensaver")
struct ScreensaverTests {
    @Test("the daemon shows the screensaver after screensaver_after idle seconds and the scene again on a touch")
    func screensaver() throws {
        let folder = try SceneFileFixture.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try "at 5.0 tap 960,540\nat 6.0 end\n".write(toFile: folder + "/demo.touch", atomically: true, encoding: .utf8)
        try """
            [display]
            backend = "dummy"
            clock = "virtual"
            console = "none"
            [run]
            scene = "property-animator"
            touch_script = "demo.touch"
            [power]
            screensaver = "spinner"
            screensaver_after = 2
            """.write(toFile: folder + "/lamina.toml", atomically: true, encoding: .utf8)
        var options = DaemonOptions()
        options.configPath = folder + "/lamina.toml"
        let log = CapturedLog()
        let summary = try Daemon.run(options, catalog: Gallery.registry, logger: log.logger())
        #expect(summary.stopReason == .timeLimit)
        #expect(log.count(containing: "screensaver after 2 s without a touch") == 1, "\(log.lines)")
        #expect(log.count(containing: "screensaver dismissed by a touch") == 1)
        var bad = options
        try "[power]\nscreensaver = \"nothing\"\n".write(toFile: folder + "/bad.toml", atomically: true, encoding: .utf8)
        bad.configPath = folder + "/bad.toml"
        #expect(throws: ConfigError.self) { try Daemon.run(bad, catalog: Gallery.registry, logger: log.logger()) }
    }
}
