import CLaminaGStreamer
import Dispatch
import LaminaPixels
import LaminaSystem
import Synchronization

/// Decodes a video with GStreamer on threads of its own (GStreamer's, and one named
/// `lamina-video` that takes its frames) and hands finished frames to the loop: a bounded
/// queue (``queueLength`` frames; decoding waits while it is full), taken a frame at a time
/// as the player's clock reaches each, and a ``WakeupEvent`` that turns readable when a
/// frame, the end or an error arrives.
///
/// GStreamer is loaded the first time a decoder is made (`dlopen`), so a daemon that never
/// plays a video never maps it. `uridecodebin` picks the demuxer and the decoder (hardware
/// ones where the board has their plugins); `videoconvert` gives BGRA with an opaque alpha,
/// which is the rasterizer's ARGB8888 in memory, so a frame is one copy away from drawable. The pipeline runs unsynchronised: the loop, paced by the display's flips, decides
/// when each frame is shown. A looping decoder seeks back to the start the moment the stream
/// ends, while the last frames are still queued, so the next pass follows without a gap.
public final class VideoDecoder: @unchecked Sendable {
    /// Decoded frames waiting for the loop, at most.
    public static let queueLength = 4
    /// The most pixels a frame may have (4096 × 4096, as an image in a scene file: 64 MiB a
    /// frame); a larger video is a failure, not five frames of gigabytes.
    public static let maximumFramePixels = 4096 * 4096

    /// The source being decoded.
    public let source: VideoSource
    /// Readable when frames, the end of the stream or an error have arrived (reset by
    /// ``waitForFrames(through:after:seconds:)``; the loop takes frames at each display frame
    /// while a video plays and needs no wakeup).
    public let wakeup: WakeupEvent

