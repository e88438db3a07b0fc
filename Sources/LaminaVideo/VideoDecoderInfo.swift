import CLaminaGStreamer

/// A video decoder GStreamer offers on this machine, as `lamina probe` lists it.
public struct VideoDecoderInfo: Codable, Equatable, Sendable {
    /// The element's name (`avdec_h264`, `vp9dec`, `v4l2h264dec`, `vah264dec`…).
    public var name: String
    /// Its rank: `uridecodebin` picks the highest-ranked decoder that takes the stream.
    public var rank: Int
    /// Its class (`Codec/Decoder/Video/Hardware` for a hardware decoder).
    public var kind: String
    /// Whether its class says it decodes in hardware (V4L2, VA-API and the like).
    public var isHardware: Bool { kind.contains("Hardware") }

    /// Every video decoder the registry lists at rank marginal or above, highest rank first.
    /// Loads GStreamer (which `lamina probe` may do; the daemon does it only for a video).
    public static func available() throws(VideoError) -> [VideoDecoderInfo] {
        var message = [CChar](repeating: 0, count: 512)
        guard lamina_gst_load(&message, message.count) == 0 else {
            throw VideoError("GStreamer cannot be loaded: \(VideoDecoder.text(message))")
        }
        var listing = [CChar](repeating: 0, count: 64 * 1024)
        _ = lamina_gst_video_decoders(&listing, listing.count)
        return VideoDecoder.text(listing).split(separator: "\n").compactMap { line in
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard fields.count == 3, let rank = Int(fields[1]) else { return nil }
            return VideoDecoderInfo(name: String(fields[0]), rank: rank, kind: String(fields[2]))
        }
    }
}
