import LaminaGeometry
import LaminaPixels
import SystemPackage

/// The dummy's overlay plane, when a test lists one in `planes`: placements checked as
/// vkms's atomic check does (a framebuffer it has, a source inside it, no scaling unless
/// `overlayScales`), shown from the flip that carries them, and blended over the primary
/// when the composed frame is read back.
extension DummyKMSDevice {
    /// Lists an overlay plane (id 35, XRGB8888 and ARGB8888) on the CRTC, as vkms's
    /// `enable_overlay` does.
    public func addOverlayPlane() {
        guard !planes.contains(where: { $0.kind == .overlay }) else { return }
        planes.append(KMSPlane(id: 35, kind: .overlay, formats: ["XR24", "AR24"], possibleCRTCs: [crtcID]))
    }

    public func commitsOverlays(crtc: UInt32) -> Bool { supportsAtomic && crtc == crtcID }

    public func testOverlay(_ overlay: PlanePlacement, crtc: UInt32, primary framebuffer: UInt32) throws(KMSError) {
        overlayTests.asked += 1
        do throws(KMSError) {
            guard framebuffers[framebuffer] != nil else {
                throw KMSError(call: "drmModeAtomicCommit", errno: Errno.invalidArgument, detail: "no framebuffer \(framebuffer)")
            }
            try checkOverlay(overlay, crtc: crtc)
        } catch {
            overlayTests.refused += 1
            throw error
        }
    }

    /// The overlay plane `id` on `crtc`, if the dummy lists it.
    func overlayPlane(_ id: UInt32, crtc: UInt32) -> KMSPlane? {
        planes.first { $0.id == id && $0.kind == .overlay && $0.possibleCRTCs.contains(crtc) }
    }

    /// Refuses a placement the way an atomic check would.
    func checkOverlay(_ overlay: PlanePlacement, crtc: UInt32) throws(KMSError) {
        func refuse(_ why: String) -> KMSError { KMSError(call: "drmModeAtomicCommit", errno: Errno.invalidArgument, detail: why) }
        guard supportsAtomic, crtc == crtcID, let active else { throw refuse("no atomic commits on CRTC \(crtc)") }
        guard overlayPlane(overlay.plane, crtc: crtc) != nil else { throw refuse("no overlay plane \(overlay.plane)") }
        guard let fb = framebuffers[overlay.framebuffer], fb.format == .xrgb8888,
              let allocation = allocations[fb.handle] else { throw refuse("framebuffer \(overlay.framebuffer) is not XRGB8888") }
        let s = overlay.source, d = overlay.destination
        guard s.minX >= 0, s.minY >= 0, s.width > 0, s.height > 0,
              s.maxX <= Double(allocation.buffer.width), s.maxY <= Double(allocation.buffer.height) else {
            throw refuse("source \(s) outside the framebuffer")
        }
        guard !d.isEmpty, d.x0 >= 0, d.y0 >= 0, d.x1 <= active.mode.width, d.y1 <= active.mode.height else {
            throw refuse("destination \(d) outside the CRTC")
        }
        if !overlayScales, abs(s.width - Double(d.width)) > 1e-9 || abs(s.height - Double(d.height)) > 1e-9 {
            throw refuse("the overlay plane does not scale (\(s.width)x\(s.height) to \(d.width)x\(d.height))")
        }
    }

    func applyOverlay(_ update: OverlayUpdate) {
        switch update {
        case .unchanged: break
        case .show(let placement): overlayShown = placement
        case .hide: overlayShown = nil
        }
    }

    /// The overlay over the primary, as the CRTC blends it.
    func compose(_ overlay: PlanePlacement, onto frame: PixelBuffer) {
        guard let image = framebufferImage(overlay.framebuffer) else { return }
        overlay.compose(image, onto: frame)
    }
}
