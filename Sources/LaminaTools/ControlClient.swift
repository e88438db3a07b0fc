import FoundationEssentials
import Lamina
import LaminaSystem
import SystemPackage

/// `lamina ctl`'s side of the control socket (`docs/control.md`): one request, its reply; or a
/// subscription, printed as events arrive.
public struct ControlClient {
    /// Where a daemon under systemd listens (`RuntimeDirectory=lamina`).
    public static let defaultSocket = "/run/lamina/control"
    private let socket: UnixSocket
    private var pending: [UInt8] = []

    /// Connects to the daemon at `path`.
    public init(path: String) throws(Errno) {
        socket = try UnixSocket.connect(path: path)
    }

    /// Closes the connection.
    public func close() { socket.close() }

    /// Sends `request` and returns the daemon's reply (the next line that is not an event).
    public mutating func send(_ request: [String: ControlValue]) throws -> ControlValue {
        var bytes = Array(ControlValue.object(request).jsonLine.utf8) + [0x0A]
        while !bytes.isEmpty {
            switch socket.send(bytes[...]) {
            case .moved(let n): bytes.removeFirst(n)
            case .wouldBlock: continue
            case .closed: throw ControlClientError(reason: "the daemon closed the connection")
            case .failed(let e): throw ControlClientError(reason: "cannot send: \(e)")
            }
        }
        while true {
            let line = try nextLine()
            if line.object?["event"] == nil { return line }
        }
    }

    /// The next line the daemon sends, parsed.
    public mutating func nextLine() throws -> ControlValue {
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            if let newline = pending.firstIndex(of: 0x0A) {
                let line = pending[..<newline]
                pending.removeFirst(newline + 1)
                return try ControlValue.parse(line)
            }
            switch socket.receive(into: &buffer) {
            case .moved(let n): pending += buffer[0..<n]
            case .wouldBlock: continue
            case .closed: throw ControlClientError(reason: "the daemon closed the connection")
            case .failed(let e): throw ControlClientError(reason: "cannot read: \(e)")
            }
            if pending.count > 64 << 20 { throw ControlClientError(reason: "a reply longer than 64 MiB") }
        }
    }

    /// The request `lamina ctl WORDS…` stands for.
    public static func request(_ words: [String]) throws -> [String: ControlValue] {
        guard let verb = words.first else { throw ControlClientError(reason: "name a command (lamina ctl --help)") }
        let args = Array(words.dropFirst())
        func arity(_ n: Int, _ usage: String) throws {
            guard args.count == n else { throw ControlClientError(reason: "usage: lamina ctl \(usage)") }
        }
        switch verb {
        case "version", "stats", "reload", "blank", "unblank":
            try arity(0, verb)
            return ["command": .string(verb)]
        case "bindings":
            try arity(0, "bindings")
            return ["command": .string("get-bindings")]
        case "set":
            try arity(2, "set NAME VALUE")
            let value: ControlValue = Double(args[1]).map(ControlValue.number) ?? .string(args[1])
            return ["command": .string("set-binding"), "name": .string(args[0]), "value": value]
        case "state":
            try arity(1, "state NAME")
            return ["command": .string("go-to-state"), "state": .string(args[0])]
        case "scene":
            try arity(1, "scene NAME|FILE.yaml")
            return ["command": .string("switch-scene"), "scene": .string(args[0])]
        case "screenshot":
            guard args.count <= 1 else { throw ControlClientError(reason: "usage: lamina ctl screenshot [FILE.png]") }
            return ["command": .string("screenshot")]
        case "brightness":
            try arity(1, "brightness LEVEL")
            guard let level = Double(args[0]) else { throw ControlClientError(reason: "a brightness is a number from 0 to 1") }
            return ["command": .string("set-brightness"), "level": .number(level)]
        case "language":
            try arity(1, "language TAG|none")
            return ["command": .string("set-language"), "language": args[0] == "none" ? .null : .string(args[0])]
        case "video":
            let usage = "usage: lamina ctl video LAYER play|pause|mute|unmute|seek SECONDS|rate RATE|volume LEVEL|loop on|off"
            guard args.count == 2 || args.count == 3 else { throw ControlClientError(reason: usage) }
            var request: [String: ControlValue] = ["command": .string("video"), "layer": .string(args[0]), "action": .string(args[1])]
            switch (args[1], args.count) {
            case ("play", 2), ("pause", 2), ("mute", 2), ("unmute", 2): break
            case ("seek", 3), ("rate", 3), ("volume", 3):
                guard let number = Double(args[2]) else { throw ControlClientError(reason: "\(args[1]) takes a number") }
                request["value"] = .number(number)
            case ("loop", 3):
                guard args[2] == "on" || args[2] == "off" else { throw ControlClientError(reason: "loop takes on or off") }
                request["value"] = .bool(args[2] == "on")
            default: throw ControlClientError(reason: usage)
            }
            return request
        case "subscribe":
            guard !args.isEmpty else { throw ControlClientError(reason: "usage: lamina ctl subscribe EVENT… (state, gesture, control, display, scene, video, all)") }
            return ["command": .string("subscribe"), "events": .array(args.map(ControlValue.string))]
        case "raw":
            try arity(1, "raw JSON")
            guard let object = try? ControlValue.parse(Array(args[0].utf8)).object else {
                throw ControlClientError(reason: "raw takes one JSON object")
            }
            return object
        default:
            throw ControlClientError(reason: "unknown command '\(verb)' (version, stats, bindings, set, state, scene, reload, screenshot, blank, unblank, brightness, language, video, subscribe, raw)")
        }
    }

    /// A reply for people: `key: value` lines, nested objects indented.
    public static func humanReadable(_ value: ControlValue, indent: String = "") -> String {
        guard case .object(let fields) = value else { return indent + value.jsonLine }
        return fields.keys.sorted().filter { $0 != "ok" && $0 != "id" }.map { key in
            let field = fields[key]!
            switch field {
            case .object: return "\(indent)\(key):\n" + humanReadable(field, indent: indent + "  ")
            case .string(let s): return "\(indent)\(key): \(s)"
            case .number(let n): return "\(indent)\(key): \(String(cFormat: "%g", n))"
            default: return "\(indent)\(key): \(field.jsonLine)"
            }
        }.joined(separator: "\n")
    }
}

/// Why `lamina ctl` could not do what it was asked.
public struct ControlClientError: Error, CustomStringConvertible {
    /// One line.
    public var reason: String

    /// An error saying `reason`.
    public init(reason: String) { self.reason = reason }
    /// The reason.
    public var description: String { reason }
}
