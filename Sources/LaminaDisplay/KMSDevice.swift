import LaminaPixels
import SystemPackage

/// The KMS device contract Lamina drives: the subset of the kernel's DRM/KMS uAPI a
/// double-buffered CPU renderer needs. `DRMDevice` implements it with libdrm on a real card;
/// `DummyKMSDevice` implements the same contract in memory (EBUSY on a second flip,
/// flip events at vblank, padded pitches), so everything above it runs unchanged headless.
public protocol KMSDevice: AnyObject {
    /// A human-readable name (`/dev/dri/card1 (vkms)`, `dummy`).
    var name: String { get }

    /// Connectors (re-probed) and CRTCs.
    func resources() throws(KMSError) -> KMSResources

    /// `DRM_IOCTL_MODE_CREATE_DUMB`.
    func createDumbBuffer(width: Int, height: Int, bitsPerPixel: Int) throws(KMSError) -> DumbBuffer
    /// `DRM_IOCTL_MODE_MAP_DUMB` + `mmap`: the buffer's bytes, `pitch · height` of them.
    func mapDumbBuffer(_ buffer: DumbBuffer) throws(KMSError) -> UnsafeMutableRawBufferPointer
    /// `munmap` + `DRM_IOCTL_MODE_DESTROY_DUMB`.
    func destroyDumbBuffer(_ buffer: DumbBuffer, mapping: UnsafeMutableRawBufferPointer?)
    /// `drmModeAddFB2`: a framebuffer id for the buffer.
    func addFramebuffer(_ buffer: DumbBuffer, format: PixelFormat) throws(KMSError) -> UInt32
    /// `drmModeRmFB`.
    func removeFramebuffer(_ id: UInt32)

    /// `drmModeSetCrtc`: a blocking modeset showing `framebuffer` on `connector`.
    func setCRTC(_ crtc: UInt32, framebuffer: UInt32, connector: UInt32, mode: KMSMode) throws(KMSError)
    /// A page flip with an event (`DRM_MODE_PAGE_FLIP_EVENT`): shows `framebuffer` from the
    /// next vblank. `damage` is what changed since the frame shown now (nil: everything),
    /// passed to the kernel as `FB_DAMAGE_CLIPS` where the plane takes it. Throws EBUSY while
    /// a flip is pending on that CRTC.
    func pageFlip(crtc: UInt32, framebuffer: UInt32, damage: PixelRect?) throws(KMSError)
    /// Like `pageFlip(crtc:framebuffer:damage:)`, and in the same atomic commit shows,
    /// moves or hides an overlay plane (`overlay`); `.unchanged` is that flip alone.
    func pageFlip(crtc: UInt32, framebuffer: UInt32, damage: PixelRect?, overlay: OverlayUpdate) throws(KMSError)
    /// Whether flips on `crtc` can carry overlay planes: atomic commits (not legacy flips).
    func commitsOverlays(crtc: UInt32) -> Bool
    /// Asks the driver, without changing anything (`DRM_MODE_ATOMIC_TEST_ONLY`), whether it
    /// would take `overlay` over `framebuffer` on the primary plane of `crtc`: the formats,
    /// scaling, position and bandwidth only the driver knows. Throws its refusal.
    func testOverlay(_ overlay: PlanePlacement, crtc: UInt32, primary framebuffer: UInt32) throws(KMSError)
    /// How flips are made on `crtc` (atomic with damage clips, atomic, legacy), for the log.
    func pageFlipMethod(crtc: UInt32) -> String
    /// `drmCrtcQueueSequence` (relative 1): an event at the next vblank, without a flip.
    func queueVBlankEvent(crtc: UInt32) throws(KMSError)
    /// The latest vblank of `crtc` (`drmCrtcGetSequence`): to re-sync after idle.
    func currentVBlank(crtc: UInt32) throws(KMSError) -> (sequence: UInt64, timestamp: Double)

    /// Turns the output on or off without a new mode (the connector's `DPMS` property: on
    /// `DRM_MODE_DPMS_ON`, off `DRM_MODE_DPMS_OFF`; on an atomic driver the kernel turns
    /// this into the CRTC's `ACTIVE`). While off there are no vblanks and flips fail.
    func setPower(_ on: Bool, connector: UInt32) throws(KMSError)

