import LaminaSystem
import FoundationEssentials
import LaminaDisplay
import LaminaGeometry
import LaminaInput

/// Which display backend to run on.
public enum BackendChoice: String, Sendable, CaseIterable {
    /// A DRM card when one can be opened, else the framebuffer device, else the dummy
    /// display (and say so).
    case auto
    /// A DRM card; failing to open one is an error.
    case drm
    /// The Linux framebuffer device (`display.fbdev`), for boards without KMS.
    case fbdev
    /// The in-memory KMS device: no display needed.
    case dummy
}

/// How the dummy display's vblanks are paced.
public enum ClockChoice: String, Sendable, CaseIterable {
    /// Real time: vblanks at the mode's rate on `CLOCK_MONOTONIC`.
    case realtime
    /// A virtual clock that jumps from event to event: as fast as the CPU allows.
    case virtual
}

/// The daemon's configuration: `configs/lamina.toml` documents every field.
public struct LaminaConfig {
    /// The file it came from (nil for built-in defaults).
    public var path: String?
    /// Which display device to drive (`[display] backend`).
    public var backend = BackendChoice.auto
    /// Connector name such as `HDMI-A-1`; nil picks the first connected one.
    public var connector: String?
    /// Which of the connector's modes to drive: `preferred`, `WxH` or `WxH@Hz`.
    public var mode = ModeRequest.preferred
    /// Scanout format: XRGB8888, or RGB565 for 16-bit panels.
    public var format = PixelFormat.xrgb8888
    /// The VT to mute while Lamina owns the screen: `auto` (standard input when it is a
    /// VT, as under systemd's `TTYPath=`), a path such as `/dev/tty1`, or `none`.
    public var console = "auto"
    /// How the dummy display is paced: real time, or a virtual clock that jumps (`[display] clock`).
    public var clock = ClockChoice.realtime
    /// The dummy display's mode.
    public var dummyMode = KMSMode.cea1080p60
    /// The colour behind the root layer (`[display] background`).
    public var background = Color(red8: 0x0F, green8: 0x11, blue8: 0x15)
    /// Clockwise rotation of the picture on the panel: 0, 90, 180 or 270 degrees.
    public var rotation = 0
    /// The framebuffer device for `backend = fbdev` (and `auto` without a DRM card).
    public var fbdevPath = "/dev/fb0"
    /// Page flips through legacy `drmModePageFlip` even where the driver takes atomic
    /// commits (`page_flips = "legacy"`).
    public var legacyPageFlips = false
    /// Whether video may go on the display's overlay plane (`overlay_planes`, default true;
    /// decision 146).
    public var overlayPlanes = true
    /// Seconds without a touch before the panel is blanked (DPMS off) until touched; nil
    /// (`0` in the file) never blanks.
    public var blankAfter: Double?
    /// Seconds `auto` and `drm` wait at start for a DRM card that is missing or cannot be
    /// opened yet (udev still loading the driver or setting the node's group at boot); nil
    /// (`auto` in the file) is `serviceDeviceWait` under systemd and none elsewhere.
    public var deviceWait: Double?
    /// How long `device_wait = "auto"` waits when systemd started the daemon.
    public static let serviceDeviceWait = 10.0
    /// The seconds to wait for a DRM card: `deviceWait`, or for `auto` `serviceDeviceWait`
    /// when `environment` is a systemd service's (`INVOCATION_ID` set) and 0 elsewhere, where
    /// a missing card means a machine without a display.
    public func deviceWaitSeconds(environment: [String: String]) -> Double {
        if let deviceWait { return deviceWait }
        return environment["INVOCATION_ID"].map { !$0.isEmpty } == true ? Self.serviceDeviceWait : 0
    }
    /// Whether frames start as late before the vblank as drawing allows: nil (`auto`) on a
    /// real-time clock and off on a virtual one.
    public var repaintWindow: Bool?
    /// The scene to run; empty until a config or the app's scene list decides (the app's
    /// first scene by default).
    public var scene = ""
    /// A scene file to run instead of a built-in scene (`[run] scene` or `--scene` naming a
    /// `.yaml` file or a path; resolved against the config file's folder). `scene` is then
    /// `SceneFiles.sceneName`.
    public var sceneFile: String?
    /// `[bindings]`: values for the scene file's bindings, replacing the file's own.
    public var bindings: SettingsTable?
    /// `[power] backlight`: `auto` (the preferred device in `/sys/class/backlight` on a real
    /// display; none on the dummy), `none`, a device's name, or a device folder's absolute path.
    public var backlight = "auto"
    /// `[power]`: brightness, dimming after idle and the daily off time.
    public var power = PowerSettings()
    /// `[power] screensaver`: the scene shown after `power.screensaverAfter` idle seconds (a
    /// built-in scene's name or a scene file, resolved against the config's folder); nil none.
    public var screensaver: String?

