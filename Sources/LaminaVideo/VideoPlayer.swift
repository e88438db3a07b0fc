import LaminaDisplay
import LaminaRuntime

/// Plays a video (`AVPlayer`): decodes it with a ``VideoDecoder`` and, at each frame of the
/// display, shows in its ``VideoLayer`` the decoded frame whose time is nearest that frame's
/// vblank. Playing keeps a display link running; paused or ended, the daemon sleeps.
///
/// The playhead advances with the display link's target times times ``rate``, so frames are
/// paced by the flips, not by GStreamer's clock. On a virtual clock (tests, recordings) the
/// player waits for each frame it needs, so every frame shows, deterministically.
///
/// Videos are muted until ``isMuted`` is set false; then the clip's sound goes to the audio
/// device, timed by the same schedule as the frames (the sound of a frame is heard at the
/// vblank that shows it), paused, sought and looped with them. On a virtual clock there is
/// no sound: it cannot follow a clock that is not the wall's.
public final class VideoPlayer: VideoPlayback {
    /// What happened to the video, for ``onEvent``.
    public enum Event: Equatable, Sendable {
        /// The first frame is decoded and shown.
        case ready
        /// The last frame has been shown (never for a player that loops).
        case ended
        /// GStreamer could not open or decode the video: why.
        case failed(String)
    }

    /// Frames counted while playing, and who decodes them: never a secret.
    public struct Statistics: Equatable, Sendable {
        /// The GStreamer element decoding (`avdec_h264`, `vp9dec`, `v4l2h264dec`…), nil
        /// before the first frame.
        public var decoder: String?
        /// Frames the decoder has produced.
        public var decoded = 0
        /// Frames shown on screen.
        public var shown = 0
        /// Frames decoded but never shown: their vblank passed while a later frame was due.
        public var dropped = 0
        /// Display frames at which the frame due was not decoded yet (the previous one stayed).
        public var late = 0
        /// Frames copied out of GStreamer's buffers; the others were read in place.
        public var copied = 0
        /// The element playing the sound (`pulsesink`, `alsasink`…), nil while there is none.
        public var soundSink: String?
    }

    /// The video.
    public let source: VideoSource
    /// What the control socket and `stats` call it (a scene file's layer name).
    public var name: String?
    /// What the player has counted.
    public private(set) var statistics = Statistics()
    /// Called on the loop when the video is ready, has ended or failed.
    public var onEvent: ((Event) -> Void)?
    /// The layer showing the frames (set by ``VideoLayer/player``).
    weak var output: VideoLayer?

    var context: SceneContext
    var decoder: VideoDecoder?
    private var link: DisplayLink?
    /// The timeline time (see ``VideoFrame/time``) shown at the clock time `anchorClock`;
    /// nil until the first frame after play, a seek or a rate change fixes it.
    private var anchor: (clock: Double, timeline: Double)?
    /// The playhead on the decoder's timeline when paused (or before the first frame).
    private var timeline = 0.0
    var shown: VideoFrame?
    /// A seek's position until its frame shows: frames before it (decoded from the key frame
    /// before the position) are passed over, not dropped.
    private var seekFloor: Double?
    private var sentReady = false
    private var sentEnd = false
    private var reportedFailure = false
    /// The element sound goes to when unmuted (a test's tap instead of the device).
    private let soundSinkDescription: String
    /// Whether the sound goes to an audio device (played on the wall's time: none on a
    /// virtual clock), not a test's tap.
    private let soundFollowsWall: Bool
    /// Whether unmuting has been handled, whether the decoder was asked for sound, and
    /// whether there is nothing more to say of it (a failure, or no sound, was logged).
    private var soundAsked = false
    private var soundOn = false
    private var soundLogged = false
    /// The overlay plane's buffers the decoder writes frames into (VideoPlayer+Scanout.swift),
    /// the display they came from, and the presented frames since the plane last showed one
    /// of this player's frames; the size a display would not lend buffers for.
    var scanout: (buffers: ScanoutBuffers, display: Display)?
    var framesOffPlane = 0
    var scanoutRefused: (width: Int, height: Int)?
    /// Frames shown in a row at their own vblanks (see `matchFrameRate`).
    private var framesOnTime = 0
    /// How many frames in a row must be on time before the link skips vblanks (half a second
    /// at 30 fps).
    static let steadyFrames = 15

