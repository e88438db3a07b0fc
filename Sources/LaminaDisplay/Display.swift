import LaminaPixels
import SystemPackage

/// Why an output could not be brought up.
public enum DisplayError: Error, CustomStringConvertible {
    case noConnectedConnector(device: String)
    case connectorNotFound(name: String, available: [String])
    case noMode(connector: String)
    case modeNotOffered(request: ModeRequest, connector: String, available: [String])
    case formatNotScannedOut(format: PixelFormat, connector: String)
    case noCRTC(connector: String)
    case kms(KMSError)

    /// The asked-for connector is not there (or none is connected): the display can run dark.
    var isMissingConnector: Bool {
        switch self {
        case .noConnectedConnector, .connectorNotFound: return true
        default: return false
        }
    }

    public var description: String {
        switch self {
        case .noConnectedConnector(let device): return "\(device): no connected connector"
        case .connectorNotFound(let name, let available):
            return "connector '\(name)' not found (available: \(available.joined(separator: ", ")))"
        case .noMode(let c): return "\(c): the connector reports no modes"
        case .modeNotOffered(let request, let c, let available):
            return "\(c) offers no mode \(request) (it offers: \(available.joined(separator: ", ")))"
        case .formatNotScannedOut(let format, let c):
            return "no primary plane for \(c) scans out \(format.rawValue) (\(format.fourcc))"
        case .noCRTC(let c): return "\(c): no CRTC can drive it"
        case .kms(let e): return e.description
        }
    }
}

/// One output, double buffered: two dumb buffers on a KMS device, a cached shadow buffer to
/// render into, and page flips on vblank.
///
/// Rendering never touches scanout memory directly (it is often uncached, display-input.md
/// §3): frames are drawn into `shadow` and copied row by row, by `pitch`, into the back
/// buffer, which is then flipped. One flip is in flight at a time.
public final class Display {
    public let device: KMSDevice
    /// The connector shown on; while dark, a placeholder named `none` with the virtual mode.
    public private(set) var connector: KMSConnector
    public private(set) var mode: KMSMode
    public private(set) var crtc: UInt32
    /// The scanout format: XRGB8888, or RGB565 (dithered) for 16-bit panels.
    public let format: PixelFormat
    /// The render target: premultiplied, cached memory the size of the mode. Replaced when a
    /// newly connected panel's mode has another size.
    public private(set) var shadow: PixelBuffer
    /// How the output was asked for, to choose again on hotplug.
    private let connectorName: String?
    private let modeRequest: ModeRequest

    private struct Scanout {
        var buffer: DumbBuffer
        var memory: UnsafeMutableRawBufferPointer
        var framebuffer: UInt32
    }

    private var scanouts: [Scanout] = []
    private var front = 0
    /// Per scanout buffer, the part of `shadow` changed since it was last written.
    private var stale: [PixelRect?] = [PixelRect(width: Int.max, height: Int.max), PixelRect(width: Int.max, height: Int.max)]
    /// Pixels copied into scanout memory so far (damage makes this small).
    public private(set) var copiedPixels = 0

    /// With no connector connected the display is dark: frames are drawn into `shadow` and
    /// "flip" on a virtual vblank grid on this clock, so animations and links keep running
    /// (display-input.md §8). Nil when lit.
    private var virtualOutput: VirtualVBlanks?
    private let clock: MonotonicClock?

    /// The virtual output's vblanks, and the one event pending on them.
    private struct VirtualVBlanks {
        var grid: VBlankGrid
        var pending: (kind: VBlankEvent.Kind, sequence: UInt64)?

        init(epoch: Double, period: Double) { grid = VBlankGrid(epoch: epoch, period: period) }
        func time(_ sequence: UInt64) -> Double { grid.time(sequence) }
        func next(after now: Double) -> UInt64 { grid.next(after: now) }
    }

    /// True while a connector is lit; false on the virtual output.
    public var isLit: Bool { virtualOutput == nil }

    private static func union(_ a: PixelRect?, _ b: PixelRect) -> PixelRect? {
        guard !b.isEmpty else { return a }                         // nothing changed
        guard let a else { return b }
        return a.union(b)
    }

    /// The front buffer's pixels as written (XRGB8888 only), for checks.
    public func readFront() -> PixelBuffer {
        precondition(format == .xrgb8888 && isLit, "readFront reads a lit display's XRGB8888 buffers")
        let scanout = scanouts[front]
        return PixelBuffer(xrgb8888: scanout.memory.baseAddress!, pitch: scanout.buffer.pitch, width: width, height: height)
    }

