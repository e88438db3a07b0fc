/// Where an unmuted video's sound goes: a kiosk with a USB speaker or an HDMI panel names the
/// device instead of taking what GStreamer finds first. Written in a config as `auto`,
/// `pulse`, `pipewire`, `alsa` (ALSA's default device) or `alsa:DEVICE` (`alsa:hw:1,0`,
/// `alsa:plughw:CARD=Device,DEV=0`).
public enum AudioDevice: Equatable, Sendable, CustomStringConvertible {
    /// The device GStreamer finds (`autoaudiosink`: PulseAudio or PipeWire where they run,
    /// else ALSA's default).
    case automatic
    /// The PulseAudio server (`pulsesink`; PipeWire's pulse server answers it too).
    case pulse
    /// PipeWire itself (`pipewiresink`, from `gstreamer1.0-pipewire`).
    case pipewire
    /// An ALSA device by name (`alsasink device=…`); nil is ALSA's default device.
    case alsa(String?)

    /// The longest ALSA device name taken.
    public static let maximumNameLength = 64

    /// The device `text` names, or nil when it names none: `auto`, `pulse`, `pipewire`,
    /// `alsa` or `alsa:` and an ALSA name of at most ``maximumNameLength`` characters from
    /// letters, digits and `_ - . , : =` (the name goes into a GStreamer element's
    /// description, so nothing else may reach it).
    public init?(_ text: String) {
        switch text {
        case "auto": self = .automatic
        case "pulse": self = .pulse
        case "pipewire": self = .pipewire
        case "alsa": self = .alsa(nil)
        default:
            guard text.hasPrefix("alsa:") else { return nil }
            let name = text.dropFirst("alsa:".count)
            guard !name.isEmpty, name.count <= Self.maximumNameLength,
                  name.unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || $0.properties.numericType != nil
                      || "_-.,:=".unicodeScalars.contains($0)) }) else { return nil }
            self = .alsa(String(name))
        }
    }

    /// What a config says for it (`init(_:)` reads it back).
    public var description: String {
        switch self {
        case .automatic: "auto"
        case .pulse: "pulse"
        case .pipewire: "pipewire"
        case .alsa(nil): "alsa"
        case .alsa(let name?): "alsa:\(name)"
        }
    }

    /// The GStreamer sink that plays to it, as the decoder's sound branch is described.
    public var sinkDescription: String {
        switch self {
        case .automatic: VideoDecoder.audioDevice
        case .pulse: "pulsesink"
        case .pipewire: "pipewiresink"
        case .alsa(nil): "alsasink"
        case .alsa(let name?): "alsasink device=\(name)"
        }
    }

    /// The device players made without one play to: the daemon sets it from the config's
    /// `[video] audio_device` before building a scene; an app may set it before making
    /// players.
    nonisolated(unsafe) public static var `default` = AudioDevice.automatic
}
