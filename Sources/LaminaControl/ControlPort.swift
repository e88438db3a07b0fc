import FoundationEssentials
import LaminaDisplay
import LaminaGeometry
import LaminaRaster
import LaminaRuntime
import LaminaSystem
import Logging
import SystemPackage

/// The control socket (`docs/control.md`): its server, the screenshots encoded off the loop,
/// and the commands, carried out between two frames. Serviced right after the loop's wait;
/// a reply the socket would not take yet, requests left for the next turn and an idle
/// client's time running out are its deadlines.
final class ControlPort: LoopSource {
    /// What the port is registered on the loop under.
    static let key = "control-socket"

    private unowned let runtime: Runtime
    /// The socket's server, when one is open.
    private(set) var server: ControlServer?
    /// Encodes screenshots off the loop (real time only).
    private var screenshots: ScreenshotWriter?
    /// The last `stats` reply and when it was worked out (replies are at most 0.1 s old).
    private var statsCache: (time: Double, value: ControlValue)?

    init(runtime: Runtime) {
        self.runtime = runtime
    }

    private var clock: MonotonicClock { runtime.clock }
    private var display: Display { runtime.display }

    /// Opens the control socket at `path` (mode 0660; root, this user and `group`'s members
    /// may connect). A socket left there by an earlier run is replaced.
    func open(path: String, group: UInt32?) throws(Errno) {
        server = try ControlServer(path: path, group: group, logger: runtime.logger)
        screenshots = try ScreenshotWriter()
        runtime.logger.info("control socket \(path) (protocol \(ControlServer.protocolVersion))")
    }

    /// Closes the control socket and removes its file.
    func close() {
        screenshots?.waitUntilIdle()
        screenshots = nil
        server = nil
    }

    /// Sends an event (`state`, `gesture`, `control`, `display`, `scene`) to the clients subscribed to it.
    func publish(_ kind: String, _ fields: [String: ControlValue]) {
        server?.publish(kind, fields)
    }

    // MARK: The loop

    let phase = LoopPhase.woken

    var wakeDescriptors: [FileDescriptor] {
        guard let server else { return [] }
        var descriptors = server.descriptors.map(FileDescriptor.init(rawValue:))
        if let screenshots { descriptors.append(FileDescriptor(rawValue: screenshots.wakeup.descriptor)) }
        return descriptors
    }

    func nextDeadline(now: Double) -> Double? {
        guard let server else { return nil }
        // Requests left for the next turn (the per-turn budget): come back at once.
        if server.hasPendingInput { return now }
        var deadline: Double?
        // A reply the socket would not take yet: try again soon (the loop polls for input only).
        if server.hasPendingOutput && runtime.loop.isRealTime { deadline = now + 0.02 }
        // An idle client's time runs out (in real time; a virtual clock checks at each turn).
        if runtime.loop.isRealTime, let idle = server.nextIdleDeadline { deadline = min(deadline ?? .infinity, idle) }
        return deadline
    }

    /// Answers what clients sent.
    func service(now: Double) -> Bool {
        guard let server else { return false }
        for shot in screenshots?.takeFinished() ?? [] {
            server.reply(shot.reply, to: shot.address)
        }
        server.service(now: now) { request, subscribe, address in self.respond(to: request, subscribe: subscribe, address: address) }
        return false
    }

    /// The commands and the fields each takes besides `command` and `id`.
    static let controlCommands: [String: [String]] = [
        "version": [], "stats": [], "get-bindings": [], "reload": [], "blank": [], "unblank": [],
        "set-binding": ["name", "value"], "go-to-state": ["state"], "switch-scene": ["scene"],
        "screenshot": ["path"], "subscribe": ["events"], "set-brightness": ["level"], "set-language": ["language"],
        "video": ["layer", "action", "value"],
    ]

    /// How old a `stats` reply may be, in seconds.
    static let statsInterval = 0.1

    static let eventKinds: Set<String> = ["state", "gesture", "control", "display", "scene", "video", "all"]

    private func failure(_ reason: String) -> ControlValue {
        .object(["ok": .bool(false), "error": .string(reason)])
    }

    private func success(_ fields: [String: ControlValue] = [:]) -> ControlValue {
        var reply = fields
        reply["ok"] = .bool(true)
        return .object(reply)
    }

