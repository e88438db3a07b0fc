import FoundationEssentials
import LaminaDisplay

/// What `lamina probe` reports: every display card with its connectors (status, modes) and
/// CRTCs, the framebuffer devices, and the input devices the kernel lists.
public struct ProbeReport: Codable, Sendable {
    public struct Mode: Codable, Sendable {
        public var name: String
        public var width: Int, height: Int
        public var refreshHz: Double
        public var preferred: Bool
    }

    public struct Connector: Codable, Sendable {
        public var id: UInt32
        public var name: String
        public var connected: Bool
        public var modes: [Mode]
        public var possibleCRTCs: [UInt32]
        /// The connector's `panel orientation` property, when it has one.
        public var panelOrientation: PanelOrientation?
    }

    public struct Plane: Codable, Sendable {
        public var id: UInt32
        public var kind: KMSPlane.Kind
        public var formats: [String]
        public var possibleCRTCs: [UInt32]
    }

    public struct Card: Codable, Sendable {
        public var path: String
        /// Why the card could not be read, when it could not.
        public var error: String?
        public var connectors: [Connector]
        public var crtcs: [UInt32]
        public var planes: [Plane]
        /// Atomic modesetting is available (`DRM_CLIENT_CAP_ATOMIC` accepted).
        public var atomic: Bool
        /// The writeback connector's id, when the card can read its composed frame back.
        public var writebackConnector: UInt32?

        public init(path: String, error: String?, connectors: [Connector], crtcs: [UInt32],
                    planes: [Plane] = [], atomic: Bool = false, writebackConnector: UInt32? = nil) {
            self.path = path
            self.error = error
            self.connectors = connectors
            self.crtcs = crtcs
            self.planes = planes
            self.atomic = atomic
            self.writebackConnector = writebackConnector
        }
    }

    /// A framebuffer device (`/dev/fbN`), for the fbdev backend.
    public struct Framebuffer: Codable, Sendable {
        public var path: String
        /// Why it could not be read, when it could not.
        public var error: String?
        public var driver: String?
        public var width: Int?, height: Int?
        public var format: String?
        /// True when its memory holds two screens, so Lamina can pan between them where the
        /// driver allows (else it draws in place).
        public var twoScreens: Bool?

        public init(path: String, error: String? = nil, driver: String? = nil, width: Int? = nil, height: Int? = nil,
                    format: String? = nil, twoScreens: Bool? = nil) {
            self.path = path
            self.error = error
            self.driver = driver
            self.width = width
            self.height = height
            self.format = format
            self.twoScreens = twoScreens
        }

        /// Opens `path` and reads its mode and format, changing nothing (no virtual size
        /// asked for: a daemon may be showing on it).
        public static func probe(path: String) -> Framebuffer {
            do {
                let device = try FBDevDevice(path: path, clock: SystemClock(), allowPanning: false)
                return Framebuffer(path: path, driver: device.driverName, width: device.mode.width, height: device.mode.height,
                                   format: device.format.rawValue, twoScreens: device.hasMemoryForTwoScreens)
            } catch {
                return Framebuffer(path: path, error: "\(error)")
            }
        }

        /// `/dev/fb0`, `/dev/fb1`, … that exist, in order.
        public static func paths(directory: String = "/dev") -> [String] {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
            return names.filter { $0.hasPrefix("fb") && Int($0.dropFirst(2)) != nil }
                .sorted { Int($0.dropFirst(2))! < Int($1.dropFirst(2))! }.map { "\(directory)/\($0)" }
        }
    }

    public struct InputDevice: Codable, Sendable {
        public var path: String
        public var name: String
    }

    /// A video decoder GStreamer offers (what a video layer would be decoded by).
    public struct VideoDecoder: Codable, Sendable {
        public var name: String
        /// `uridecodebin` picks the highest-ranked decoder that takes the stream.
        public var rank: Int
        /// Whether it decodes in hardware (its class says `Hardware`: V4L2, VA-API…).
        public var hardware: Bool

        public init(name: String, rank: Int, hardware: Bool) {
            self.name = name
            self.rank = rank
            self.hardware = hardware
        }
    }

    public var cards: [Card]
    public var framebuffers: [Framebuffer]
    public var inputDevices: [InputDevice]
    /// GStreamer's video decoders, highest rank first (empty when GStreamer is missing).
    public var videoDecoders: [VideoDecoder] = []
    /// Why GStreamer could not be asked, when it could not.
    public var videoError: String?

    public init(cards: [Card], framebuffers: [Framebuffer] = [], inputDevices: [InputDevice],
                videoDecoders: [VideoDecoder] = [], videoError: String? = nil) {
        self.cards = cards
        self.framebuffers = framebuffers
        self.inputDevices = inputDevices
        self.videoDecoders = videoDecoders
        self.videoError = videoError
    }