    /// A descriptor that polls readable when events are pending (nil: use `nextEventTime`).
    var eventDescriptor: Int32? { get }
    /// When the next event is due on the device's clock, for devices without a descriptor.
    var nextEventTime: Double? { get }
    /// `drmHandleEvent`: delivers every completed flip and queued vblank.
    func handleEvents(_ handler: (VBlankEvent) -> Void) throws(KMSError)

    /// Puts back the CRTC configuration found at start (on exit).
    func restoreSavedState()

    /// A descriptor that polls readable when a connector may have been plugged or unplugged
    /// (nil: the device has none, or cannot tell).
    var hotplugDescriptor: Int32? { get }
    /// True when a hotplug was signalled since the last call (drains the notifications).
    func takeHotplug() -> Bool

    /// `drmDropMaster`: let another client drive the display (VT switched away).
    func dropMaster() throws(KMSError)
    /// `drmSetMaster`: take the display back; fails while another client holds it.
    func acquireMaster() throws(KMSError)

    /// The frame the CRTC composes now, read back (writeback on a kernel device, the
    /// scanned-out framebuffer on the dummy); nil when the device cannot read back.
    func captureComposedFrame(crtc: UInt32) throws(KMSError) -> PixelBuffer?

    /// The size of image the CRTC's cursor plane takes (`DRM_CAP_CURSOR_WIDTH` and
    /// `_HEIGHT`, 64x64 where the driver does not say); nil when the device has none.
    func cursorSize(crtc: UInt32) -> (width: Int, height: Int)?
    /// `drmModeSetCursor`: shows `buffer` (ARGB8888, premultiplied, `cursorSize`) on the
    /// cursor plane, or hides the cursor with nil. Cursor calls do not wait for a vblank:
    /// the kernel applies them as they come, between and during page flips.
    func setCursor(crtc: UInt32, buffer: DumbBuffer?) throws(KMSError)
    /// `drmModeMoveCursor`: puts the cursor image's top-left corner at (x, y) on the CRTC.
    func moveCursor(crtc: UInt32, x: Int, y: Int) throws(KMSError)
}

extension KMSDevice {
    /// Devices without a cursor plane (fbdev): the pointer is drawn into the frame.
    public func cursorSize(crtc: UInt32) -> (width: Int, height: Int)? { nil }
    public func setCursor(crtc: UInt32, buffer: DumbBuffer?) throws(KMSError) {
        throw KMSError(call: "drmModeSetCursor", errno: Errno.noSuchAddressOrDevice, detail: "\(name) has no cursor plane")
    }
    public func moveCursor(crtc: UInt32, x: Int, y: Int) throws(KMSError) {
        throw KMSError(call: "drmModeMoveCursor", errno: Errno.noSuchAddressOrDevice, detail: "\(name) has no cursor plane")
    }

    /// Devices without atomic commits (fbdev): flips carry no overlay plane.
    public func commitsOverlays(crtc: UInt32) -> Bool { false }
    public func pageFlip(crtc: UInt32, framebuffer: UInt32, damage: PixelRect?, overlay: OverlayUpdate) throws(KMSError) {
        guard overlay == .unchanged else {
            throw KMSError(call: "drmModeAtomicCommit", errno: Errno.operationNotSupportedByDevice, detail: "\(name) has no overlay planes")
        }
        try pageFlip(crtc: crtc, framebuffer: framebuffer, damage: damage)
    }
    public func testOverlay(_ overlay: PlanePlacement, crtc: UInt32, primary framebuffer: UInt32) throws(KMSError) {
        throw KMSError(call: "drmModeAtomicCommit", errno: Errno.operationNotSupportedByDevice, detail: "\(name) has no overlay planes")
    }

    /// The log's words for a KMS device's flips: legacy `drmModePageFlip`, or atomic
    /// commits with or without `FB_DAMAGE_CLIPS`.
    static func pageFlipDescription(atomic: Bool, damageClips: Bool) -> String {
        guard atomic else { return "legacy page flips" }
        return damageClips ? "atomic page flips with FB_DAMAGE_CLIPS" : "atomic page flips"
    }
}