    func respond(to request: [String: ControlValue], subscribe: (Set<String>) -> Void,
                 address: ControlServer.ReplyAddress) -> ControlValue? {
        guard let command = request["command"]?.string else {
            return failure("a request names its `command` (one of \(Self.controlCommands.keys.sorted().joined(separator: ", ")))")
        }
        guard let allowed = Self.controlCommands[command] else {
            return failure("unknown command '\(Escaped(command))' (known: \(Self.controlCommands.keys.sorted().joined(separator: ", ")))")
        }
        if let extra = request.keys.sorted().first(where: { $0 != "command" && $0 != "id" && !allowed.contains($0) }) {
            return failure("\(command) takes no field '\(Escaped(extra))'\(allowed.isEmpty ? "" : " (fields: \(allowed.joined(separator: ", ")))")")
        }
        switch command {
        case "version":
            return success(["protocol": .number(Double(ControlServer.protocolVersion)), "program": .string("lamina")])
        case "stats":
            // Worked out at most every `statsInterval`: a client asking without pause costs
            // the loop a copy, not a pass over every sample.
            if let cached = statsCache, clock.now - cached.time < Self.statsInterval {
                return success(["stats": cached.value])
            }
            guard let data = try? runtime.stats.json(), let value = try? ControlValue.parse(data) else { return failure("stats unavailable") }
            statsCache = (clock.now, value)
            return success(["stats": value])
        case "get-bindings":
            guard let scene = runtime.scene as? any ControllableScene else { return failure("the running scene is not a scene file: it has no bindings") }
            var values: [String: ControlValue] = [:]
            for (name, value) in scene.bindingValues { values[name] = Self.controlValue(value) }
            return success(["bindings": .object(values), "state": scene.currentState.map(ControlValue.string) ?? .null])
        case "set-binding":
            return setBinding(request)
        case "go-to-state":
            guard let scene = runtime.scene as? any ControllableScene else { return failure("the running scene is not a scene file: it has no states") }
            guard let state = request["state"]?.string else { return failure("go-to-state needs `state`, a string") }
            guard scene.stateNames.contains(state) else {
                return failure("no state '\(Escaped(state))' (states: \(scene.stateNames.joined(separator: ", ")))")
            }
            scene.go(toState: state)
            return success(["state": .string(state)])
        case "switch-scene":
            guard let name = request["scene"]?.string, !name.isEmpty, name.utf8.count <= 4096 else {
                return failure("switch-scene needs `scene`, a scene's name or a scene file's path")
            }
            guard !name.utf8.contains(0) else { return failure("`scene` holds a NUL character") }
            guard let onSwitchScene = runtime.onSwitchScene else { return failure("this runtime cannot switch scenes") }
            // The scene is read and compiled off the loop: the reply comes when it is shown.
            onSwitchScene(name) { [weak self] error in
                guard let self else { return }
                if let error {
                    self.server?.reply(self.failure(error), to: address)
                } else {
                    self.publish("scene", ["scene": .string(name)])
                    self.server?.reply(self.success(["scene": .string(name)]), to: address)
                }
            }
            return nil
        case "reload":
            guard let onReload = runtime.onReload else { return failure("no configuration file to reload") }
            onReload { [weak self] rejection in
                guard let self else { return }
                self.server?.reply(rejection.map { self.failure("reload rejected: \($0)") } ?? self.success(), to: address)
            }
            return nil
        case "blank", "unblank":
            return setBlanked(command == "blank")
        case "screenshot":
            return screenshot(request["path"], for: address)
        case "subscribe":
            guard case .array(let items)? = request["events"] else {
                return failure("subscribe needs `events`, a list of: \(Self.eventKinds.sorted().joined(separator: ", "))")
            }
            var kinds: Set<String> = []
            for item in items {
                guard let kind = item.string, Self.eventKinds.contains(kind) else {
                    return failure("'\(Escaped(item.description))' is not an event (events: \(Self.eventKinds.sorted().joined(separator: ", ")))")
                }
                kinds.insert(kind)
            }
            subscribe(kinds)
            return success(["events": .array(kinds.sorted().map(ControlValue.string))])
        case "set-language":
            // A string switches to that language; null shows every string as written.
            let language: String?
            switch request["language"] {
            case .string(let tag)?: language = tag
            case .null?: language = nil
            default: return failure("set-language needs `language`, a language tag such as de or pt_BR, or null")
            }
            do { try runtime.setLanguage(language) } catch { return failure("\(error)") }
            return success(["language": language.map(ControlValue.string) ?? .null])
        case "video":
            return controlVideo(request)
        case "set-brightness":
            guard runtime.backlight != nil else { return failure("no backlight is configured") }
            guard let level = request["level"]?.number, (0...1).contains(level) else {
                return failure("set-brightness needs `level`, a number from 0 to 1")
            }
            runtime.setBrightness(level)
            return success(["level": .number(runtime.power.brightness)])
        default:
            return failure("unknown command '\(Escaped(command))'")
        }
    }

