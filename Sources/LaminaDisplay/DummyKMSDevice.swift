import LaminaPixels
import SystemPackage

/// The headless KMS device: the kernel's contract, in memory (display-input.md §14).
///
/// Vblanks tick at `epoch + k · period` on the device's clock from the modeset on. A page
/// flip asked for at time t completes at the first vblank after t; a second flip before
/// that throws EBUSY. Dumb buffers have a padded pitch, so code that assumes
/// `pitch = width · 4` shows up garbled in tests. Faults (failed flips, missed vblanks,
/// master loss) can be injected. On a `VirtualClock` it runs as fast as the CPU allows;
/// on `SystemClock` it runs in real time.
public final class DummyKMSDevice: KMSDevice {
    /// The clock the dummy's vblanks are timed on.
    public let clock: MonotonicClock
    /// The dummy's connectors (tests plug and unplug them).
    public private(set) var connectors: [KMSConnector]
    /// The dummy's one CRTC.
    public let crtcID: UInt32 = 31
    /// Extra bytes added to every dumb-buffer row.
    public var pitchPadding = 64

    // Fault injection.
    /// errnos the next page flips fail with, in order.
    public var failNextFlips: [Errno] = []
    /// Vblanks the next pending flip slips by (a late or missed frame).
    public var delayNextFlipByVBlanks = 0
    /// While true, modesets and flips fail with EACCES, as after losing DRM master.
    public var isMasterLost = false
    /// While true another client holds master: `acquireMaster` fails with EBUSY.
    public var isMasterHeldElsewhere = false
    /// Whether the device offers atomic modesetting (probe reports it, flips go atomic).
    public var supportsAtomic = true
    /// Whether its primary plane takes `FB_DAMAGE_CLIPS` on atomic flips.
    public var supportsDamageClips = true
    /// The planes it reports: a primary taking XRGB8888 and RGB565, and a cursor.
    public var planes = [KMSPlane(id: 33, kind: .primary, formats: ["XR24", "RG16"], possibleCRTCs: [31]),
                         KMSPlane(id: 34, kind: .cursor, formats: ["AR24"], possibleCRTCs: [31])]

    // Observations for tests.
    /// The framebuffer being scanned out.
    public private(set) var scanoutFramebuffer: UInt32?
    /// Page flips completed.
    public private(set) var completedFlips = 0
    /// Modes set.
    public private(set) var modesetCount = 0
    /// True after `setPower(false)`: no vblanks, flips and vblank queries fail with EINVAL.
    public private(set) var isPoweredOff = false
    /// Times the output was turned off.
    public private(set) var powerOffCount = 0
    /// The damage clip each recent atomic flip carried (nil: the whole frame), in order: at
    /// least the last `flipDamageHistory` flips, never more than twice that (a dummy display
    /// running for months keeps a fixed footprint).
    public private(set) var flipDamage: [PixelRect?] = []
    /// How many recent flips' damage clips are kept.
    public static let flipDamageHistory = 1024
    /// What the overlay plane shows (nil: off), as the last completed flip left it.
    public internal(set) var overlayShown: PlanePlacement?
    /// Overlay placements tested (`testOverlay`), and how many were refused.
    public internal(set) var overlayTests = (asked: 0, refused: 0)
    /// Whether its overlay plane scales (vkms's does not: source and destination sizes must
    /// be equal, and the test refuses a scaled placement with EINVAL).
    public var overlayScales = false
    /// The cursor image shown (nil: hidden).
    public private(set) var cursorBuffer: DumbBuffer?
    /// Where the cursor image's top-left corner is on the CRTC.
    public private(set) var cursorPosition = (x: 0, y: 0)

    /// What the CRTC showed before Lamina's first modeset (a console framebuffer, say), put
    /// back by `restoreSavedState`; nil: the CRTC was off.
    public var consoleFramebuffer: UInt32?

    struct Allocation {
        var buffer: DumbBuffer
        var memory: UnsafeMutableRawBufferPointer
    }

    struct ActiveCRTC {
        var mode: KMSMode
        var connector: UInt32
        var vblanks: VBlankGrid
    }

    private enum Pending {
        case flip(framebuffer: UInt32, sequence: UInt64)
        case vblank(sequence: UInt64)

        var sequence: UInt64 {
            switch self {
            case .flip(_, let s), .vblank(let s): return s
            }
        }
    }

    var allocations: [UInt32: Allocation] = [:]
    var framebuffers: [UInt32: (handle: UInt32, format: PixelFormat)] = [:]
    private var nextHandle: UInt32 = 1
    private var nextFramebuffer: UInt32 = 100
    var active: ActiveCRTC?
    private var pending: [Pending] = []
    /// What the flip in flight does to the overlay plane, applied when it completes.
    private var pendingOverlay: OverlayUpdate = .unchanged