    /// A player for `source` that starts decoding at once (so its first frame is ready when
    /// ``play()`` is called), paused; unmuted, its sound goes to `audioDevice` (by default
    /// ``AudioDevice/default``, which the daemon sets from the config's `[video]
    /// audio_device`). Throws when GStreamer cannot be loaded or the source cannot be opened;
    /// errors found later arrive as ``Event/failed(_:)``.
    public convenience init(source: VideoSource, context: SceneContext, loops: Bool = false,
                            audioDevice: AudioDevice? = nil) throws(VideoError) {
        let device = audioDevice ?? .default
        try self.init(source: source, context: context, loops: loops,
                      soundSink: VideoDecoder.soundSinkOverride ?? device.sinkDescription,
                      soundFollowsWall: VideoDecoder.soundSinkOverride == nil)
    }

    /// As `init(source:context:loops:)`, the sound going to `soundSink` when unmuted (a test's
    /// tap, which plays on a virtual clock too, unless `soundFollowsWall`: an audio device's
    /// sound cannot follow a virtual clock).
    init(source: VideoSource, context: SceneContext, loops: Bool, soundSink: String,
         soundFollowsWall: Bool = false) throws(VideoError) {
        self.source = source
        self.context = context
        soundSinkDescription = soundSink
        self.soundFollowsWall = soundFollowsWall
        decoder = try VideoDecoder(source: source, loops: loops, readsInPlace: true, soundSink: soundSink)
        context.logger.info("video \(source): decoding with GStreamer")
        context.register(self)
    }

    deinit { link?.invalidate() }

    /// Moves the player into the scene built on `context` (a scene file's live reload hands a
    /// running video on): the display link, invalidated with the scene before, is made again
    /// if the player was playing or showing a seek's frame, and the playhead goes on from
    /// where it was at the last frame shown.
    package func adopt(_ context: SceneContext) {
        let running = link.map { !$0.isPaused } ?? false
        if isPlaying, let anchor, let shown { timeline = max(anchor.timeline, shown.time) }
        anchor = nil
        link?.invalidate()
        link = nil
        self.context = context
        context.register(self)
        if running { link = context.addDisplayLink { [weak self] link in self?.tick(link) } }
    }

    /// Whether the video starts again from the start each time it ends, without a gap.
    public var loops: Bool {
        get { decoder?.loops ?? false }
        set { decoder?.loops = newValue }
    }

    /// Whether the sound is off. It is until set false (a kiosk's videos are silent unless
    /// asked); then the clip's sound plays on the audio device GStreamer finds, from the
    /// playhead on. Muting again silences it and keeps the device.
    public var isMuted = true {
        didSet { updateSound() }
    }

    /// How loud the sound is, 0…1 (a linear gain on the clip's own level; clamped, not a
    /// number is 1).
    public var volume = 1.0 {
        didSet {
            volume = volume.isNaN ? 1 : min(max(volume, 0), 1)
            updateSound()
        }
    }

    /// Whether it is playing (the playhead moves).
    public private(set) var isPlaying = false

    /// How fast it plays: 1 is its own speed, 0…``maximumRate`` (0 holds the frame, as a
    /// pause does). Values outside are clamped; not a number is 1.
    public var rate = 1.0 {
        didSet {
            rate = rate.isNaN ? 1 : min(max(rate, 0), Self.maximumRate)
            if let anchor, let now = link.map({ $0.targetTimestamp }) {
                timeline = anchor.timeline + (now - anchor.clock) * oldValue
                self.anchor = (now, timeline)
                schedule(now)
            }
            if soundOn, rate > 0, let decoder, rate != decoder.playbackRate {
                // The sound plays at the segment's rate: seek again from the frame shown.
                decoder.playbackRate = rate
                seek(to: currentTime)
            }
        }
    }

    /// Its state and counters, as `stats` reports them.
    public var report: VideoReport {
        VideoReport(name: name, source: source.text, decoder: statistics.decoder, playing: isPlaying, position: currentTime,
                    decoded: statistics.decoded, shown: statistics.shown, dropped: statistics.dropped, late: statistics.late,
                    copied: statistics.copied, muted: isMuted, volume: volume, sound: statistics.soundSink)
    }