    /// `video`: `action` play, pause, seek (`value` seconds), rate (`value` 0…8), loop
    /// (`value` true or false), mute, unmute or volume (`value` 0…1) on the video named
    /// `layer`; the reply is its report.
    private func controlVideo(_ request: [String: ControlValue]) -> ControlValue {
        let names = runtime.videos.all.compactMap(\.name).sorted()
        guard let name = request["layer"]?.string else { return failure("video needs `layer`, a video layer's name (videos: \(names.joined(separator: ", ")))") }
        guard let video = runtime.videos.named(name) else {
            return failure("no video layer is named '\(Escaped(name))' (videos: \(names.joined(separator: ", ")))")
        }
        let value = request["value"]
        switch request["action"]?.string {
        case "play"?: video.play()
        case "pause"?: video.pause()
        case "seek"?:
            guard let seconds = value?.number, seconds.isFinite, seconds >= 0, seconds <= 1e7 else {
                return failure("seek needs `value`, the seconds into the clip (0…10⁷)")
            }
            video.seek(to: seconds)
        case "rate"?:
            let fastest = type(of: video).maximumRate
            guard let rate = value?.number, (0...fastest).contains(rate) else {
                return failure("rate needs `value`, a number from 0 to \(Int(fastest))")
            }
            video.rate = rate
        case "loop"?:
            guard case .bool(let loops)? = value else { return failure("loop needs `value`, true or false") }
            video.loops = loops
        case "mute"?: video.isMuted = true
        case "unmute"?: video.isMuted = false
        case "volume"?:
            guard let level = value?.number, (0...1).contains(level) else { return failure("volume needs `value`, a number from 0 to 1") }
            video.volume = level
        default:
            return failure("video needs `action`: play, pause, seek, rate, loop, mute, unmute or volume")
        }
        guard let data = try? JSONEncoder().encode(video.report), let report = try? ControlValue.parse(Array(data)) else {
            return success()
        }
        return success(["video": report])
    }

    private func setBinding(_ request: [String: ControlValue]) -> ControlValue {
        guard let scene = runtime.scene as? any ControllableScene else { return failure("the running scene is not a scene file: it has no bindings") }
        guard let name = request["name"]?.string else { return failure("set-binding needs `name`, a string") }
        guard let current = scene.bindingValues[name] else {
            return failure("no binding '\(Escaped(name))' (bindings: \(scene.bindingValues.keys.sorted().joined(separator: ", ")))")
        }
        let value: BindingValue
        switch (current, request["value"]) {
        case (.number, .number(let n)?):
            guard n.isFinite, abs(n) <= 1e7 else { return failure("'\(name)' takes a number within ±10⁷") }
            value = .number(n)
        case (.string, .string(let s)?):
            guard s.utf8.count <= 4096 else { return failure("'\(name)' takes text of at most 4096 bytes") }
            value = .string(s)
        case (.color, .string(let s)?):
            guard let color = try? Color(hex: s) else { return failure("'\(Escaped(s))' is not a colour (#RRGGBB or #RRGGBBAA)") }
            value = .color(color)
        case (.list, .array(let items)?):
            switch Self.listItems(items, name) {
            case .success(let list): value = .list(list)
            case .failure(let reason): return failure(reason.text)
            }
        default:
            let wanted = ["number": "a number", "colour": "a colour string \"#RRGGBB\"", "list": "a list of objects"][current.kindName] ?? "a string"
            return failure("'\(name)' is a \(current.kindName) binding: `value` must be \(wanted)")
        }
        do {
            try scene.setBinding(name, to: value)
        } catch {
            return failure(error.reason)
        }
        return success(["name": .string(name)])
    }

    /// Why a list value was refused.
    struct ListRefusal: Error {
        var text: String
    }

    /// A list binding's items from JSON: at most `ListLimits.items` objects, each of at most
    /// `ListLimits.fields` fields that are numbers within ±10⁷ or strings of at most
    /// `ListLimits.textBytes` bytes (the scene checks them against its rows' parameters).
    static func listItems(_ items: [ControlValue], _ name: String) -> Result<[[String: BindingValue]], ListRefusal> {
        typealias Limits = BindingValue.ListLimits
        guard items.count <= Limits.items else { return .failure(ListRefusal(text: "'\(name)' holds at most \(Limits.items) items")) }
        var list: [[String: BindingValue]] = []
        list.reserveCapacity(items.count)
        for (i, item) in items.enumerated() {
            guard case .object(let fields) = item else { return .failure(ListRefusal(text: "\(name)[\(i)] is not an object of fields")) }
            guard fields.count <= Limits.fields else { return .failure(ListRefusal(text: "\(name)[\(i)] has more than \(Limits.fields) fields")) }
            var record: [String: BindingValue] = [:]
            for (key, field) in fields {
                switch field {
                case .number(let n) where n.isFinite && abs(n) <= 1e7: record[key] = .number(n)
                case .string(let s) where s.utf8.count <= Limits.textBytes: record[key] = .string(s)
                default:
                    return .failure(ListRefusal(text: "\(name)[\(i)].\(Escaped(key)) is a number within ±10⁷ or text of at most \(Limits.textBytes) bytes"))
                }
            }
            list.append(record)
        }
        return .success(list)
    }

