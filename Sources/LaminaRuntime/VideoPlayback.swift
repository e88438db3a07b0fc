import LaminaDisplay
import LaminaPixels

/// A video playing in the scene as the control socket and `stats` see it: LaminaVideo's
/// `VideoPlayer` registers itself with the runtime (``SceneContext/register(_:)``), so the
/// runtime reports and drives videos without knowing their decoder.
public protocol VideoPlayback: AnyObject {
    /// What the control socket calls it (a scene file's layer name); nil when unnamed.
    var name: String? { get }
    /// Its state and counters now.
    var report: VideoReport { get }
    /// Starts or goes on playing.
    func play()
    /// Holds the frame shown.
    func pause()
    /// Moves to `seconds` into the clip.
    func seek(to seconds: Double)
    /// How fast it plays (1 its own speed).
    var rate: Double { get set }
    /// Whether it starts again at its end.
    var loops: Bool { get set }
    /// Whether its sound is off (it is until asked).
    var isMuted: Bool { get set }
    /// How loud its sound is, 0…1.
    var volume: Double { get set }
    /// Called on the loop after each frame presented: `image` is what the display's overlay
    /// plane shows with it (nil: nothing). A player whose frame it is may have its decoder
    /// write the next frames straight into buffers the plane scans out
    /// (``Display/makeScanoutBuffers(width:height:count:)``, decision 148).
    func overlayPlaneShowed(_ image: PixelBuffer?, on display: Display)
}

extension VideoPlayback {
    /// By default a video's frames are copied onto the plane.
    public func overlayPlaneShowed(_ image: PixelBuffer?, on display: Display) {}

    /// The fastest rate a video plays at: ``rate`` is clamped to 0…8, and the control
    /// socket's `video … rate` and a scene file's `rate` take no more.
    public static var maximumRate: Double { 8 }
}

/// One video's line in `stats`: who decodes it and what became of its frames. The decoder in
/// use is never a secret.
public struct VideoReport: Codable, Sendable, Equatable {
    /// Its name (a scene file's layer name), when it has one.
    public var name: String?
    /// The clip, as written.
    public var source: String
    /// The GStreamer element decoding it (`avdec_h264`, `vp9dec`, `v4l2h264dec`…), nil
    /// before the first frame.
    public var decoder: String?
    /// Whether it is playing.
    public var playing: Bool
    /// Where it is in the clip, in seconds.
    public var position: Double
    /// Frames decoded, shown, dropped (decoded but their vblank passed) and late (display
    /// frames at which the frame due was not decoded yet).
    public var decoded: Int
    /// Frames shown.
    public var shown: Int
    /// Frames decoded but never shown.
    public var dropped: Int
    /// Display frames that waited for the decoder.
    public var late: Int
    /// Frames copied out of GStreamer's buffers (the rest are read in place: a decoder whose
    /// buffers come from a small pool has every frame copied, so none is held from it).
    public var copied: Int
    /// Whether its sound is off.
    public var muted: Bool
    /// Its sound's volume, 0…1.
    public var volume: Double
    /// The element playing its sound (`pulsesink`, `alsasink`…), nil while there is none.
    public var sound: String?

    /// A report from its parts.
    public init(name: String?, source: String, decoder: String?, playing: Bool, position: Double,
                decoded: Int, shown: Int, dropped: Int, late: Int, copied: Int = 0,
                muted: Bool = true, volume: Double = 1, sound: String? = nil) {
        self.name = name
        self.source = source
        self.decoder = decoder
        self.playing = playing
        self.position = position
        self.decoded = decoded
        self.shown = shown
        self.dropped = dropped
        self.late = late
        self.copied = copied
        self.muted = muted
        self.volume = volume
        self.sound = sound
    }
}

/// The videos of the running scene, held weakly: a player gone from the scene drops out.
package final class VideoRegistry {
    private struct Entry { weak var video: (any VideoPlayback)? }
    private var entries: [Entry] = []

    package init() {}

    /// Adds `video` once (entries of players already gone are dropped first, so the list
    /// holds only live players; a player a reload hands on is already there).
    package func add(_ video: any VideoPlayback) {
        entries.removeAll { $0.video == nil }
        guard !entries.contains(where: { $0.video === video }) else { return }
        entries.append(Entry(video: video))
    }

    /// The live videos, in the order they were made.
    package var all: [any VideoPlayback] { entries.compactMap(\.video) }

    /// Calls `body` with each live video in the order they were made, building no array
    /// (the runtime tells them what the plane showed after every frame).
    package func forEach(_ body: (any VideoPlayback) -> Void) {
        for entry in entries { if let video = entry.video { body(video) } }
    }

    /// The live video named `name`.
    package func named(_ name: String) -> (any VideoPlayback)? { all.first { $0.name == name } }
}