    /// A device with one connector `Virtual-1` offering `modes` (by default 1920x1080@60).
    public init(clock: MonotonicClock, modes: [KMSMode] = [.cea1080p60]) {
        self.clock = clock
        connectors = [KMSConnector(id: 41, name: "Virtual-1", isConnected: true, modes: modes,
                                   possibleCRTCs: [31])]
    }

    deinit {
        for allocation in allocations.values { allocation.memory.deallocate() }
    }

    public var name: String { "dummy" }

    public func resources() throws(KMSError) -> KMSResources {
        KMSResources(connectors: connectors, crtcs: [crtcID], planes: planes, supportsAtomic: supportsAtomic)
    }

    /// Plugs or unplugs the connector (a hotplug, signalled at once), optionally with new modes.
    public func setConnected(_ connected: Bool, modes: [KMSMode]? = nil) {
        connectors[0].isConnected = connected
        hotplugPending = true
        if let modes { connectors[0].modes = modes }
        if !connected {                                      // the CRTC goes dark with its sink
            active = nil
            pending.removeAll()
            scanoutFramebuffer = nil
            overlayShown = nil
        }
    }

    /// Sets the connector's `panel orientation` property.
    public func setPanelOrientation(_ orientation: PanelOrientation?) {
        connectors[0].panelOrientation = orientation
    }

    /// Dumb buffers allocated and not yet destroyed (a leak shows here).
    public var dumbBufferCount: Int { allocations.count }

    public func createDumbBuffer(width: Int, height: Int, bitsPerPixel: Int) throws(KMSError) -> DumbBuffer {
        guard width > 0, height > 0, bitsPerPixel == 32 || bitsPerPixel == 16 else {
            throw KMSError(call: "DRM_IOCTL_MODE_CREATE_DUMB", errno: Errno.invalidArgument)
        }
        let pitch = (width * bitsPerPixel / 8 + pitchPadding + 63) / 64 * 64
        let buffer = DumbBuffer(handle: nextHandle, width: width, height: height,
                                bitsPerPixel: bitsPerPixel, pitch: pitch, size: pitch * height)
        nextHandle += 1
        let memory = UnsafeMutableRawBufferPointer.allocate(byteCount: buffer.size, alignment: 64)
        memory.initializeMemory(as: UInt8.self, repeating: 0)
        allocations[buffer.handle] = Allocation(buffer: buffer, memory: memory)
        return buffer
    }

    public func mapDumbBuffer(_ buffer: DumbBuffer) throws(KMSError) -> UnsafeMutableRawBufferPointer {
        guard let allocation = allocations[buffer.handle] else {
            throw KMSError(call: "DRM_IOCTL_MODE_MAP_DUMB", errno: Errno.noSuchFileOrDirectory)
        }
        return allocation.memory
    }

    public func destroyDumbBuffer(_ buffer: DumbBuffer, mapping: UnsafeMutableRawBufferPointer?) {
        allocations.removeValue(forKey: buffer.handle)?.memory.deallocate()
    }

    public func addFramebuffer(_ buffer: DumbBuffer, format: PixelFormat) throws(KMSError) -> UInt32 {
        guard allocations[buffer.handle] != nil, buffer.bitsPerPixel == format.bitsPerPixel else {
            throw KMSError(call: "drmModeAddFB2", errno: Errno.invalidArgument)
        }
        let id = nextFramebuffer
        nextFramebuffer += 1
        framebuffers[id] = (buffer.handle, format)
        return id
    }

    public func removeFramebuffer(_ id: UInt32) {
        framebuffers.removeValue(forKey: id)
    }

    public func setCRTC(_ crtc: UInt32, framebuffer: UInt32, connector: UInt32, mode: KMSMode) throws(KMSError) {
        if isMasterLost { throw KMSError(call: "drmModeSetCrtc", errno: Errno.permissionDenied) }
        guard crtc == crtcID, framebuffers[framebuffer] != nil,
              let c = connectors.first(where: { $0.id == connector }), c.isConnected, c.modes.contains(mode)
        else { throw KMSError(call: "drmModeSetCrtc", errno: Errno.invalidArgument) }
        active = ActiveCRTC(mode: mode, connector: connector, vblanks: VBlankGrid(epoch: clock.now, period: 1 / mode.refreshRate))
        scanoutFramebuffer = framebuffer
        pending.removeAll()
        modesetCount += 1
        isPoweredOff = false
    }

