import CDRM
import LaminaGeometry
import LaminaPixels
import SystemPackage
#if canImport(Glibc)
import Glibc
#endif

/// Overlay planes in atomic commits: a plane's framebuffer, CRTC and rectangles set beside
/// the primary plane's new frame, tested first with `DRM_MODE_ATOMIC_TEST_ONLY` (the kernel's
/// documented way to ask what a driver takes, display-input.md §3).
extension DRMDevice {
    /// The ids of the properties placing an overlay plane.
    struct OverlayPlaneProperties {
        var framebuffer, crtc: UInt32
        var sourceX, sourceY, sourceWidth, sourceHeight: UInt32
        var crtcX, crtcY, crtcWidth, crtcHeight: UInt32
    }

    public func commitsOverlays(crtc: UInt32) -> Bool { flipPlane(crtc: crtc) != nil }

    public func testOverlay(_ overlay: PlanePlacement, crtc: UInt32, primary framebuffer: UInt32) throws(KMSError) {
        guard let primary = flipPlane(crtc: crtc) else {
            throw KMSError(call: "drmModeAtomicCommit", errno: Errno.operationNotSupportedByDevice, detail: "no atomic flips on CRTC \(crtc)")
        }
        guard let request = drmModeAtomicAlloc() else { throw KMSError(call: "drmModeAtomicAlloc", errno: errno) }
        defer { drmModeAtomicFree(request) }
        _ = drmModeAtomicAddProperty(request, primary.plane, primary.framebufferProperty, UInt64(framebuffer))
        try addOverlay(.show(overlay), crtc: crtc, to: request)
        let ret = drmModeAtomicCommit(fd, request, UInt32(DRM_MODE_ATOMIC_TEST_ONLY), nil)
        if ret != 0 { throw KMSError(call: "drmModeAtomicCommit", errno: Self.errnoOf(ret), detail: "overlay test") }
    }

    /// What `plane` scans out now, from its atomic state: its `FB_ID` and `CRTC_ID` (0 when
    /// off); nil when the plane is unknown.
    public func planeState(_ plane: UInt32) -> (framebuffer: UInt32, crtc: UInt32)? {
        let all = properties(of: plane, type: UInt32(DRM_MODE_OBJECT_PLANE))
        guard let framebuffer = all["FB_ID"], let crtc = all["CRTC_ID"] else { return nil }
        return (UInt32(truncatingIfNeeded: framebuffer.value), UInt32(truncatingIfNeeded: crtc.value))
    }

    /// Adds what `update` does to an overlay plane to an atomic request.
    func addOverlay(_ update: OverlayUpdate, crtc: UInt32, to request: drmModeAtomicReqPtr) throws(KMSError) {
        switch update {
        case .unchanged:
            return
        case .hide(let plane):
            let ids = try overlayProperties(plane)
            _ = drmModeAtomicAddProperty(request, plane, ids.framebuffer, 0)
            _ = drmModeAtomicAddProperty(request, plane, ids.crtc, 0)
        case .show(let placement):
            let ids = try overlayProperties(placement.plane)
            let plane = placement.plane, s = placement.source, d = placement.destination
            func fixed(_ v: Double) -> UInt64 { UInt64(max(0, (v * 65536).rounded())) }
            let values: [(UInt32, UInt64)] = [
                (ids.framebuffer, UInt64(placement.framebuffer)), (ids.crtc, UInt64(crtc)),
                (ids.sourceX, fixed(s.minX)), (ids.sourceY, fixed(s.minY)),
                (ids.sourceWidth, fixed(s.width)), (ids.sourceHeight, fixed(s.height)),
                (ids.crtcX, UInt64(bitPattern: Int64(d.x0))), (ids.crtcY, UInt64(bitPattern: Int64(d.y0))),
                (ids.crtcWidth, UInt64(d.width)), (ids.crtcHeight, UInt64(d.height)),
            ]
            for (property, value) in values { _ = drmModeAtomicAddProperty(request, plane, property, value) }
        }
    }

    /// The placing properties of `plane`, looked up once.
    private func overlayProperties(_ plane: UInt32) throws(KMSError) -> OverlayPlaneProperties {
        if let known = overlayPlaneProperties[plane] { return known }
        let all = properties(of: plane, type: UInt32(DRM_MODE_OBJECT_PLANE))
        func id(_ name: String) throws(KMSError) -> UInt32 {
            guard let found = all[name] else {
                throw KMSError(call: "drmModeObjectGetProperties", errno: Errno.invalidArgument, detail: "plane \(plane) has no '\(name)'")
            }
            return found.id
        }
        let found = OverlayPlaneProperties(
            framebuffer: try id("FB_ID"), crtc: try id("CRTC_ID"),
            sourceX: try id("SRC_X"), sourceY: try id("SRC_Y"), sourceWidth: try id("SRC_W"), sourceHeight: try id("SRC_H"),
            crtcX: try id("CRTC_X"), crtcY: try id("CRTC_Y"), crtcWidth: try id("CRTC_W"), crtcHeight: try id("CRTC_H"))
        overlayPlaneProperties[plane] = found
        return found
    }
}