    /// The composed frame as the device shows it (writeback on a kernel device), or nil.
    public func captureComposedFrame() throws(KMSError) -> PixelBuffer? {
        guard isLit else { return nil }
        return try device.captureComposedFrame(crtc: crtc)
    }
    /// True between a flip request and its completion event.
    public private(set) var isFlipPending = false
    /// The last completed flip, or the vblank the display re-synced to.
    public private(set) var lastVBlank: (sequence: UInt64, timestamp: Double)?
    /// Vblanks a flip arrived late by: each flip targets the vblank after the last one seen,
    /// and every vblank it lands past that one is a missed frame. Idle time is not counted.
    public private(set) var missedVBlanks = 0
    private var targetedSequence: UInt64?
    public private(set) var presentedFrames = 0
    private var closed = false

    public var width: Int { mode.width }
    public var height: Int { mode.height }
    public var refreshRate: Double { mode.refreshRate }
    /// Seconds per vblank, from the mode timings (not the integer `vrefresh`).
    public var frameDuration: Double { 1 / mode.refreshRate }
    /// The framebuffer currently scanned out (0 while dark).
    public var frontFramebuffer: UInt32 { scanouts.isEmpty ? 0 : scanouts[front].framebuffer }

    /// Brings up an output: the named connector (or the first connected one), the requested
    /// mode, a CRTC that can drive it, two dumb buffers of `format`, and a modeset showing a
    /// black first buffer.
    ///
    /// With `virtualMode` and `clock`, a missing connector is not an error: the display
    /// starts dark on a virtual output of that mode and lights up on hotplug
    /// (`connectorsChanged`).
    public init(device: KMSDevice, connectorName: String? = nil, mode request: ModeRequest = .preferred,
                format: PixelFormat = .xrgb8888, virtualMode: KMSMode? = nil,
                clock: MonotonicClock? = nil) throws(DisplayError) {
        self.device = device
        self.format = format
        self.connectorName = connectorName
        modeRequest = request
        self.clock = clock
        let choice: (connector: KMSConnector, mode: KMSMode, crtc: UInt32)
        do {
            choice = try Self.choose(device: device, connectorName: connectorName, request: request, format: format)
        } catch let error where virtualMode != nil && clock != nil && error.isMissingConnector {
            connector = KMSConnector(id: 0, name: "none", isConnected: false, modes: [virtualMode!], possibleCRTCs: [])
            mode = virtualMode!
            crtc = 0
            shadow = PixelBuffer(width: virtualMode!.width, height: virtualMode!.height)
            virtualOutput = VirtualVBlanks(epoch: clock!.now, period: 1 / virtualMode!.refreshRate)
            return
        }
        connector = choice.connector
        mode = choice.mode
        crtc = choice.crtc
        shadow = PixelBuffer(width: choice.mode.width, height: choice.mode.height)
        try light()
    }

    /// The connector, mode and CRTC the request names on what the device offers now.
    private static func choose(device: KMSDevice, connectorName: String?, request: ModeRequest,
                               format: PixelFormat) throws(DisplayError) -> (KMSConnector, KMSMode, UInt32) {
        let resources: KMSResources
        do { resources = try device.resources() } catch { throw .kms(error) }
        let candidates = resources.connectors.filter(\.isConnected)
        let chosen: KMSConnector
        if let connectorName {
            guard let c = candidates.first(where: { $0.name == connectorName }) else {
                throw .connectorNotFound(name: connectorName, available: resources.connectors.map(\.name))
            }
            chosen = c
        } else {
            guard let c = candidates.first else { throw .noConnectedConnector(device: device.name) }
            chosen = c
        }
        guard !chosen.modes.isEmpty else { throw .noMode(connector: chosen.name) }
        guard let mode = request.select(from: chosen) else {
            throw .modeNotOffered(request: request, connector: chosen.name,
                                  available: chosen.modes.map { "\($0.width)x\($0.height)@\($0.refreshRate.formatted3)" })
        }
        guard let crtc = chosen.possibleCRTCs.first(where: resources.crtcs.contains) else {
            throw .noCRTC(connector: chosen.name)
        }
        // Where planes are listed, the CRTC's primary plane must take the format.
        let primaries = resources.planes.filter { $0.kind == .primary && $0.possibleCRTCs.contains(crtc) }
        if !primaries.isEmpty && !primaries.contains(where: { $0.formats.contains(format.fourcc) }) {
            throw .formatNotScannedOut(format: format, connector: chosen.name)
        }
        return (chosen, mode, crtc)
    }

    /// Two dumb buffers of the mode, and a modeset showing the first; the whole shadow is
    /// copied out on the next `present`.
    private func light() throws(DisplayError) {
        do {
            for _ in 0..<2 {
                let buffer = try device.createDumbBuffer(width: mode.width, height: mode.height,
                                                         bitsPerPixel: format.bitsPerPixel)
                let memory = try device.mapDumbBuffer(buffer)
                let fb = try device.addFramebuffer(buffer, format: format)
                scanouts.append(Scanout(buffer: buffer, memory: memory, framebuffer: fb))
            }
            front = 0
            try device.setCRTC(crtc, framebuffer: scanouts[0].framebuffer, connector: connector.id, mode: mode)
        } catch {
            releaseBuffers()
            throw .kms(error)
        }
        let whole = PixelRect(width: width, height: height)
        stale = [whole, whole]
    }