    /// A list item's field as JSON (a colour as its "#RRGGBB" text).
    static func controlValue(_ field: BindingValue) -> ControlValue {
        switch field {
        case .number(let n): return .number(n)
        case .string(let s): return .string(s)
        case .color(let c): return .string(c.hexString)
        case .list(let items): return .array(items.map { .object($0.mapValues(controlValue)) })
        }
    }

    private func setBlanked(_ blanked: Bool) -> ControlValue {
        switch runtime.setBlanked(blanked, reason: "over the control socket", status: "control socket") {
        case .done?: return success(["lit": .bool(!blanked)])
        case .pending?: return success(["lit": .bool(false), "pending": .bool(true)])
        case nil: return failure(blanked ? "the display could not be blanked" : "the display could not be turned on")
        }
    }

    /// Writes the picture on the glass — the frame last flipped, as the panel scans it out —
    /// as a PNG: to a new file at `path` in a folder the client could write itself (or the
    /// socket's folder), or by default to `screenshot.png` beside the socket. In real time it
    /// is encoded off the loop and the reply comes when the file is written (nil here); on a
    /// virtual clock, at once.
    private func screenshot(_ field: ControlValue?, for address: ControlServer.ReplyAddress) -> ControlValue? {
        let target: ScreenshotWriter.Target
        switch screenshotTarget(field, peer: address.peer) {
        case .success(let t): target = t
        case .failure(let reason): return failure(reason.text)
        }
        if runtime.loop.isRealTime, let screenshots {
            return screenshots.start(display.screenImage(), to: target, for: address)
                ? nil : failure("a screenshot is being written; ask again when it is done")
        }
        return ScreenshotWriter.write(display.screenImage(), to: target, for: address).reply
    }

    /// Why a screenshot path was refused.
    struct ScreenshotRefusal: Error {
        var text: String
    }

    /// Where a screenshot asked for with `field` goes, checked before anything is written.
    func screenshotTarget(_ field: ControlValue?, peer: UnixSocket.Credentials?) -> Result<ScreenshotWriter.Target, ScreenshotRefusal> {
        let socketFolderPath = server.map { Paths.directory(of: $0.path) }.flatMap { $0.isEmpty ? nil : $0 } ?? "."
        let socketFolder = try? OutputFile.Folder(path: socketFolderPath)
        guard let field else {
            guard let socketFolder else { return .failure(.init(text: "cannot open \(socketFolderPath) for the screenshot")) }
            return .success(.init(folder: socketFolder, name: "screenshot.png",
                                  path: Paths.joined(socketFolderPath, "screenshot.png"), replacing: true))
        }
        guard case .string(let path) = field else { return .failure(.init(text: "`path` is a string")) }
        guard !path.utf8.contains(0) else { return .failure(.init(text: "`path` holds a NUL character")) }
        let name = path.split(separator: "/").last.map(String.init) ?? ""
        guard path.hasPrefix("/"), path.utf8.count <= 4096, !path.hasSuffix("/"), name != ".", name != ".." else {
            return .failure(.init(text: "`path` is an absolute path of a new file"))
        }
        let folderPath = Paths.directory(of: path)
        let folder: OutputFile.Folder
        do {
            folder = try OutputFile.Folder(path: folderPath)
        } catch {
            return .failure(.init(text: "cannot write in \(folderPath): \(error)"))
        }
        let isSocketFolder = socketFolder.map { folder.isSame(as: $0) } ?? false
        let peerMayWrite = peer.map { peer in
            folder.isWritable(uid: peer.uid, gid: peer.gid) { UnixSocket.user(peer.uid, isInGroup: $0) }
        } ?? true                                                    // no peer: the daemon's own request
        guard isSocketFolder || peerMayWrite else {
            return .failure(.init(text: "you cannot write in \(folderPath) yourself, so the daemon will not write there for you"))
        }
        return .success(.init(folder: folder, name: name, path: path, replacing: false))
    }
}
