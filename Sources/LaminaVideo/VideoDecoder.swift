import CLaminaGStreamer
import Dispatch
import LaminaPixels
import LaminaSystem
import Synchronization

/// One decoded frame: opaque pixels and when it is shown, in seconds from the stream's first
/// frame (its presentation time less the first frame's: an MP4 whose B-frames delay its first
/// presentation time still starts at 0).
public struct VideoFrame: @unchecked Sendable {
    /// When the frame is shown, from the stream's first frame.
    public let time: Double
    /// The pixels, XRGB8888 with an opaque alpha, as the rasterizer draws them.
    public let image: PixelBuffer
}

/// Decodes a video with GStreamer on threads of its own and hands finished frames to the
/// loop: a bounded queue (``queueLength`` frames; decoding waits while it is full) and a
/// ``WakeupEvent`` that turns readable when a frame, the end or an error arrives.
///
/// GStreamer is loaded the first time a decoder is made (`dlopen`), so a daemon that never
/// plays a video never maps it. `uridecodebin` picks the demuxer and the decoder (hardware
/// ones where the board has their plugins); `videoconvert` gives BGRx, which is XRGB8888 in
/// memory. The pipeline runs unsynchronised: the loop, paced by the display's flips, decides
/// when each frame is shown.
public final class VideoDecoder: @unchecked Sendable {
    /// Decoded frames waiting for the loop, at most.
    public static let queueLength = 4

    /// The source being decoded.
    public let source: VideoSource
    /// Readable when frames, the end of the stream or an error wait for ``takeFrames()``.
    public let wakeup: WakeupEvent

    private let pipeline: UnsafeMutableRawPointer
    private let sink: UnsafeMutableRawPointer
    private let state = Mutex(State())
    /// A free place in the queue: the decoding thread takes one per frame, the loop gives it
    /// back when it takes the frame. (Made at 0 and given its places in `init`: libdispatch
    /// traps when a semaphore is freed below the value it was made with.)
    private let room = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)

    private struct State {
        var frames: [VideoFrame] = []
        var ended = false
        var failure: String?
        var stopping = false
        /// The first frame's presentation time in nanoseconds, once one is decoded.
        var origin: UInt64?
    }

    /// Opens `source` and starts decoding it. Throws when GStreamer cannot be loaded or the
    /// pipeline cannot be made; errors met while playing are ``failure``.
    public init(source: VideoSource) throws(VideoError) {
        var message = [CChar](repeating: 0, count: 512)
        guard lamina_gst_load(&message, message.count) == 0 else {
            throw VideoError("GStreamer cannot be loaded: \(Self.text(message))")
        }
        let description = "uridecodebin uri=\(source.uri) ! videoconvert ! video/x-raw,format=BGRx ! "
            + "appsink name=lamina-frames sync=false max-buffers=2 drop=false"
        guard let pipeline = lamina_gst_parse_launch(description, &message, message.count) else {
            throw VideoError("\(source): \(Self.text(message))")
        }
        guard let sink = lamina_gst_bin_get_by_name(pipeline, "lamina-frames") else {
            lamina_gst_object_unref(pipeline)
            throw VideoError("\(source): the pipeline has no frame sink")
        }
        do {
            wakeup = try WakeupEvent()
        } catch {
            lamina_gst_object_unref(sink)
            lamina_gst_object_unref(pipeline)
            throw VideoError("\(source): no wakeup descriptor: \(error)")
        }
        self.source = source
        self.pipeline = pipeline
        self.sink = sink
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
        DispatchQueue.global().async { decoder.reference._withUnsafeGuaranteedRef { $0.pull() } }
    }

    deinit {
        state.withLock { $0.stopping = true }
        room.signal()                                   // a thread waiting for room goes on and sees the stop
        lamina_gst_element_set_state(pipeline, 1)       // NULL: a pull waiting for a sample returns
        finished.wait()
        lamina_gst_object_unref(sink)
        lamina_gst_object_unref(pipeline)
    }

    /// The frames decoded since the last call, in order (which frees their places in the
    /// queue, so decoding goes on).
    public func takeFrames() -> [VideoFrame] {
        wakeup.reset()
        let taken = state.withLock { state -> [VideoFrame] in
            defer { state.frames.removeAll(keepingCapacity: true) }
            return state.frames
        }
        for _ in taken { room.signal() }
        return taken
    }

    /// Whether the stream has ended (every frame decoded; the last ones may still be queued).
    public var isEnded: Bool { state.withLock { $0.ended } }

    /// What stopped decoding, when GStreamer reported an error.
    public var failure: String? { state.withLock { $0.failure } }

    /// The decoding thread: a frame at a time while there is room for it.
    fileprivate func pull() {
        defer { finished.signal() }
        while true {
            room.wait()
            if state.withLock({ $0.stopping }) { return }
            guard let sample = lamina_gst_app_sink_try_pull_sample(sink, 100_000_000) else {
                room.signal()
                if let error = Self.popError(pipeline) {
                    finish(failure: "\(source): \(error)")
                    return
                }
                if lamina_gst_app_sink_is_eos(sink) != 0 || state.withLock({ $0.stopping }) {
                    finish(failure: nil)
                    return
                }
                continue
            }
            let frame = Self.frame(from: sample) { pts in
                state.withLock { state in
                    let origin = state.origin ?? pts
                    state.origin = origin
                    return pts >= origin ? Double(pts - origin) / 1e9 : -Double(origin - pts) / 1e9
                }
            }
            lamina_gst_sample_unref(sample)
            guard let frame else {
                finish(failure: "\(source): a decoded frame could not be read")
                return
            }
            state.withLock { $0.frames.append(frame) }
            wakeup.signal()
        }
    }

    /// Decoding is over: the stream ended (`failure` nil) or GStreamer failed.
    private func finish(failure: String?) {
        state.withLock { state in
            if let failure { state.failure = failure } else { state.ended = true }
        }
        wakeup.signal()
    }

    /// A NUL-terminated message from the C side.
    private static func text(_ buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// A sample's pixels copied into a buffer of their own, alpha made opaque, shown at
    /// `time(pts)` seconds.
    private static func frame(from sample: UnsafeMutableRawPointer, time: (UInt64) -> Double) -> VideoFrame? {
        var width: Int32 = 0, height: Int32 = 0, stride: Int32 = 0, pts: UInt64 = 0
        guard lamina_gst_sample_describe(sample, &width, &height, &stride, &pts) == 0 else { return nil }
        let image = PixelBuffer(width: Int(width), height: Int(height))
        let copied = image.pixels.withMemoryRebound(to: UInt8.self) { bytes in
            lamina_gst_sample_copy_rows(sample, stride, width * 4, height, bytes.baseAddress, Int32(image.stride * 4))
        }
        guard copied == 0 else { return nil }
        for i in 0..<image.pixels.count { image.pixels[i] |= 0xFF00_0000 }   // BGRx leaves its x byte unset
        return VideoFrame(time: pts == .max ? 0 : time(pts), image: image)
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
