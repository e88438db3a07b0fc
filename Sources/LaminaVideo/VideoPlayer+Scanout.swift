import LaminaDisplay
import LaminaPixels

extension VideoPlayer {
    /// Presented frames a player's video may stay off the overlay plane (a badge passing over
    /// it, a dialog) before its decoder goes back to GStreamer's own buffers: a second at 60 Hz.
    static let framesOffPlaneKept = 60

    /// After each frame presented: once the overlay plane shows one of this player's frames
    /// (copied into the plane's buffers), the decoder is lent buffers the plane scans out and
    /// writes the next frames straight into them, so they go on the plane without a copy
    /// (decision 148). Off the plane for ``framesOffPlaneKept`` frames, the buffers are given
    /// back (frames composited from them are read from scanout memory, which is slow to read on
    /// boards that map it uncached).
    public func overlayPlaneShowed(_ image: PixelBuffer?, on display: Display) {
        guard let decoder else { return }
        guard let image, image === shown?.image else {
            guard scanout != nil else { return }
            framesOffPlane += 1
            if framesOffPlane >= Self.framesOffPlaneKept || scanout?.display !== display { giveBackScanout(decoder) }
            return
        }
        framesOffPlane = 0
        if let scanout, scanout.display === display, scanout.buffers.width == image.width,
           scanout.buffers.height == image.height { return }
        if let refused = scanoutRefused, refused == (image.width, image.height) { return }
        giveBackScanout(decoder)
        guard let buffers = display.makeScanoutBuffers(width: image.width, height: image.height,
                                                       count: VideoDecoder.scanoutBufferCount),
              decoder.writeFrames(into: buffers) else {
            scanoutRefused = (image.width, image.height)
            context.logger.info("video \(source): frames copied onto the overlay plane (no buffers of its own could be lent)")
            return
        }
        scanout = (buffers, display)
        context.logger.info("video \(source): frames written into the overlay plane's memory (\(buffers.buffers.count) buffers)")
    }

    /// The decoder writes into GStreamer's own buffers again.
    private func giveBackScanout(_ decoder: VideoDecoder) {
        guard scanout != nil else { return }
        decoder.writeFrames(into: nil)
        scanout = nil
        framesOffPlane = 0
        context.logger.info("video \(source): frames in GStreamer's buffers again")
    }
}