    /// `[control] socket`: the control socket's path (`docs/control.md`); `auto` (the
    /// default) is `$RUNTIME_DIRECTORY/control` under systemd (`RuntimeDirectory=lamina`:
    /// `/run/lamina/control`) and none elsewhere; `none` turns it off.
    public var controlSocket = "auto"
    /// `[control] group`: the group whose members may use the socket besides root and the
    /// daemon's own user (`lamina`; a group that does not exist leaves only those two).
    public var controlGroup = "lamina"
    /// `[video] audio_device`: where an unmuted video's sound goes (`auto` by default).
    public var audioDevice = AudioDevice.automatic

    /// The control socket's path for this run, given the environment: nil when off.
    public func controlSocketPath(environment: [String: String]) -> String? {
        switch controlSocket {
        case "none", "": return nil
        case "auto":
            guard let folder = environment["RUNTIME_DIRECTORY"]?.split(separator: ":").first, !folder.isEmpty else { return nil }
            return Paths.joined(String(folder), "control")
        default: return controlSocket
        }
    }
    /// A touch script to replay (resolved against the config file's directory).
    public var touchScript: String?

    /// What runs, for the log: the scene's name or the scene file's path.
    public var sceneDescription: String { sceneFile ?? scene }

    /// The name `{scene}` stands for in `touch_script`: the scene's, or the scene file's name
    /// without its folder and extension.
    public var sceneStem: String {
        guard let sceneFile else { return scene }
        let name = sceneFile.split(separator: "/").last.map(String.init) ?? sceneFile
        return name.split(separator: ".", omittingEmptySubsequences: false).dropLast().joined(separator: ".")
    }

    /// The touch script for `scene`: `touchScript` with `{scene}` replaced by the scene's name
    /// (so one config gives each scene its own demo touches, `demo/{scene}.touch`).
    public func touchScript(forScene scene: String) -> String? {
        touchScript?.replacing("{scene}", with: scene)
    }
    /// Stop after this many seconds; nil runs until the script is done and everything has
    /// settled (dummy backend) or forever (a real display).
    public var exitAfter: Double?
    /// `[run] language`: the language strings are shown in (nil: as written).
    public var language: String?
    /// `[run] translations`: the folder of the program's own catalogs (`de.mo`...).
    public var translations: String?
    /// Where touches come from: `auto` reads libinput on a real display (not on the dummy),
    /// `libinput` always, `none` never.
    public var inputSource = "auto"
    /// The libinput seat (udev backend) when `inputDevices` is empty.
    public var inputSeat = "seat0"
    /// Device nodes for libinput's path backend (no hotplug); empty uses the seat.
    public var inputDevices: [String] = []
    /// A touch calibration matrix, libinput's convention (`LIBINPUT_CALIBRATION_MATRIX`):
    /// six numbers a b c d e f mapping normalised x, y to (ax + by + c, dx + ey + f).
    public var calibration: [Float]?
    /// The xkb keyboard layout (`us`, `de`, `fr`…), variant and options for text entry.
    public var keyboardLayout = "us"
    /// The xkb layout variant (`[input] keyboard_variant`); empty for the layout's default.
    public var keyboardVariant = ""
    /// xkb options such as `ctrl:nocaps` (`[input] keyboard_options`); empty for none.
    public var keyboardOptions = ""
    /// Key repeat: seconds before the first repeat, repeats per second.
    public var repeatDelay = 0.6
    /// Key repeats per second once repeating (`[input] repeat_rate`).
    public var repeatRate = 25.0
    /// Whether a keyboard slides up when a text field takes focus (`[input]
    /// on_screen_keyboard`); off for kiosks with a real keyboard.
    public var onScreenKeyboard = true
    /// When the pointer of a mouse or trackball is drawn (`[input] cursor`).
    public var cursor = CursorMode.auto
    /// Seconds without pointer motion before an `auto` pointer hides (`[input] cursor_hide_after`).
    public var cursorHideAfter = 3.0
    /// Per-scene tables, by scene name, for the scene to read.
    public var sceneTables: [String: SettingsTable] = [:]

    /// The defaults, as with an empty configuration file.
    public init() {}

