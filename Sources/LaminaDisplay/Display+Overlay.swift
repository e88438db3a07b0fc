import LaminaGeometry
import LaminaPixels

/// Video on an overlay plane: the display finds a plane on its CRTC that scans out
/// XRGB8888 (where flips are atomic commits), copies a frame into one of the plane's
/// buffers (or, for a frame a decoder wrote into buffers the display lent it, takes the
/// buffer as it is: decision 148) and asks the driver whether it takes the placement
/// (`prepareOverlay`); `present` then carries it in the same commit as the primary plane's
/// frame (decision 146).
extension Display {
    /// The overlay plane frames can be shown on: one on this CRTC that scans out XRGB8888,
    /// on a device whose flips are atomic commits. Nil while dark, with legacy flips, or
    /// when the CRTC has none.
    public var overlayPlane: KMSPlane? { findOverlay()?.plane }

    /// The driver's last refusal of an overlay placement, for the log.
    public var overlayRefusal: KMSError? { overlayScanout?.lastRefusal }

    /// Copies `image` into one of the overlay plane's buffers and asks the driver
    /// (`DRM_MODE_ATOMIC_TEST_ONLY`) whether it shows `source` of it (in the image's pixels)
    /// at `destination` (in the display's) over the next frame. The placement to hand to
    /// `present`, or nil: there is no plane, a flip is in flight, or the driver refuses
    /// (the caller composites the image instead). The driver is asked again only when the
    /// image's size or the rectangles change.
    ///
    /// An image whose pixels are in buffers this display lent
    /// (``makeScanoutBuffers(width:height:count:)``) is shown from them as it is, not copied.
    public func prepareOverlay(_ image: PixelBuffer, source: Rect, destination: PixelRect) -> PlanePlacement? {
        guard !isFlipPending, !isBlanked, let primary = backFramebuffer, let overlay = findOverlay() else { return nil }
        return overlay.prepare(image, lent: scanoutLending.framebuffer(showing: image), source: source,
                               destination: destination, crtc: crtc, primary: primary)
    }

    /// Makes `count` buffers of `width × height` pixels the overlay plane can show, for a video
    /// decoder to write its frames into (decision 148): a frame drawn from one goes on the
    /// plane without a copy. Nil while there is no overlay plane, or when the device cannot
    /// make them. They are freed once the set and every frame in them are gone.
    public func makeScanoutBuffers(width: Int, height: Int, count: Int) -> ScanoutBuffers? {
        guard findOverlay() != nil, width > 0, height > 0, count > 0 else { return nil }
        return scanoutLending.lend(width: width, height: height, count: count)
    }

    /// Frames put on the overlay plane by copying them into its own buffers (since it was last
    /// found: a modeset, a return from dark).
    public var overlayFramesCopied: Int { overlayScanout?.framesCopied ?? 0 }
    /// Frames shown on the overlay plane from lent buffers as they are, without a copy
    /// (``makeScanoutBuffers(width:height:count:)``; since it was last found).
    public var overlayFramesInPlace: Int { overlayScanout?.framesInPlace ?? 0 }

    /// What the panel shows, for screenshots: `shadow`, or a copy of it with the overlay
    /// plane's frame over it while the plane shows one (the shadow lacks it then).
    public func screenImage() -> PixelBuffer {
        guard let overlay = overlayScanout, overlay.shownPlacement != nil else { return shadow }
        let frame = shadow.copy()
        overlay.compose(onto: frame)
        return frame
    }

    /// The overlay, looked up once per lighting.
    private func findOverlay() -> OverlayScanout? {
        guard isLit else { return nil }
        if overlayLookedUp { return overlayScanout }
        overlayLookedUp = true
        guard device.commitsOverlays(crtc: crtc), let resources = try? device.resources(),
              let plane = resources.planes.first(where: {
                  $0.kind == .overlay && $0.possibleCRTCs.contains(crtc) && $0.formats.contains("XR24")
              }) else { return nil }
        overlayScanout = OverlayScanout(plane: plane, device: device)
        return overlayScanout
    }

    /// Frees the overlay's buffers; the plane is looked up again when next lit.
    func releaseOverlay() {
        overlayScanout?.release()
        overlayScanout = nil
        overlayLookedUp = false
    }
}