    /// What a hotplug changed, after `connectorsChanged`.
    public enum OutputChange: Equatable {
        case unchanged
        /// The connector went away: the display runs dark on a virtual output.
        case wentDark
        /// A connector was lit (possibly with a new size: `shadow` was replaced).
        case lit
    }

    /// Re-reads the connectors after a hotplug: goes dark when the shown connector is gone,
    /// lights up (choosing connector and mode again) when one appears while dark.
    public func connectorsChanged() throws(DisplayError) -> OutputChange {
        if isLit {
            let resources: KMSResources
            do { resources = try device.resources() } catch { throw .kms(error) }
            if resources.connectors.contains(where: { $0.id == connector.id && $0.isConnected }) { return .unchanged }
            guard let clock else { return .unchanged }            // nowhere to run dark: keep trying to flip
            releaseBuffers()
            virtualOutput = VirtualVBlanks(epoch: clock.now, period: frameDuration)
            forgetFlipState()
            connector = KMSConnector(id: 0, name: "none", isConnected: false, modes: [mode], possibleCRTCs: [])
            return .wentDark
        }
        let choice: (connector: KMSConnector, mode: KMSMode, crtc: UInt32)
        do {
            choice = try Self.choose(device: device, connectorName: connectorName, request: modeRequest, format: format)
        } catch where error.isMissingConnector {
            return .unchanged
        }
        connector = choice.connector
        crtc = choice.crtc
        if choice.mode.width != mode.width || choice.mode.height != mode.height {
            shadow = PixelBuffer(width: choice.mode.width, height: choice.mode.height)
        }
        mode = choice.mode
        virtualOutput = nil
        forgetFlipState()
        try light()
        isBlanked = false                                    // a new modeset lights the panel
        return .lit
    }

    /// When the next event is due on a clock, for the run loop's timeout: the device's, or
    /// the virtual output's while dark.
    public var nextEventTime: Double? {
        guard let virtual = virtualOutput else { return device.nextEventTime }
        let times = [virtual.pending.map { virtual.time($0.sequence) }, device.nextEventTime].compactMap { $0 }
        return times.min()
    }

    deinit { close() }

    /// Copies `shadow` into the back buffer and asks for a flip at the next vblank.
    /// Throws EBUSY while a flip is pending (keep the frame and retry after the event).
    ///
    /// `damage` is the part of `shadow` that changed since the last `present` (nil: all of
    /// it). Each scanout buffer remembers what changed since it was last written (its
    /// buffer age), so only the union of the damage of the frames it missed is copied into
    /// the (often uncached) scanout memory.
    public func present(damage: PixelRect? = nil) throws(KMSError) {
        // Recorded first: a refused flip keeps the damage for the retry.
        let whole = PixelRect(width: width, height: height)
        for i in stale.indices { stale[i] = Self.union(stale[i], damage ?? whole) }
        guard !isFlipPending else { throw KMSError(call: "drmModePageFlip", errno: Errno.resourceBusy) }
        if lastVBlank == nil { _ = try? resynchronize() }
        if var virtual = virtualOutput, let clock {
            virtual.pending = (.pageFlip, virtual.next(after: clock.now))
            virtualOutput = virtual
            isFlipPending = true
            targetedSequence = lastVBlank.map { $0.sequence + 1 }
            return
        }
        let back = 1 - front
        if let r = stale[back] {
            let region = r.intersection(whole)
            if !region.isEmpty {
                let memory = scanouts[back].memory.baseAddress!, pitch = scanouts[back].buffer.pitch
                switch format {
                case .xrgb8888: shadow.copyXRGB8888(into: memory, pitch: pitch, region: region)
                case .rgb565: shadow.copyRGB565(into: memory, pitch: pitch, region: region)
                }
                copiedPixels += region.area
            }
        }
        stale[back] = nil
        // The kernel's damage clip is this frame's change, not the buffer-age union.
        let clip = damage.map { $0.intersection(whole) }
        try device.pageFlip(crtc: crtc, framebuffer: scanouts[back].framebuffer, damage: clip)
        isFlipPending = true
        targetedSequence = lastVBlank.map { $0.sequence + 1 }
    }

    /// Asks for an event at the next vblank without a new frame (a display link that is due
    /// on a later vblank, or a frame that waits for input).
    public func requestVBlank() throws(KMSError) {
        if var virtual = virtualOutput, let clock {
            if virtual.pending == nil { virtual.pending = (.sequence, virtual.next(after: clock.now)) }
            virtualOutput = virtual
            return
        }
        try device.queueVBlankEvent(crtc: crtc)
    }