    public func setPower(_ on: Bool, connector: UInt32) throws(KMSError) {
        if isMasterLost { throw KMSError(call: "drmModeConnectorSetProperty", errno: Errno.permissionDenied) }
        guard let active, active.connector == connector else {
            throw KMSError(call: "drmModeConnectorSetProperty", errno: Errno.invalidArgument)
        }
        if !on && !isPoweredOff { powerOffCount += 1 }      // pending events are sent at once
        isPoweredOff = !on
    }

    public func pageFlipMethod(crtc: UInt32) -> String {
        Self.pageFlipDescription(atomic: supportsAtomic, damageClips: supportsDamageClips)
    }

    public func pageFlip(crtc: UInt32, framebuffer: UInt32, damage: PixelRect?) throws(KMSError) {
        try pageFlip(crtc: crtc, framebuffer: framebuffer, damage: damage, overlay: .unchanged)
    }

    public func pageFlip(crtc: UInt32, framebuffer: UInt32, damage: PixelRect?, overlay: OverlayUpdate) throws(KMSError) {
        if isMasterLost { throw KMSError(call: "drmModePageFlip", errno: Errno.permissionDenied) }
        guard crtc == crtcID, let active, !isPoweredOff, framebuffers[framebuffer] != nil else {
            throw KMSError(call: "drmModePageFlip", errno: Errno.invalidArgument)
        }
        if pending.contains(where: { if case .flip = $0 { return true } else { return false } }) {
            throw KMSError(call: "drmModePageFlip", errno: Errno.resourceBusy)
        }
        if !failNextFlips.isEmpty {
            throw KMSError(call: "drmModePageFlip", errno: failNextFlips.removeFirst(), detail: "injected")
        }
        switch overlay {
        case .unchanged: break
        case .show(let placement): try checkOverlay(placement, crtc: crtc)
        case .hide(let plane):
            guard overlayPlane(plane, crtc: crtc) != nil else {
                throw KMSError(call: "drmModeAtomicCommit", errno: Errno.invalidArgument, detail: "no overlay plane \(plane)")
            }
        }
        let sequence = nextVBlankSequence(after: clock.now, active) + UInt64(delayNextFlipByVBlanks)
        delayNextFlipByVBlanks = 0
        pending.append(.flip(framebuffer: framebuffer, sequence: sequence))
        pendingOverlay = overlay
        if supportsAtomic && supportsDamageClips {
            if flipDamage.count >= 2 * Self.flipDamageHistory { flipDamage.removeFirst(Self.flipDamageHistory) }
            flipDamage.append(damage)
        }
    }

    public func queueVBlankEvent(crtc: UInt32) throws(KMSError) {
        guard crtc == crtcID, let active, !isPoweredOff else {
            throw KMSError(call: "drmCrtcQueueSequence", errno: Errno.invalidArgument)
        }
        pending.append(.vblank(sequence: nextVBlankSequence(after: clock.now, active)))
    }

    public func currentVBlank(crtc: UInt32) throws(KMSError) -> (sequence: UInt64, timestamp: Double) {
        guard crtc == crtcID, let active, !isPoweredOff else {
            throw KMSError(call: "drmCrtcGetSequence", errno: Errno.invalidArgument)
        }
        let sequence = nextVBlankSequence(after: clock.now, active) - 1
        return (sequence, vblankTime(sequence, active))
    }

    public var eventDescriptor: Int32? { nil }

    public var nextEventTime: Double? {
        if hotplugPending { return clock.now }
        guard let active, let first = pending.map(\.sequence).min() else { return nil }
        return isPoweredOff ? clock.now : vblankTime(first, active)
    }

    private var hotplugPending = false
    public var hotplugDescriptor: Int32? { nil }

    public func takeHotplug() -> Bool {
        defer { hotplugPending = false }
        return hotplugPending
    }

    public func handleEvents(_ handler: (VBlankEvent) -> Void) throws(KMSError) {
        guard let active else { return }
        let now = clock.now
        // Turning the output off completes whatever was pending, as the kernel does.
        let isDue = { (event: Pending) in self.isPoweredOff || self.vblankTime(event.sequence, active) <= now }
        guard pending.contains(where: isDue) else { return }          // most wake-ups: nothing due, nothing made
        let due = pending.filter(isDue).sorted { $0.sequence < $1.sequence }
        pending.removeAll(where: isDue)
        for event in due {
            switch event {
            case .flip(let framebuffer, let sequence):
                scanoutFramebuffer = framebuffer
                completedFlips += 1
                applyOverlay(pendingOverlay)
                pendingOverlay = .unchanged
                handler(VBlankEvent(kind: .pageFlip, crtc: crtcID, sequence: sequence,
                                    timestamp: min(now, vblankTime(sequence, active))))
            case .vblank(let sequence):
                handler(VBlankEvent(kind: .sequence, crtc: crtcID, sequence: sequence,
                                    timestamp: min(now, vblankTime(sequence, active))))
            }
        }
    }