    /// Where the playhead is in the clip, in seconds (the frame shown's place in it).
    public var currentTime: Double { shown?.position ?? 0 }

    /// Starts (or goes on) playing from the playhead.
    public func play() {
        guard !isPlaying else { return }
        isPlaying = true
        sentEnd = false
        anchor = nil
        if let link { link.isPaused = false } else {
            link = context.addDisplayLink { [weak self] link in self?.tick(link) }
        }
    }

    /// Holds the frame shown; ``play()`` goes on from it.
    public func pause() {
        guard isPlaying else { return }
        isPlaying = false
        if let anchor, let now = link?.targetTimestamp { timeline = anchor.timeline + (now - anchor.clock) * rate }
        anchor = nil
        decoder?.schedule(nil)
        link?.isPaused = true
    }

    /// Moves the playhead to `seconds` into the clip (clamped at 0); the frame there shows
    /// next, and playing goes on from it if it was playing.
    public func seek(to seconds: Double) {
        let position = seconds.isFinite ? max(0, seconds) : 0
        decoder?.schedule(nil)          // sound holds until the next frame puts it on the new schedule
        decoder?.seek(to: position)
        timeline = position
        seekFloor = position
        anchor = nil
        sentEnd = false
        shown = shown.map { VideoFrame(time: -1, position: $0.position, duration: 0, pass: 0, image: $0.image) }
        if !isPlaying {
            // Paused: show the frame at the position once it is decoded.
            if let link { link.isPaused = false } else {
                link = context.addDisplayLink { [weak self] link in self?.tick(link) }
            }
        }
    }

    /// One display frame: move the playhead to the link's target time and show the frame due.
    private func tick(_ link: DisplayLink) {
        guard let decoder else { link.isPaused = true; return }
        let now = link.targetTimestamp
        var playhead = timeline
        if isPlaying {
            if let anchor { playhead = anchor.timeline + (now - anchor.clock) * rate } else {
                anchor = (now, timeline)
                schedule(now)
            }
        }
        // The frame due is the last whose time is nearest the vblank's playhead: before the
        // half-vblank after it (a tie goes to the earlier frame).
        let due = playhead + link.duration * max(rate, 1e-9) / 2 - 1e-6
        if context.clockIsVirtual {
            decoder.waitForFrames(through: due, after: shown.map { $0.time + $0.duration } ?? -.infinity, seconds: 30)
        }
        let taken = decoder.takeFrames { $0.time <= due }
        let progress = decoder.progress
        if let frame = taken.last {
            statistics.dropped += taken.dropLast().filter { $0.time >= (seekFloor ?? -.infinity) - 1e-6 }.count
            seekFloor = nil
            statistics.shown += 1
            shown = frame
            // On time: the frame's own vblank (a late one shows a vblank after it).
            let onTime = isPlaying && link.refreshRate > 0 && abs(frame.time - playhead) < 0.5 / link.refreshRate
            framesOnTime = onTime ? framesOnTime + 1 : 0
            matchFrameRate(link, frameDuration: frame.duration)
            output?.show(frame.image)
            onFrameShown?(frame.position, now)
            if !sentReady {
                sentReady = true
                if let name = decoder.decoderName { context.logger.info("video \(source): decoded by \(name)") }
                onEvent?(.ready)
            }
        } else if isPlaying, let shown, shown.time + shown.duration < playhead - link.duration / 2,
                  progress.nextFrameTime == nil, !progress.isEnded {
            statistics.late += 1
            framesOnTime = 0
            if link.preferredFramesPerSecond != 0 { link.preferredFramesPerSecond = 0 }   // look again at the next vblank
        }
        statistics.decoded = progress.decoded
        statistics.copied = progress.copied
        statistics.decoder = progress.decoderName
        if soundOn && !soundLogged { logSound(decoder) }
        if let failure = progress.failure, !reportedFailure {
            reportedFailure = true
            context.logger.error("video \(source): \(failure)")
            onEvent?(.failed(failure))
            stop(link)
            return
        }
        if !isPlaying {
            // A paused player ticks only to show a seek's frame.
            if !taken.isEmpty || progress.isEnded { timeline = shown?.time ?? timeline; link.isPaused = true }
            return
        }
        if progress.isEnded, progress.nextFrameTime == nil, (shown?.time ?? 0) + (shown?.duration ?? 0) <= due, !sentEnd {
            sentEnd = true
            stop(link)
            onEvent?(.ended)
        }
    }