    /// Re-reads the current vblank after idle, so the next frame is predicted from a fresh
    /// timestamp rather than a stale flip (display-input.md §4).
    @discardableResult
    public func resynchronize() throws(KMSError) -> (sequence: UInt64, timestamp: Double) {
        if let virtual = virtualOutput, let clock {
            let sequence = virtual.next(after: clock.now) - 1
            lastVBlank = (sequence, virtual.time(sequence))
            return lastVBlank!
        }
        let vblank = try device.currentVBlank(crtc: crtc)
        lastVBlank = vblank
        return vblank
    }

    /// Delivers completed flips and vblanks; after a flip the old front buffer becomes the
    /// back buffer.
    public func dispatchEvents(_ handler: (VBlankEvent) -> Void) throws(KMSError) {
        if var virtual = virtualOutput {
            guard let clock, let pending = virtual.pending, virtual.time(pending.sequence) <= clock.now else { return }
            virtual.pending = nil
            virtualOutput = virtual
            let event = VBlankEvent(kind: pending.kind, crtc: 0, sequence: pending.sequence,
                                    timestamp: virtual.time(pending.sequence))
            if event.kind == .pageFlip {
                isFlipPending = false
                presentedFrames += 1
                targetedSequence = nil
            }
            lastVBlank = (event.sequence, event.timestamp)
            handler(event)
            return
        }
        try device.handleEvents { event in
            if event.kind == .pageFlip {
                front = 1 - front
                isFlipPending = false
                presentedFrames += 1
                if let target = targetedSequence, event.sequence > target {
                    missedVBlanks += Int(event.sequence - target)
                }
                targetedSequence = nil
            }
            lastVBlank = (event.sequence, event.timestamp)
            handler(event)
        }
    }

    /// True while the output is blanked (`blank`): nothing is flipped until `unblank`.
    public private(set) var isBlanked = false

    /// Turns the panel off (DPMS off) after idle. Only between flips: the caller waits for a
    /// pending flip first. While dark there is no panel to turn off, only the state.
    public func blank() throws(KMSError) {
        precondition(!isFlipPending, "blank after the pending flip has completed")
        guard !isBlanked else { return }
        if isLit { try device.setPower(false, connector: connector.id) }
        isBlanked = true
        if var virtual = virtualOutput {
            virtual.pending = nil
            virtualOutput = virtual
        }
        forgetFlipState()
    }

    /// Turns the panel back on showing the last frame; vblank tracking starts afresh.
    public func unblank() throws(KMSError) {
        guard isBlanked else { return }
        if isLit { try device.setPower(true, connector: connector.id) }
        isBlanked = false
        forgetFlipState()
    }

    /// Lets go of the display for another client (a VT switch away): drops DRM master.
    /// A flip in flight still completes and its event is still delivered.
    public func deactivate() throws(KMSError) {
        try device.dropMaster()
    }

    /// Takes DRM master back and sets the mode again after another client had the display
    /// (a VT switch): that client may have changed the CRTC, so the whole frame is copied
    /// out again on the next `present`, and vblank tracking starts afresh.
    public func reactivate() throws(KMSError) {
        try device.acquireMaster()
        try setModeAgain()
    }

    /// Sets the mode again showing the front buffer (flips keep being refused: something
    /// else turned the CRTC off or changed it) and copies the whole frame out next time.
    public func setModeAgain() throws(KMSError) {
        guard isLit else { return }
        try device.setCRTC(crtc, framebuffer: scanouts[front].framebuffer, connector: connector.id, mode: mode)
        if isBlanked { try device.setPower(false, connector: connector.id) }     // stay dark until woken
        let whole = PixelRect(width: width, height: height)
        stale = [whole, whole]
        forgetFlipState()
    }

    /// No flip in flight and no vblank known: after a new modeset or a switch of output, the
    /// next frame re-syncs to whatever vblank counter the CRTC (or virtual grid) has now.
    private func forgetFlipState() {
        isFlipPending = false
        targetedSequence = nil
        lastVBlank = nil
    }

    /// Restores the CRTC found at start and frees the buffers. Safe to call twice.
    public func close() {
        guard !closed else { return }
        closed = true
        if isLit { device.restoreSavedState() }
        releaseBuffers()
    }

    private func releaseBuffers() {
        for s in scanouts {
            device.removeFramebuffer(s.framebuffer)
            device.destroyDumbBuffer(s.buffer, mapping: s.memory)
        }
        scanouts.removeAll()
        front = 0
    }

    /// Row by row by `pitch`: premultiplied pixels over black are exactly the XRGB values.
}