    let pipeline: UnsafeMutableRawPointer
    private let sink: UnsafeMutableRawPointer
    /// The clip's sound track and the branch playing it once asked (`lamina_gst_sound_new`).
    let sound: UnsafeMutableRawPointer
    /// The probe offering ``writeFrames(into:)``'s buffers to `videoconvert` (nil when it
    /// could not be made: frames then always come in GStreamer's own buffers).
    let scanoutOffer: UnsafeMutableRawPointer?
    let state: Mutex<State>
    /// Held while the pipeline's state is set for sound (``hold(_:)`` on the loop's thread,
    /// ``settleAfterSoundFailure()`` on the decoding thread), so the two cannot cross.
    let stateChanges = Mutex(())
    /// A free place in the queue: the decoding thread takes one per frame, the loop gives it
    /// back when it takes the frame. (Made at 0 and given its places in `init`: libdispatch
    /// traps when a semaphore is freed below the value it was made with.)
    private let room = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)
    /// Wakes the thread sleeping after the end: signalled once each time ``isEnded`` turns
    /// false (a seek, looping turned on) and at the stop.
    let nudge = DispatchSemaphore(value: 0)

    struct State {
        var frames: [VideoFrame] = []
        var ended = false
        var failure: String?
        var stopping = false
        var loops: Bool
        /// A seek asked for and not yet made, in seconds.
        var pendingSeek: Double?
        /// The first frame's presentation time in nanoseconds, once one is decoded.
        var origin: UInt64?
        /// Where the current pass starts on the timeline, and which pass it is.
        var passStart = 0.0
        var pass = 0
        /// Frames queued in the current pass (a loop goes back only after one: a stream that
        /// ends with none would seek back forever).
        var passFrames = 0
        /// The last frame queued: its timeline time and duration.
        var lastTime: Double?
        var lastDuration = 1.0 / 30
        var decoded = 0
        /// Frames copied out of GStreamer (its buffer could not be held).
        var copied = 0
        var decoderName: String?
        /// The player's schedule, nil while it is paused (see ``schedule(_:)``).
        var schedule: SoundSchedule?
        /// Whether sound was asked for, and whether the pipeline is paused for it.
        var soundWanted = false
        var soundHeld = false
        /// Why the clip plays without sound, once its branch failed.
        var soundFailure: String?
        /// Whether the pipeline's state was set again after the sound failed
        /// (``settleAfterSoundFailure()``).
        var settledAfterSoundFailure = false
        /// The rate seeks set (the segment's rate, which a sound branch plays at).
        var rate = 1.0
        /// The flush epoch the sound is in: where its pass starts on the timeline and the
        /// position the last flushing seek went to (the sound's running time 0).
        var epochPassStart = 0.0
        var epochSegmentStart = 0.0
        /// Seeks GStreamer refused before the first frame, to be made again.
        var seekRetries = 0
        /// A seek made while paused for sound: its frame comes as the preroll sample.
        var prerollWanted = false
        /// The presentation time of a frame taken as a preroll sample: the same buffer comes
        /// again as the first sample when the pipeline plays, and is passed over.
        var prerollPTS: UInt64?

        /// The timeline time of the sound's running time 0 in the current epoch.
        var epochStart: Double { epochPassStart + epochSegmentStart - Double(origin ?? 0) / 1e9 }
    }

    /// Opens `source` and starts decoding it; a decoder that `loops` plays it again from the
    /// start each time it ends. Throws when GStreamer cannot be loaded or the pipeline cannot
    /// be made; errors met while playing are ``failure``.
    public convenience init(source: VideoSource, loops: Bool = false) throws(VideoError) {
        try self.init(source: source, loops: loops, readsInPlace: true)
    }

    /// As `init(source:loops:)`; `readsInPlace` false copies every frame out of GStreamer
    /// (a test holds the two ways to the same pixels); `soundSink` is the element the sound
    /// goes to when asked for (a test's tap instead of the audio device).
    init(source: VideoSource, loops: Bool, readsInPlace: Bool, soundSink: String = VideoDecoder.audioDevice) throws(VideoError) {
        self.readsInPlace = readsInPlace
        var message = [CChar](repeating: 0, count: 512)
        guard lamina_gst_load(&message, message.count) == 0 else {
            throw VideoError("GStreamer cannot be loaded: \(Self.text(message))")
        }
        let description = "uridecodebin name=lamina-decode uri=\(source.uri) ! videoconvert ! video/x-raw,format=BGRA ! "
            + "appsink name=lamina-frames sync=false max-buffers=2 drop=false"
        guard let pipeline = lamina_gst_parse_launch(description, &message, message.count) else {
            throw VideoError("\(source): \(Self.text(message))")
        }
        guard let sink = lamina_gst_bin_get_by_name(pipeline, "lamina-frames") else {
            lamina_gst_object_unref(pipeline)
            throw VideoError("\(source): the pipeline has no frame sink")
        }
        guard let sound = lamina_gst_sound_new(pipeline, "lamina-decode", soundSink) else {
            lamina_gst_object_unref(sink)
            lamina_gst_object_unref(pipeline)
            throw VideoError("\(source): the pipeline has no decoder to take sound from")
        }
        do {
            wakeup = try WakeupEvent()
        } catch {
            lamina_gst_sound_free(sound)
            lamina_gst_object_unref(sink)
            lamina_gst_object_unref(pipeline)
            throw VideoError("\(source): no wakeup descriptor: \(error)")
        }
        lamina_gst_use_system_clock(pipeline)
        scanoutOffer = lamina_gst_scanout_offer_new(sink)
        self.source = source
        self.pipeline = pipeline
        self.sink = sink
        self.sound = sound
        self.state = Mutex(State(loops: loops))
        for _ in 0..<Self.queueLength { room.signal() }
        if lamina_gst_element_set_state(pipeline, 4) == 0 {
            let reason = Self.popError(pipeline) ?? "it cannot start playing"
            // No thread to wait for. Swift runs `deinit` for an initializer that throws once
            // every property is set, and it frees the pipeline.
            finished.signal()
            throw VideoError("\(source): \(reason)")
        }
        // The thread holds the decoder unretained: `deinit` stops it and waits for it, so the
        // decoder outlives every use the thread makes of it, and dropping the decoder stops it.
        let decoder = UnretainedDecoder(reference: Unmanaged.passUnretained(self))
        do {
            try DedicatedThread.start(named: "lamina-video") { decoder.reference._withUnsafeGuaranteedRef { $0.pull() } }
        } catch {
            finished.signal()                           // no thread to wait for; `deinit` frees the pipeline
            throw VideoError("\(source): no decoding thread: \(error)")
        }
    }

    deinit {
        state.withLock { $0.stopping = true }
        nudge.signal()                                  // a thread sleeping after the end wakes and sees the stop
        room.signal()                                   // a thread waiting for room goes on and sees the stop
        lamina_gst_element_set_state(pipeline, 1)       // NULL: a pull waiting for a sample returns
        finished.wait()
        lamina_gst_sound_free(sound)
        lamina_gst_object_unref(sink)
        lamina_gst_object_unref(pipeline)
    }

    /// Takes queued frames from the front, in order, while `shouldTake` says so (the player
    /// takes those whose time has come), which frees their places so decoding goes on.
    public func takeFrames(while shouldTake: (VideoFrame) -> Bool) -> [VideoFrame] {
        let taken = state.withLock { state -> [VideoFrame] in
            let count = state.frames.prefix { shouldTake($0) }.count
            defer { state.frames.removeFirst(count) }
            return Array(state.frames.prefix(count))
        }
        for _ in taken { room.signal() }
        return taken
    }

    /// Every queued frame.
    public func takeFrames() -> [VideoFrame] { takeFrames { _ in true } }

    /// The time of the first queued frame, if any.
    public var nextFrameTime: Double? { state.withLock { $0.frames.first?.time } }

    /// Waits until the frames queued reach past `time` (the last one ends after it), the
    /// queue is full or decoding is over, at most `seconds` for each frame; `end` is where the
    /// frame shown ends, for an empty queue. The player on a virtual clock (a test, a
    /// recording) calls it so every frame due shows, whatever the decoding thread's speed.
    public func waitForFrames(through time: Double, after end: Double, seconds: Double) {
        while true {
            wakeup.reset()
            let waiting = state.withLock { state -> Bool in
                let frontier = state.frames.last.map { $0.time + $0.duration } ?? end
                return frontier <= time && state.frames.count < Self.queueLength && !state.ended && state.failure == nil
            }
            guard waiting, wakeup.wait(seconds: seconds) else { return }
        }
    }

    /// Plays from `position` seconds into the clip: what is queued is dropped, and the next
    /// frame is the one at the position, at that time on a timeline that starts there.
    public func seek(to position: Double) {
        let (dropped, wasEnded) = state.withLock { state -> (Int, Bool) in
            state.pendingSeek = max(0, position)
            defer { state.frames.removeAll(keepingCapacity: true); state.ended = false }
            return (state.frames.count, state.ended)
        }
        for _ in 0..<dropped { room.signal() }
        if wasEnded { nudge.signal() }
    }

    /// Whether the decoder starts again from the start when the stream ends.
    public var loops: Bool {
        get { state.withLock { $0.loops } }
        set {
            let wasEnded = state.withLock { state -> Bool in
                state.loops = newValue
                defer { if newValue { state.ended = false } }
                return newValue && state.ended
            }
            if wasEnded { nudge.signal() }
        }
    }

    /// Whether the stream has ended (every frame decoded; the last ones may still be queued).
    public var isEnded: Bool { state.withLock { $0.ended } }

    /// What stopped decoding, when GStreamer reported an error.
    public var failure: String? { state.withLock { $0.failure } }

    /// Frames decoded so far.
    public var framesDecoded: Int { state.withLock { $0.decoded } }

    /// What a player reads of the decoder after taking its frames at a display frame, read
    /// under one lock (six reads, each taking it, were a tenth of the player's tick).
    public struct Progress: Sendable, Equatable {
        /// ``framesDecoded``, ``framesCopied`` and ``decoderName``.
        public var decoded: Int, copied: Int, decoderName: String?
        /// ``failure``, ``isEnded`` and ``nextFrameTime``.
        public var failure: String?, isEnded: Bool, nextFrameTime: Double?
    }

    /// The decoder's counters and state now, together.
    public var progress: Progress {
        state.withLock {
            Progress(decoded: $0.decoded, copied: $0.copied, decoderName: $0.decoderName, failure: $0.failure,
                     isEnded: $0.ended, nextFrameTime: $0.frames.first?.time)
        }
    }
    /// Whether frames are read in place from GStreamer's buffers where it lets them be held.
    let readsInPlace: Bool

    /// Frames copied out of GStreamer's buffers so far (the rest are read in place).
    public var framesCopied: Int { state.withLock { $0.copied } }

    /// The GStreamer element decoding the video (`avdec_h264`, `vp9dec`, `v4l2h264dec`,
    /// `vah264dec`…), once the first frame is out; never a secret.
    public var decoderName: String? { state.withLock { $0.decoderName } }

    /// The decoding thread: a frame at a time while there is room for it.
    fileprivate func pull() {
        defer { finished.signal() }
        while true {
            room.wait()
            let (stopping, seek) = state.withLock { ($0.stopping, $0.pendingSeek) }
            if stopping { return }
            if let seek {
                settleAfterSoundFailure()
                performSeek(to: seek)
            }
            guard let sample = nextSample() else {
                room.signal()
                if let error = popError() {
                    finish(failure: "\(source): \(error)")
                    return
                }
                settleAfterSoundFailure()
                if lamina_gst_app_sink_is_eos(sink) != 0 && state.withLock({ $0.pendingSeek == nil }) {
                    if loops {
                        waitForPassEnd()
                        if state.withLock({ $0.pendingSeek != nil || $0.stopping }) { continue }   // made at the top
                        if loopBack() { continue }
                    }
                    finish(failure: nil)
                    if !waitWhileEnded() { return }
                    continue
                }
                if state.withLock({ $0.stopping }) { return }
                continue
            }
            let queued = queue(sample.sample, preroll: sample.preroll)
            lamina_gst_sample_unref(sample.sample)
            if let failure = queued {
                finish(failure: "\(source): \(failure)")
                return
            }
            wakeup.signal()
        }
    }

    /// The next sample: the preroll sample after a seek made while paused for sound (the
    /// seek's frame), else the next frame decoded, waiting at most a tenth of a second. A
    /// sample that is the preroll frame again (as the pipeline plays) is passed over.
    private func nextSample() -> (sample: UnsafeMutableRawPointer, preroll: Bool)? {
        if state.withLock({ $0.prerollWanted && $0.soundHeld }) {
            guard let sample = lamina_gst_app_sink_try_pull_preroll(sink, 100_000_000) else { return nil }
            state.withLock { $0.prerollWanted = false }
            return (sample, true)
        }
        guard let sample = lamina_gst_app_sink_try_pull_sample(sink, 100_000_000) else { return nil }
        var width: Int32 = 0, height: Int32 = 0, stride: Int32 = 0, pts: UInt64 = 0, duration: UInt64 = 0
        let repeated = state.withLock { state -> Bool in
            guard let preroll = state.prerollPTS else { return false }
            state.prerollPTS = nil
            return lamina_gst_sample_describe(sample, &width, &height, &stride, &pts, &duration) == 0 && pts == preroll
        }
        if repeated {
            lamina_gst_sample_unref(sample)
            return nil
        }
        return (sample, false)
    }

    /// Makes the seek asked for: frames after it start a timeline at its position, and the
    /// sound's running time starts there (its base time set before the flush, so no sound of
    /// the new epoch is timed by the old).
    private func performSeek(to position: Double) {
        let rate = state.withLock { state -> Double in
            state.epochPassStart = 0
            state.epochSegmentStart = position
            state.prerollWanted = state.soundHeld
            state.prerollPTS = nil
            applySoundBaseTime(state)
            return state.rate
        }
        let accepted = lamina_gst_seek(pipeline, UInt64(position * 1e9), rate, 1) == 1
        state.withLock { state in
            // A demuxer refuses a seek until it has read the clip's head: one asked for before
            // the first frame is made again after the next pull (a frame decoded meanwhile is
            // passed over), for at most five seconds.
            if !accepted && state.decoded == 0 && state.seekRetries < 50 {
                state.seekRetries += 1
                return
            }
            state.pendingSeek = nil
            state.pass = 0
            state.passStart = 0
            state.passFrames = 0
            state.lastTime = nil
            if !accepted { state.failure = "\(source): GStreamer refused to seek to \(position) s" }
        }
    }

    /// Decoding is over: the stream ended (`failure` nil) or GStreamer failed.
    func finish(failure: String?) {
        state.withLock { state in
            if let failure { state.failure = failure } else { state.ended = true }
        }
        wakeup.signal()
    }

    /// A sample's pixels as a frame (opaque: `videoconvert` gives a video without alpha an
    /// alpha of 255), and queued: read in place from GStreamer's buffer, held until the frame
    /// goes away, where GStreamer lets it be held (`lamina_gst_sample_hold`); else copied.
    /// Nil when queued, else why the frame cannot be shown.
    private func queue(_ sample: UnsafeMutableRawPointer, preroll: Bool) -> String? {
        var width: Int32 = 0, height: Int32 = 0, stride: Int32 = 0, pts: UInt64 = 0, duration: UInt64 = 0
        guard lamina_gst_sample_describe(sample, &width, &height, &stride, &pts, &duration) == 0 else {
            return "a decoded frame has no size"
        }
        guard Int(width) * Int(height) <= Self.maximumFramePixels else {
            return "its frames are \(width)x\(height), more than the \(Self.maximumFramePixels) pixels a video may have"
        }
        let scanoutPitch = lamina_gst_sample_scanout_pitch(sample)        // a frame written into lent buffers
        if scanoutPitch > 0 { stride = scanoutPitch }
        let image: PixelBuffer
        var data: UnsafePointer<UInt8>?
        if readsInPlace, let held = lamina_gst_sample_hold(sample, Int(stride) * Int(height), &data), let data {
            let pixels = UnsafeMutableRawPointer(mutating: data).assumingMemoryBound(to: UInt32.self)
            image = PixelBuffer(borrowing: pixels, width: Int(width), height: Int(height), stride: Int(stride) / 4) {
                lamina_gst_sample_release(held)
            }
        } else {
            image = PixelBuffer(unclearedWidth: Int(width), height: Int(height))   // every row is copied in
            let copied = image.pixels.withMemoryRebound(to: UInt8.self) { bytes in
                lamina_gst_sample_copy_rows(sample, stride, width * 4, height, bytes.baseAddress, Int32(image.stride * 4))
            }
            guard copied == 0 else { return "a decoded frame could not be read" }
            state.withLock { $0.copied += 1 }
        }
        image.isOpaque = true                       // videoconvert gives a video without alpha an alpha of 255
        var name: String?
        if state.withLock({ $0.decoderName == nil }) {
            var buffer = [CChar](repeating: 0, count: 128)
            if lamina_gst_video_decoder_name(pipeline, &buffer, buffer.count) == 1 { name = Self.text(buffer) }
        }
        state.withLock { state in
            if state.pendingSeek != nil { room.signal(); return }   // decoded before a seek asked for now
            // The clip's first frame gives the origin; a first frame after a seek does not
            // (it is not the first), and positions count from 0 until the clip's start is seen.
            if state.origin == nil, state.epochSegmentStart == 0, pts != .max {
                state.origin = pts
                if pts != 0 { applySoundBaseTime(state) }       // the epoch's start moves with it
            }
            let origin = state.origin ?? 0
            if preroll { state.prerollPTS = pts }
            let position = pts == .max ? (state.lastTime.map { $0 + state.lastDuration - state.passStart } ?? 0)
                : (pts >= origin ? Double(pts - origin) / 1e9 : -Double(origin - pts) / 1e9)
            let time = state.passStart + position
            // A frame at the time of the one before replaces it while it waits: after an
            // accurate seek the decoder clips the frame straddling the position to start there
            // (WebM's millisecond times make frame 14 of 30 per second end at 0.5003 s), so
            // it and the frame at the position have one time, and the later is the one meant.
            if let last = state.frames.last, abs(last.time - time) < 1e-9 {
                state.frames.removeLast()
                room.signal()
            }
            let length = duration != .max && duration > 0 ? Double(duration) / 1e9
                : state.lastTime.map { max(1e-3, time - $0) } ?? state.lastDuration
            state.lastTime = time
            state.lastDuration = length
            state.decoded += 1
            state.passFrames += 1
            if let name { state.decoderName = name }
            state.frames.append(VideoFrame(time: time, position: position, duration: length, pass: state.pass, image: image))
        }
        return nil
    }

    /// A NUL-terminated message from the C side.
    static func text(_ buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The first error on the bus that stops the video. One from the sound branch takes the
    /// branch out (the video plays on without sound) and is kept as ``soundFailure``.
    private func popError() -> String? {
        var message = [CChar](repeating: 0, count: 512)
        while true {
            switch lamina_gst_pop_error_sorted(pipeline, sound, &message, message.count) {
            case 2:
                lamina_gst_sound_detach(sound)
                state.withLock { $0.soundFailure = Self.text(message) }
                wakeup.signal()
            case 1: return Self.text(message)
            default: return nil
            }
        }
    }

    private static func popError(_ pipeline: UnsafeMutableRawPointer) -> String? {
        var message = [CChar](repeating: 0, count: 512)
        return lamina_gst_pop_error(pipeline, &message, message.count) == 1 ? Self.text(message) : nil
    }
}

/// Carries the decoder to its thread without a reference count; the decoder's own state is
/// behind its mutex.
private struct UnretainedDecoder: @unchecked Sendable {
    let reference: Unmanaged<VideoDecoder>
}
