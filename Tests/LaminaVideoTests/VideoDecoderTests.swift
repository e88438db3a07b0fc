import Foundation
import LaminaPixels
import LaminaSystem
import LaminaTestSupport
import Testing
@testable import LaminaVideo

/// Decoding clips GStreamer itself makes in the test: `videotestsrc`'s 75 % SMPTE colour bars,
/// 30 frames at 30 per second, encoded to VP9 (WebM) and H.264 (MP4) with Debian's encoders.
@Suite("Video decoding with GStreamer", .serialized)
struct VideoDecoderTests {
    static let width = 320, height = 240, frames = 30

    /// A clip of the SMPTE bars encoded by `encoder ! muxer`, written by `gst-launch-1.0`.
    static func clip(_ encoder: String, _ muxer: String, suffix: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("lamina-clip-\(UUID().uuidString).\(suffix)").path
        try SweepClip.gstLaunch(["videotestsrc", "num-buffers=\(frames)", "pattern=smpte75", "!",
                             "video/x-raw,width=\(width),height=\(height),framerate=30/1", "!"]
            + encoder.split(separator: " ").map(String.init) + ["!", muxer, "!", "filesink", "location=\(path)"])
        return path
    }

    /// Every frame of `source`, taken as the loop takes them: waiting on the decoder's wakeup
    /// descriptor, then taking what it queued, until the stream ends.
    static func decodeAll(_ source: VideoSource, readsInPlace: Bool = true) throws -> [VideoFrame] {
        try decodeAll(VideoDecoder(source: source, loops: false, readsInPlace: readsInPlace))
    }

    static func decodeAll(_ decoder: VideoDecoder) throws -> [VideoFrame] {
        var frames: [VideoFrame] = []
        while true {
            var poll = pollfd(fd: decoder.wakeup.descriptor, events: Int16(POLLIN), revents: 0)
            _ = Foundation.poll(&poll, 1, 60_000)
            frames += decoder.takeFrames()
            if let failure = decoder.failure { throw VideoError(failure) }
            if decoder.isEnded {
                frames += decoder.takeFrames()
                return frames
            }
        }
    }

    /// The colour of pixel (`x`, `y`) as (red, green, blue).
    static func rgb(_ image: PixelBuffer, _ x: Int, _ y: Int) -> (Int, Int, Int) {
        let p = image[x, y]
        return (Int(p >> 16 & 0xFF), Int(p >> 8 & 0xFF), Int(p & 0xFF))
    }

