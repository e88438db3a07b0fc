import CDRM
import LaminaPixels
#if canImport(Glibc)
import Glibc
#endif

/// Page flips through the atomic API when the kernel took `DRM_CLIENT_CAP_ATOMIC`: one
/// nonblocking commit setting the primary plane's `FB_ID`, with the frame's damage as
/// `FB_DAMAGE_CLIPS` where the plane has that property (drivers that upload or compress
/// then touch only the changed rectangle, display-input.md §3). Legacy `drmModePageFlip`
/// otherwise. An overlay plane shown, moved or hidden goes in the same commit
/// (DRMDevice+Overlay.swift).
extension DRMDevice {
    /// The primary plane showing a CRTC and the property ids an atomic flip sets on it.
    struct FlipPlane {
        var plane: UInt32
        var framebufferProperty: UInt32
        /// Nil when the driver does not take damage clips on this plane.
        var damageClipsProperty: UInt32?
    }

    /// The primary plane whose `CRTC_ID` is `crtc` (after a modeset), or nil.
    func findFlipPlane(crtc: UInt32) -> FlipPlane? {
        let planeType = UInt32(DRM_MODE_OBJECT_PLANE)
        for plane in planes(crtcs: [crtc]) where plane.kind == .primary && plane.possibleCRTCs.contains(crtc) {
            let properties = properties(of: plane.id, type: planeType)
            guard properties["CRTC_ID"]?.value == UInt64(crtc), let framebuffer = properties["FB_ID"] else { continue }
            return FlipPlane(plane: plane.id, framebufferProperty: framebuffer.id,
                             damageClipsProperty: properties["FB_DAMAGE_CLIPS"]?.id)
        }
        return nil
    }

    /// One atomic commit flipping `plane` to `framebuffer` at the next vblank, with a page-flip
    /// event, and `damage` as `FB_DAMAGE_CLIPS` when the plane takes it.
    func atomicFlip(_ plane: FlipPlane, framebuffer: UInt32, damage: PixelRect?, crtc: UInt32,
                    overlay: OverlayUpdate = .unchanged) throws(KMSError) {
        guard let request = drmModeAtomicAlloc() else { throw KMSError(call: "drmModeAtomicAlloc", errno: errno) }
        defer { drmModeAtomicFree(request) }
        _ = drmModeAtomicAddProperty(request, plane.plane, plane.framebufferProperty, UInt64(framebuffer))
        try addOverlay(overlay, crtc: crtc, to: request)
        var blob: UInt32 = 0
        if let property = plane.damageClipsProperty, let damage {
            var rect = drm_mode_rect(x1: Int32(damage.x0), y1: Int32(damage.y0), x2: Int32(damage.x1), y2: Int32(damage.y1))
            let ret = drmModeCreatePropertyBlob(fd, &rect, MemoryLayout<drm_mode_rect>.size, &blob)
            if ret != 0 { throw KMSError(call: "drmModeCreatePropertyBlob", errno: Self.errnoOf(ret), detail: "FB_DAMAGE_CLIPS") }
            _ = drmModeAtomicAddProperty(request, plane.plane, property, UInt64(blob))
        }
        // The commit holds its own reference to the blob.
        defer { if blob != 0 { _ = drmModeDestroyPropertyBlob(fd, blob) } }
        let flags = UInt32(DRM_MODE_PAGE_FLIP_EVENT) | UInt32(DRM_MODE_ATOMIC_NONBLOCK)
        let ret = drmModeAtomicCommit(fd, request, flags, Unmanaged.passUnretained(self).toOpaque())
        if ret != 0 { throw KMSError(call: "drmModeAtomicCommit", errno: Self.errnoOf(ret), detail: "page flip") }
    }
}