    public func restoreSavedState() {
        active = nil
        pending.removeAll()
        overlayShown = nil
        scanoutFramebuffer = consoleFramebuffer
    }

    public func dropMaster() throws(KMSError) {
        isMasterLost = true
    }

    public func acquireMaster() throws(KMSError) {
        if isMasterHeldElsewhere { throw KMSError(call: "drmSetMaster", errno: Errno.resourceBusy) }
        isMasterLost = false
    }

    public func captureComposedFrame(crtc: UInt32) throws(KMSError) -> PixelBuffer? {
        guard crtc == crtcID, active != nil, let fb = scanoutFramebuffer, let frame = framebufferImage(fb) else { return nil }
        if let overlay = overlayShown { compose(overlay, onto: frame) }
        if let cursor = cursorBuffer, let allocation = allocations[cursor.handle] {
            compose(cursor: allocation, onto: frame)
        }
        return frame
    }

    /// The cursor plane over the primary, as a CRTC blends them: premultiplied source-over.
    private func compose(cursor: Allocation, onto frame: PixelBuffer) {
        let image = cursor.memory.baseAddress!
        for y in 0..<cursor.buffer.height {
            let fy = cursorPosition.y + y
            guard fy >= 0, fy < frame.height else { continue }
            for x in 0..<cursor.buffer.width {
                let fx = cursorPosition.x + x
                guard fx >= 0, fx < frame.width else { continue }
                let s = image.load(fromByteOffset: y * cursor.buffer.pitch + x * 4, as: UInt32.self)
                let inverse = 255 - (s >> 24)
                let d = frame.pixels[fy * frame.stride + fx]
                var out: UInt32 = 0xFF00_0000
                for shift: UInt32 in [0, 8, 16] {
                    let channel = ((s >> shift) & 0xFF) + (((d >> shift) & 0xFF) * inverse + 127) / 255
                    out |= min(channel, 255) << shift
                }
                frame.pixels[fy * frame.stride + fx] = out
            }
        }
    }

    /// Whether the dummy has a cursor plane (tests turn it off to see the composited pointer).
    public var hasCursorPlane: Bool { planes.contains { $0.kind == .cursor } }

    public func cursorSize(crtc: UInt32) -> (width: Int, height: Int)? {
        hasCursorPlane && crtc == crtcID ? (64, 64) : nil
    }

    public func setCursor(crtc: UInt32, buffer: DumbBuffer?) throws(KMSError) {
        guard hasCursorPlane, crtc == crtcID else {
            throw KMSError(call: "drmModeSetCursor", errno: Errno.noSuchAddressOrDevice, detail: "no cursor plane")
        }
        if isMasterLost { throw KMSError(call: "drmModeSetCursor", errno: Errno.permissionDenied) }
        if let buffer {
            guard allocations[buffer.handle] != nil, buffer.bitsPerPixel == 32 else {
                throw KMSError(call: "drmModeSetCursor", errno: Errno.invalidArgument, detail: "not a 32-bit dumb buffer")
            }
        }
        cursorBuffer = buffer
    }

    public func moveCursor(crtc: UInt32, x: Int, y: Int) throws(KMSError) {
        guard hasCursorPlane, crtc == crtcID else {
            throw KMSError(call: "drmModeMoveCursor", errno: Errno.noSuchAddressOrDevice, detail: "no cursor plane")
        }
        if isMasterLost { throw KMSError(call: "drmModeMoveCursor", errno: Errno.permissionDenied) }
        cursorPosition = (x, y)
    }

    /// The pixels of a framebuffer as an opaque image (X bytes ignored; RGB565 widened by bit
    /// replication), for PNG dumps and read-back.
    public func framebufferImage(_ id: UInt32) -> PixelBuffer? {
        guard let fb = framebuffers[id], let allocation = allocations[fb.handle] else { return nil }
        let b = allocation.buffer
        let memory = allocation.memory.baseAddress!
        switch fb.format {
        case .xrgb8888: return PixelBuffer(xrgb8888: memory, pitch: b.pitch, width: b.width, height: b.height)
        case .rgb565: return PixelBuffer(rgb565: memory, pitch: b.pitch, width: b.width, height: b.height)
        }
    }

    private func vblankTime(_ sequence: UInt64, _ active: ActiveCRTC) -> Double { active.vblanks.time(sequence) }

    private func nextVBlankSequence(after time: Double, _ active: ActiveCRTC) -> UInt64 { active.vblanks.next(after: time) }
}
