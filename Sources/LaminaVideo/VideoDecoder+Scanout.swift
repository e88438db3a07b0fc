import CLaminaGStreamer
import LaminaDisplay

extension VideoDecoder {
    /// How many buffers a decoder writing into scanout memory is lent: the frames queued
    /// (``queueLength``), the sink's two, the one being converted, and the frames the loop
    /// holds (shown by the layer, on the plane, in the flip in flight), with one to spare.
    public static var scanoutBufferCount: Int { queueLength + 6 }

    /// Has `videoconvert` write the frames from now on straight into `buffers` (memory the
    /// display's overlay plane scans out, decision 148), or, with nil, into GStreamer's own
    /// buffers again. Frames already decoded stay where they are. The buffers are used only
    /// while the frames are their size; they are held (and their set with them) as long as
    /// GStreamer or a frame uses one. Returns false when GStreamer cannot use them.
    @discardableResult
    public func writeFrames(into buffers: ScanoutBuffers?) -> Bool {
        guard let scanoutOffer else { return false }
        guard let buffers else {
            lamina_gst_scanout_offer_set(scanoutOffer, nil)
            return true
        }
        let lent = buffers.buffers.map {
            lamina_scanout_buffer(data: $0.memory.baseAddress?.assumingMemoryBound(to: UInt8.self), size: $0.memory.count,
                                  pitch: Int32($0.pitch))
        }
        // The pool holds the set until GStreamer has let go of every buffer in it.
        let context = Unmanaged.passRetained(buffers).toOpaque()
        let release: @convention(c) (UnsafeMutableRawPointer?) -> Void = { context in
            if let context { Unmanaged<ScanoutBuffers>.fromOpaque(context).release() }
        }
        guard let pool = lamina_gst_scanout_pool_new(lent, Int32(lent.count), Int32(buffers.width), Int32(buffers.height),
                                                     release, context) else {
            Unmanaged<ScanoutBuffers>.fromOpaque(context).release()
            return false
        }
        lamina_gst_scanout_offer_set(scanoutOffer, pool)
        lamina_gst_scanout_pool_unref(pool)
        return true
    }
}