    @Test("VP9 in WebM and H.264 in MP4: every frame, in order, at its time, the bars in their colours",
          arguments: [("vp9enc deadline=1", "webmmux", "webm"), ("x264enc", "mp4mux", "mp4")])
    func decodesEveryFrame(encoder: String, muxer: String, suffix: String) throws {
        let path = try Self.clip(encoder, muxer, suffix: suffix)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let frames = try Self.decodeAll(try VideoSource(path))
        #expect(frames.count == Self.frames)
        for (k, frame) in frames.enumerated() {
            #expect(frame.image.width == Self.width && frame.image.height == Self.height)
            #expect(abs(frame.time - Double(k) / 30) < 0.001, "frame \(k) at \(frame.time) s")
        }
        // The SMPTE pattern's top two thirds: seven bars of 75 % white, yellow, cyan, green,
        // magenta, red and blue (ITU-R BT.801's colours, 191 for 75 %), each a seventh wide.
        let bars = [(191, 191, 191), (191, 191, 0), (0, 191, 191), (0, 191, 0), (191, 0, 191), (191, 0, 0), (0, 0, 191)]
        for frame in [frames.first, frames.last].compactMap({ $0 }) {
            for (k, expected) in bars.enumerated() {
                let x = Self.width * (2 * k + 1) / 14
                let found = Self.rgb(frame.image, x, Self.height / 3)
                #expect(abs(found.0 - expected.0) <= 12 && abs(found.1 - expected.1) <= 12 && abs(found.2 - expected.2) <= 12,
                        "bar \(k) at x \(x): \(found), expected about \(expected)")
            }
            #expect(frame.image[0, 0] >> 24 == 0xFF, "opaque")
        }
    }

    @Test("frames read in place from GStreamer's buffers are the frames copied out of them, pixel for pixel; none is copied")
    func readInPlace() throws {
        let path = try SweepClip.make()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let inPlace = try VideoDecoder(source: try VideoSource(path), loops: false, readsInPlace: true)
        let held = try Self.decodeAll(inPlace)
        let copying = try VideoDecoder(source: try VideoSource(path), loops: false, readsInPlace: false)
        let copied = try Self.decodeAll(copying)
        #expect(held.count == SweepClip.frames && copied.count == SweepClip.frames)
        #expect(inPlace.framesCopied == 0, "videoconvert's buffers come from a pool without a limit: every frame held")
        #expect(copying.framesCopied == SweepClip.frames)
        for (a, b) in zip(held, copied) {
            #expect(a.time == b.time && Pixels.differing(a.image, b.image) == 0, "frame at \(a.time)")
            #expect(SweepClip.frameShown(a.image) == Int((a.time * 30).rounded()))
        }
    }

    @Test("a source is an absolute path or a URL of a known scheme, bounded; a pipeline's own characters are percent-encoded")
    func sources() throws {
        #expect(try VideoSource("/srv/signage/loop one.mp4").uri == "file:///srv/signage/loop%20one.mp4")
        #expect(try VideoSource("/a/b!c\"d").uri == "file:///a/b%21c%22d")
        #expect(try VideoSource("rtsp://camera.local:554/stream").uri == "rtsp://camera.local:554/stream")
        #expect(try VideoSource("/v/café.webm").uri == "file:///v/caf%C3%A9.webm")
        for (text, reason) in [("", "1…4096 bytes"), ("clip.mp4", "neither an absolute path"),
                               ("ftp://host/a.mp4", "neither an absolute path"), ("/a\u{0}b", "no control characters"),
                               ("/a\nb", "no control characters"), (String(repeating: "a", count: 4097), "1…4096 bytes")] {
            #expect(throws: VideoError.self) { try VideoSource(text) }
            do { _ = try VideoSource(text) } catch { #expect(error.description.contains(reason), "\(error)") }
        }
    }

    @Test("a file that is not a video is an error from GStreamer, not a crash or a hang")
    func notAVideo() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("lamina-not-video-\(UUID().uuidString).mp4").path
        try Data("this is not a video".utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(throws: VideoError.self) { _ = try Self.decodeAll(try VideoSource(path)) }
        #expect(throws: VideoError.self) { _ = try Self.decodeAll(try VideoSource("/nonexistent/lamina/clip.webm")) }
    }

    @Test("frames over 4096 × 4096 pixels are a failure, not gigabytes queued")
    func oversizedFrames() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("lamina-huge-\(UUID().uuidString).png").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try SweepClip.gstLaunch(["videotestsrc", "num-buffers=1", "pattern=black", "!", "video/x-raw,width=4097,height=4096", "!",
                             "pngenc", "compression-level=1", "!", "filesink", "location=\(path)"])
        #expect { _ = try Self.decodeAll(try VideoSource(path)) } throws: { error in
            "\(error)".contains("its frames are 4097x4096, more than the 16777216 pixels a video may have")
        }
    }

    @Test("a clip of one frame loops: each pass one frame, each right after the last")
    func oneFrameLoops() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("lamina-still-\(UUID().uuidString).webm").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try SweepClip.gstLaunch(["videotestsrc", "num-buffers=1", "!", "video/x-raw,width=64,height=48,framerate=30/1", "!",
                             "vp9enc", "!", "webmmux", "!", "filesink", "location=\(path)"])
        let decoder = try VideoDecoder(source: try VideoSource(path), loops: true)
        var frames: [VideoFrame] = []
        while frames.count < 5 {
            decoder.waitForFrames(through: .infinity, after: -.infinity, seconds: 30)
            try #require(decoder.failure == nil && !decoder.isEnded, "\(decoder.failure ?? "ended")")
            frames += decoder.takeFrames()
        }
        #expect(frames.prefix(5).map(\.pass) == [0, 1, 2, 3, 4])
        #expect(frames.prefix(5).allSatisfy { $0.position == 0 })
        #expect(zip(frames, frames.dropFirst()).allSatisfy { abs($1.time - $0.time - $0.duration) < 1e-9 }, "\(frames.map(\.time))")
    }

    @Test("a decoder takes its frames on a thread of its own, named lamina-video; dropped while frames are still coming, it stops that thread and frees its pipeline")
    func droppedEarly() throws {
        let path = try Self.clip("vp9enc deadline=1", "webmmux", suffix: "webm")
        defer { try? FileManager.default.removeItem(atPath: path) }
        for _ in 0..<5 {
            let decoder = try VideoDecoder(source: try VideoSource(path))
            var poll = pollfd(fd: decoder.wakeup.descriptor, events: Int16(POLLIN), revents: 0)
            _ = Foundation.poll(&poll, 1, 60_000)
            #expect(decoder.takeFrames().count <= VideoDecoder.queueLength)
            let threads = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
            let names = threads.compactMap { try? String(contentsOfFile: "/proc/self/task/\($0)/comm", encoding: .utf8) }
            #expect(names.contains("lamina-video\n"), "the decoder's thread is its own, named: \(Set(names))")
        }
    }
}
