import Foundation
import LaminaPixels

/// A video clip whose every frame is known, made by GStreamer's own tools in the test:
/// `videotestsrc`'s 75 % SMPTE bars, 320×240 at 30 frames a second, moving left ``step``
/// pixels a frame, so frame k shows the white-to-yellow edge of the top bars at
/// x = (46 − step·k) mod 320 (46 in frame 0, where the second of seven bars starts).
public enum SweepClip {
    public static let width = 320, height = 240, frames = 30, step = 8

    /// The sample rate of a clip's sound.
    public static let soundRate = 48_000

    /// The clip written in `folder` as `name`, encoded by `encoder` (`gst-launch-1.0`'s
    /// words) and muxed by `muxer`: VP9 in WebM unless told. With a `tone`, the clip has a
    /// sound track as long as its pictures: a sine of that many hertz at half of full scale,
    /// mono at ``soundRate``, in Opus.
    public static func make(in folder: String = NSTemporaryDirectory(), name: String? = nil,
                            encoder: String = "vp9enc deadline=1 min-quantizer=4 max-quantizer=20",
                            muxer: String = "webmmux", tone: Double? = nil) throws -> String {
        let path = folder + "/" + (name ?? "lamina-sweep-\(UUID().uuidString.prefix(8)).webm")
        let sound = tone.map { hertz in
            ["audiotestsrc", "num-buffers=\(frames)", "samplesperbuffer=\(soundRate / 30)", "freq=\(hertz)", "volume=0.5", "!",
             "audio/x-raw,rate=\(soundRate),channels=1", "!", "opusenc", "bitrate=128000", "!", "mux."]
        } ?? []
        try gstLaunch(["videotestsrc", "num-buffers=\(frames)", "pattern=smpte75", "horizontal-speed=\(step)", "!",
                       "video/x-raw,width=\(width),height=\(height),framerate=30/1", "!"]
                      + encoder.split(separator: " ").map(String.init)
                      + ["!", muxer, "name=mux", "!", "filesink", "location=\(path)"] + sound)
        guard FileManager.default.fileExists(atPath: path) else { throw SweepClipError(reason: "gst-launch-1.0 wrote no \(path)") }
        return path
    }

    /// Runs `gst-launch-1.0 -q` with `pipeline`'s words (a test's clips and images are made
    /// this way); throws with its exit status and what it printed when it fails.
    public static func gstLaunch(_ pipeline: [String]) throws {
        let result = try ChildProcess("/usr/bin/gst-launch-1.0", ["-q"] + pipeline).finish()
        guard result.status == 0 else {
            throw SweepClipError(reason: "gst-launch-1.0 failed (\(result.status)): \(result.stderr.prefix(300))")
        }
    }

    /// Which frame `screen` shows with the clip drawn at its own size from (`x`, `y`): from
    /// where the top bars' white-to-yellow edge is (blue falls from 191 to 0 under red 191);
    /// nil when there is no such edge (a black or a foreign picture).
    public static func frameShown(_ screen: PixelBuffer, x originX: Int = 0, y originY: Int = 0) -> Int? {
        let y = originY + height / 3
        func channel(_ x: Int, _ shift: UInt32) -> Int { Int(screen[originX + x, y] >> shift & 0xFF) }
        func white(_ x: Int) -> Bool { channel(x, 0) > 120 && channel(x, 16) > 150 }
        func yellow(_ x: Int) -> Bool { channel(x, 0) < 60 && channel(x, 16) > 150 && channel(x, 8) > 150 }
        for x in 0..<width where white(x) && yellow((x + 3) % width) && white((x + width - 3) % width) {
            let shift = (46 - (x + 2) + 10 * width) % width
            return (shift + step / 2) / step % (width / step)
        }
        return nil
    }
}

/// The clip could not be made.
public struct SweepClipError: Error, CustomStringConvertible {
    public var reason: String
    public var description: String { reason }
}