    /// The card's resources through the device contract (any backend, the dummy included).
    public static func card(path: String, device: KMSDevice) -> Card {
        do {
            let r = try device.resources()
            return Card(path: path, error: nil, connectors: r.connectors.map { c in
                Connector(id: c.id, name: c.name, connected: c.isConnected,
                          modes: c.modes.map { Mode(name: $0.name, width: $0.width, height: $0.height,
                                                    refreshHz: $0.refreshRate, preferred: $0.isPreferred) },
                          possibleCRTCs: c.possibleCRTCs, panelOrientation: c.panelOrientation)
            }, crtcs: r.crtcs,
            planes: r.planes.map { Plane(id: $0.id, kind: $0.kind, formats: $0.formats, possibleCRTCs: $0.possibleCRTCs) },
            atomic: r.supportsAtomic, writebackConnector: r.writebackConnector)
        } catch {
            return Card(path: path, error: "\(error)", connectors: [], crtcs: [])
        }
    }

    /// Input devices from sysfs: `/dev/input/eventN` and the kernel's name for it.
    public static func inputDevices(sysfs: String = "/sys/class/input") -> [InputDevice] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: sysfs)) ?? []
        return names.compactMap { name in name.hasPrefix("event") ? Int(name.dropFirst(5)) : nil }.sorted().map { "event\($0)" }.map { event in
            let name = (try? String(contentsOfFile: "\(sysfs)/\(event)/device/name", encoding: .utf8))?
                .trimmed(newlines: true) ?? "?"
            return InputDevice(path: "/dev/input/\(event)", name: name)
        }
    }

    /// The report as text, one line per card, connector, mode and device.
    public var text: String {
        var lines: [String] = []
        if cards.isEmpty { lines.append("no display cards (no /dev/dri/card*)") }
        for card in cards {
            lines.append("\(card.path)" + (card.error.map { ": \($0)" } ?? ""))
            lines.append("  atomic: \(card.atomic ? "yes" : "no"); writeback: \(card.writebackConnector.map { "connector \($0)" } ?? "none")")
            lines.append("  crtcs: \(card.crtcs.map(String.init).joined(separator: ", "))")
            for p in card.planes {
                lines.append("  plane \(p.id) \(p.kind.rawValue) (crtcs \(p.possibleCRTCs.map(String.init).joined(separator: ", "))): \(p.formats.joined(separator: " "))")
            }
            for c in card.connectors {
                let orientation = c.panelOrientation.map { ", panel orientation \($0.rawValue)" } ?? ""
                lines.append("  connector \(c.id) \(c.name): \(c.connected ? "connected" : "disconnected"), \(c.modes.count) modes\(orientation)")
                for m in c.modes {
                    lines.append("    \(m.name) \(m.width)x\(m.height) @ " + String(cFormat: "%.3f", m.refreshHz)
                                 + " Hz" + (m.preferred ? " (preferred)" : ""))
                }
            }
        }
        for fb in framebuffers {
            if let error = fb.error {
                lines.append("\(fb.path): \(error)")
            } else {
                lines.append("\(fb.path) (\(fb.driver ?? "?"), fbdev): \(fb.width ?? 0)x\(fb.height ?? 0) \(fb.format ?? "?"), "
                             + (fb.twoScreens == true ? "memory for two screens (panned)" : "memory for one screen (single buffered)"))
            }
        }
        lines.append(inputDevices.isEmpty ? "no input devices" : "input devices:")
        for d in inputDevices { lines.append("  \(d.path): \(d.name)") }
        if let videoError {
            lines.append("video decoders: \(videoError)")
        } else {
            // Hardware decoders by name; software ones of primary rank (256, what
            // `uridecodebin` prefers) in a line; the rest only counted (`--json` lists all).
            let hardware = videoDecoders.filter(\.hardware), software = videoDecoders.filter { !$0.hardware }
            let preferred = software.filter { $0.rank >= 256 }
            lines.append("video decoders (GStreamer): \(hardware.count) in hardware, \(software.count) in software")
            lines.append("  hardware: " + (hardware.isEmpty ? "none" : hardware.map { "\($0.name) (rank \($0.rank))" }.joined(separator: ", ")))
            if !preferred.isEmpty { lines.append("  software, primary rank: " + preferred.map(\.name).joined(separator: ", ")) }
            if software.count > preferred.count { lines.append("  and \(software.count - preferred.count) software decoders of lower rank") }
        }
        return lines.joined(separator: "\n")
    }
}