    /// Reads and validates `path`. `sceneNames` are the scenes whose `[scene-name]` tables
    /// (with `-` written `_`) are allowed; the first is the default scene.
    public static func load(path: String, sceneNames: [String]) throws(ConfigError) -> LaminaConfig {
        let text: String
        do {
            text = try InputFile.text(atPath: path)
        } catch {
            throw ConfigError(file: path, reason: "cannot be read: \(error)")
        }
        let document: TOMLDocument
        do {
            document = try TOMLDocument(parsing: text)
        } catch {
            throw ConfigError(file: path, line: error.line, reason: error.reason)
        }
        var config = LaminaConfig()
        config.path = path
        config.scene = sceneNames.first ?? ""
        let directory = Paths.directory(of: path)
        let sceneTableNames = Dictionary(uniqueKeysWithValues: sceneNames.map { ($0.replacing("-", with: "_"), $0) })

        for (name, entries) in document.tables where !entries.isEmpty || !name.isEmpty {
            let table = SettingsTable(file: path, name: name, entries: entries)
            switch name {
            case "display":
                config.backend = BackendChoice(rawValue: try table.choice(
                    "backend", default: config.backend.rawValue, allowed: BackendChoice.allCases.map(\.rawValue)))!
                let connector = try table.string("connector", default: "")
                config.connector = connector.isEmpty ? nil : connector
                let modeRequest = try table.string("mode", default: "preferred")
                guard let request = ModeRequest(modeRequest) else {
                    throw ConfigError(file: path, field: "display.mode", line: entries["mode"]?.line,
                                      reason: "'\(Escaped(modeRequest))' is not preferred, WIDTHxHEIGHT or WIDTHxHEIGHT@HZ")
                }
                config.mode = request
                config.console = try table.string("console", default: "auto")
                guard ["auto", "none"].contains(config.console) || config.console.hasPrefix("/dev/") else {
                    throw ConfigError(file: path, field: "display.console", line: entries["console"]?.line,
                                      reason: "'\(Escaped(config.console))' is not auto, none or a /dev path")
                }
                config.format = PixelFormat(rawValue: try table.choice(
                    "format", default: config.format.rawValue, allowed: ["xrgb8888", "rgb565"]))!
                config.clock = ClockChoice(rawValue: try table.choice(
                    "clock", default: config.clock.rawValue, allowed: ClockChoice.allCases.map(\.rawValue)))!
                let modeText = try table.string("dummy_mode", default: "1920x1080@60")
                guard let mode = Self.parseMode(modeText) else {
                    throw ConfigError(file: path, field: "display.dummy_mode", line: entries["dummy_mode"]?.line,
                                      reason: "'\(Escaped(modeText))' is not WIDTHxHEIGHT@HZ (16…7680 x 16…4320 @ 1…240)")
                }
                config.dummyMode = mode
                config.background = try table.color("background", default: config.background)
                let rotation = try table.number("rotation", default: 0, in: 0...270)
                guard [0.0, 90, 180, 270].contains(rotation) else {
                    throw ConfigError(file: path, field: "display.rotation", line: entries["rotation"]?.line,
                                      reason: "\(rotation) is not 0, 90, 180 or 270")
                }
                config.rotation = Int(rotation)
                config.fbdevPath = try table.string("fbdev", default: config.fbdevPath)
                guard config.fbdevPath.hasPrefix("/dev/") else {
                    throw ConfigError(file: path, field: "display.fbdev", line: entries["fbdev"]?.line,
                                      reason: "'\(Escaped(config.fbdevPath))' is not a /dev path")
                }
                config.legacyPageFlips = try table.choice("page_flips", default: "auto", allowed: ["auto", "legacy"]) == "legacy"
                config.overlayPlanes = try table.bool("overlay_planes", default: true)
                let blankAfter = try table.number("blank_after", default: 0, in: 0...86_400)
                config.blankAfter = blankAfter > 0 ? blankAfter : nil
                config.deviceWait = try table.numberOrAuto("device_wait", in: 0...300)
                let window = try table.choice("repaint_window", default: "auto", allowed: ["auto", "on", "off"])
                config.repaintWindow = window == "auto" ? nil : window == "on"
                try table.rejectUnknownKeys()
            case "input":
                config.inputSource = try table.choice("source", default: "auto", allowed: ["auto", "libinput", "none"])
                config.inputSeat = try table.string("seat", default: "seat0")
                let devices = try table.string("devices", default: "")
                config.inputDevices = devices.split(separator: ",").map { $0.trimmed() }.filter { !$0.isEmpty }
                if let bad = config.inputDevices.first(where: { !$0.hasPrefix("/dev/") }) {
                    throw ConfigError(file: path, field: "input.devices", line: entries["devices"]?.line,
                                      reason: "'\(Escaped(bad))' is not a /dev path")
                }
                let matrix = try table.string("calibration", default: "")
                if !matrix.isEmpty {
                    let numbers = matrix.split(whereSeparator: { $0 == " " || $0 == "," }).compactMap { Float($0) }
                        .filter { $0.isFinite && abs($0) <= 1000 }
                    guard numbers.count == 6, matrix.split(whereSeparator: { $0 == " " || $0 == "," }).count == 6 else {
                        throw ConfigError(file: path, field: "input.calibration", line: entries["calibration"]?.line,
                                          reason: "'\(Escaped(matrix))' is not six finite numbers a b c d e f (each within ±1000)")
                    }
                    config.calibration = numbers
                }
                config.keyboardLayout = try table.string("keyboard_layout", default: config.keyboardLayout)
                config.keyboardVariant = try table.string("keyboard_variant", default: "")
                config.keyboardOptions = try table.string("keyboard_options", default: "")
                config.repeatDelay = try table.number("repeat_delay", default: config.repeatDelay, in: 0.1...5)
                config.repeatRate = try table.number("repeat_rate", default: config.repeatRate, in: 1...100)
                config.onScreenKeyboard = try table.bool("on_screen_keyboard", default: config.onScreenKeyboard)
                config.cursor = CursorMode(rawValue: try table.choice("cursor", default: config.cursor.rawValue,
                                                                       allowed: CursorMode.allCases.map(\.rawValue)))!
                config.cursorHideAfter = try table.number("cursor_hide_after", default: config.cursorHideAfter, in: 0.5...3600)
                // Blame the first setting that makes the keymap fail: the layout alone, then
                // with the variant, then with the options.
                let attempts: [(key: String, variant: String, options: String)] = [
                    ("keyboard_layout", "", ""), ("keyboard_variant", config.keyboardVariant, ""),
                    ("keyboard_options", config.keyboardVariant, config.keyboardOptions)]
                for attempt in attempts where attempt.key == "keyboard_layout" || entries[attempt.key] != nil {
                    do {
                        _ = try Keyboard(layout: config.keyboardLayout, variant: attempt.variant, options: attempt.options)
                    } catch {
                        let reason = switch attempt.key {
                        case "keyboard_layout": "xkb has no keymap for layout '\(Escaped(config.keyboardLayout))'"
                        case "keyboard_variant": "xkb has no variant '\(Escaped(config.keyboardVariant))' of layout '\(Escaped(config.keyboardLayout))'"
                        default: "xkb cannot apply the options '\(Escaped(config.keyboardOptions))'"
                        }
                        throw ConfigError(file: path, field: "input.\(attempt.key)",
                                          line: entries[attempt.key]?.line ?? entries["keyboard_layout"]?.line, reason: reason)
                    }
                }
                try table.rejectUnknownKeys()
            case "run":
                let scene = try table.string("scene", default: config.scene, maxLength: 4096)
                if SceneFiles.isFile(scene) {
                    config.sceneFile = scene.hasPrefix("/") ? scene : Paths.joined(directory, scene)
                    config.scene = SceneFiles.sceneName
                } else {
                    config.scene = try table.choice("scene", default: config.scene, allowed: sceneNames)
                }
                let script = try table.string("touch_script", default: "")
                if !script.isEmpty {
                    config.touchScript = script.hasPrefix("/") ? script : Paths.joined(directory, script)
                }
                let exitAfter = try table.number("exit_after", default: 0, in: 0...86_400 * 365)
                config.exitAfter = exitAfter > 0 ? exitAfter : nil
                let language = try table.string("language", default: "", maxLength: 64)
                if !language.isEmpty {
                    guard Translations.isLanguageTag(language) else {
                        throw ConfigError(file: path, field: "run.language", line: entries["language"]?.line,
                                          reason: "'\(Escaped(language))' is not a language tag (de, pt_BR: ASCII letters, digits and _-.@)")
                    }
                    config.language = language
                }
                let translations = try table.string("translations", default: "", maxLength: 4096)
                if !translations.isEmpty {
                    let folder = translations.hasPrefix("/") ? translations : Paths.joined(directory, translations)
                    guard Paths.isDirectory(folder) == true else {
                        throw ConfigError(file: path, field: "run.translations", line: entries["translations"]?.line,
                                          reason: "'\(Escaped(translations))' is not a folder")
                    }
                    // The language's catalog is read now, so a bad one is refused with its line.
                    do { try Translations(folder: folder).use(language: config.language) } catch {
                        throw ConfigError(file: path, field: "run.translations", line: entries["translations"]?.line, reason: "\(error)")
                    }
                    config.translations = folder
                }
                try table.rejectUnknownKeys()
            case "bindings":
                config.bindings = table
            case "power":
                config.backlight = try table.string("backlight", default: config.backlight, maxLength: 4096)
                config.power.brightness = try table.number("brightness", default: 1, in: 0.05...1)
                let dimAfter = try table.number("dim_after", default: 0, in: 0...86_400)
                config.power.dimAfter = dimAfter > 0 ? dimAfter : nil
                config.power.dimLevel = try table.number("dim_level", default: 0.2, in: 0...1)
                let schedule = try table.string("schedule_off", default: "", maxLength: 32)
                if !schedule.isEmpty {
                    guard let parsed = DailySchedule(schedule) else {
                        throw ConfigError(file: path, field: "power.schedule_off", line: entries["schedule_off"]?.line,
                                          reason: "'\(Escaped(schedule))' is not a daily span HH:MM-HH:MM (local time, e.g. 22:00-06:30)")
                    }
                    config.power.scheduleOff = parsed
                }
                config.power.scheduleTouchWakes = try table.bool("schedule_touch_wakes", default: true)
                let saver = try table.string("screensaver", default: "", maxLength: 4096)
                if SceneFiles.isFile(saver) {
                    config.screensaver = saver.hasPrefix("/") ? saver : Paths.joined(directory, saver)
                } else if !saver.isEmpty {
                    config.screensaver = try table.choice("screensaver", default: "", allowed: sceneNames)
                }
                let saverAfter = try table.number("screensaver_after", default: 0, in: 0...86_400)
                config.power.screensaverAfter = saverAfter > 0 && config.screensaver != nil ? saverAfter : nil
                try table.rejectUnknownKeys()
            case "control":
                let socket = try table.string("socket", default: config.controlSocket, maxLength: UnixSocket.maximumPathLength)
                guard ["auto", "none", ""].contains(socket) || socket.hasPrefix("/") else {
                    throw ConfigError(file: path, field: "control.socket", line: entries["socket"]?.line,
                                      reason: "'\(Escaped(socket))' is not auto, none or an absolute path")
                }
                config.controlSocket = socket
                config.controlGroup = try table.string("group", default: config.controlGroup, maxLength: 64)
                try table.rejectUnknownKeys()
            case "video":
                let device = try table.string("audio_device", default: config.audioDevice.description, maxLength: 80)
                guard let parsed = AudioDevice(device) else {
                    throw ConfigError(file: path, field: "video.audio_device", line: entries["audio_device"]?.line,
                                      reason: "'\(Escaped(device))' is not auto, pulse, pipewire, alsa or alsa:DEVICE "
                                          + "(an ALSA name of at most \(AudioDevice.maximumNameLength) letters, digits and _-.,:=)")
                }
                config.audioDevice = parsed
                try table.rejectUnknownKeys()
            case "":
                if let key = entries.keys.sorted().first {
                    throw ConfigError(file: path, field: key, line: entries[key]?.line,
                                      reason: "unknown field (fields belong in a [table])")
                }
            default:
                guard let scene = sceneTableNames[name] else {
                    throw ConfigError(file: path, field: "[\(name)]", line: document.tableLines[name],
                                      reason: "unknown table (known: display, input, run, power, video, bindings, control, \(sceneTableNames.keys.sorted().joined(separator: ", ")))")
                }
                config.sceneTables[scene] = table
            }
        }
        return config
    }

