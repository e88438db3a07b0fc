import LaminaPixels

/// One decoded frame: opaque pixels, where it sits in the clip and when it is shown.
public struct VideoFrame: @unchecked Sendable {
    /// When the frame is shown on the decoder's timeline, in seconds: from the first frame
    /// after the start or the last seek (which starts at the seek's position), the passes of a
    /// loop one after another, so the timeline runs on through the loops with no gap.
    public let time: Double
    /// Where the frame is in the clip, in seconds from its first frame (its presentation time
    /// less the first frame's: an MP4 whose B-frames delay its first presentation time still
    /// starts at 0).
    public let position: Double
    /// How long the frame shows, in seconds (its buffer's duration, or the frame before's).
    public let duration: Double
    /// Which pass of a loop it belongs to, from 0 at the start or the last seek.
    public let pass: Int
    /// The pixels, ARGB8888 with an opaque alpha, as the rasterizer draws them.
    public let image: PixelBuffer
}