    /// Has the link fire on every n-th vblank when the clip's frames at ``rate`` come exactly
    /// every n-th one (a 30 fps clip on a 60 Hz panel, 25 on 50; n ≥ 2, within 0.05 %) and the
    /// last ``steadyFrames`` were shown at their own vblanks, so the vblanks between bring no
    /// tick and the loop may sleep through them; at every vblank otherwise (29.97 fps on 60 Hz
    /// keeps the vblank between for the repeated frame, and a decoder that fell behind gets
    /// its frame shown a vblank late instead of dropped, until it keeps up again; the switch
    /// back comes at a frame on its own vblank, so the link's grid is the frames').
    private func matchFrameRate(_ link: DisplayLink, frameDuration: Double) {
        let refresh = link.refreshRate
        var preferred = 0
        if framesOnTime >= Self.steadyFrames, refresh > 0, frameDuration > 0, rate > 0, frameDuration.isFinite {
            let ratio = refresh * frameDuration / rate
            let n = ratio.rounded()
            if n >= 2, n <= 16, abs(ratio - n) <= 0.0005 * n { preferred = Int((refresh / n).rounded()) }
        }
        if link.preferredFramesPerSecond != preferred { link.preferredFramesPerSecond = preferred }
    }

    /// Playing is over (ended or failed): the link pauses and the playhead stays.
    private func stop(_ link: DisplayLink) {
        isPlaying = false
        timeline = shown?.time ?? timeline
        anchor = nil
        decoder?.schedule(nil)
        link.isPaused = true
    }

    /// Tells the decoder the schedule the anchor fixes (the sound follows it), or that the
    /// playhead stands still (rate 0).
    private func schedule(_ now: Double) {
        guard let anchor else { return }
        decoder?.schedule(rate > 0 ? SoundSchedule(clock: now, timeline: anchor.timeline, isRealTime: !context.clockIsVirtual) : nil)
    }

    /// Applies ``isMuted`` and ``volume``: the first unmuting asks the decoder for sound
    /// (not on a virtual clock, which the wall's audio device cannot follow).
    private func updateSound() {
        guard let decoder else { return }
        decoder.setSoundVolume(volume, muted: isMuted)
        guard !isMuted, !soundAsked else { return }
        soundAsked = true
        if context.clockIsVirtual && soundFollowsWall {
            soundLogged = true
            context.logger.info("video \(source): no sound on a virtual clock (a recording or a test)")
            return
        }
        soundOn = true
        if rate > 0 && rate != 1 {
            decoder.playbackRate = rate
            decoder.enableSound()
            seek(to: currentTime)
        } else {
            decoder.enableSound()
        }
    }

    /// What a test's tap has received since the last call (see ``VideoDecoder``'s).
    func tappedSound() -> [Float]? { decoder?.tappedSound(seconds: 0.1) }

    /// The next buffer a tap has received, waiting at most `seconds`; safe from another thread
    /// (it touches only the pipeline).
    package func tappedSoundBuffer(seconds: Double) -> (samples: [Float], time: Double?)? {
        decoder?.tappedSoundBuffer(seconds: seconds)
    }

    /// Called when a frame is shown: its place in the clip and the vblank it is shown at (the
    /// link's target time). For measuring sound against pictures.
    package var onFrameShown: ((_ position: Double, _ vblank: Double) -> Void)?

    /// Logs once where the sound goes, or why there is none; and once more if its sink fails
    /// later (the branch is taken out and the pictures play on).
    private func logSound(_ decoder: VideoDecoder) {
        if let failure = decoder.soundFailure {
            soundLogged = true
            statistics.soundSink = nil
            context.logger.error("video \(source): no sound: \(failure)")
        } else if statistics.soundSink == nil, let sink = decoder.soundSink {
            statistics.soundSink = sink
            context.logger.info("video \(source): sound to \(sink) (\(soundSinkDescription))")
        } else if statistics.soundSink == nil && sentReady && !decoder.hasSoundTrack {
            soundLogged = true
            context.logger.info("video \(source): the clip has no sound")
        }
    }
}