    /// The settings table for `scene` (empty when the file has none).
    public func settings(forScene scene: String) -> SettingsTable {
        sceneTables[scene] ?? SettingsTable(file: path ?? "<defaults>", name: scene.replacing("-", with: "_"), entries: [:])
    }

    /// `WIDTHxHEIGHT@HZ` → a mode. 1920x1080@60 is CEA-861's exact 60 Hz timing; other sizes
    /// get a reduced-blanking style timing whose pixel clock gives the asked-for rate.
    public static func parseMode(_ text: String) -> KMSMode? {
        let parts = text.split(separator: "@")
        guard parts.count == 2, let hz = Double(parts[1]), (1...240).contains(hz) else { return nil }
        let size = parts[0].split(separator: "x")
        guard size.count == 2, let w = Int(size[0]), let h = Int(size[1]),
              (16...7680).contains(w), (16...4320).contains(h) else { return nil }
        if w == 1920 && h == 1080 && hz == 60 { return .cea1080p60 }
        let htotal = w + 160, vtotal = h + 30
        let clock = Int((hz * Double(htotal * vtotal) / 1000).rounded())
        return KMSMode(name: "\(w)x\(h)", width: w, height: h, clock: clock, htotal: htotal, vtotal: vtotal, isPreferred: true)
    }
}
