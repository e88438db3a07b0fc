import LaminaPixels
import SystemPackage

/// One output, double buffered: two dumb buffers on a KMS device, a cached shadow buffer to
/// render into, and page flips on vblank.
///
/// Rendering never touches scanout memory directly (it is often uncached, display-input.md
/// §3): frames are drawn into `shadow` and copied row by row, by `pitch`, into the back
/// buffer, which is then flipped. One flip is in flight at a time.
public final class Display {
    /// The KMS device shown on.
    public let device: KMSDevice
    /// The connector shown on; while dark, a placeholder named `none` with the virtual mode.
    public private(set) var connector: KMSConnector
    /// The mode being shown (the virtual output's while dark).
    public private(set) var mode: KMSMode
    /// The CRTC driving the connector.
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

    /// What the display drives now: a lit connector's scanout buffers, or a virtual output.
    private var output: Output
    /// The overlay plane and its buffers (Display+Overlay.swift), found when first asked for
    /// while lit; `overlayLookedUp` says the search ran (nil then: there is none).
    var overlayScanout: OverlayScanout?
    var overlayLookedUp = false
    /// Scanout buffers lent to video decoders (decision 148).
    let scanoutLending: ScanoutLending
    /// Per scanout buffer, the parts of `shadow` changed since it was last written (all of
    /// it whenever the output lights up): the regions of the frames it missed, so a frame
    /// that changed a few bands copies those, not the rectangle spanning them.
    private var stale = [Display.noStaleRegions, Display.noStaleRegions]
    /// Rectangles a buffer's stale regions keep at most (each a copy of its own).
    static let maximumStaleRegions = 8
    private static let noStaleRegions = PixelRegions(maximumCount: maximumStaleRegions)

    private func everythingStale() -> [PixelRegions] {
        var all = Self.noStaleRegions
        all.add(PixelRect(width: width, height: height))
        return [all, all]
    }
    /// Pixels copied into scanout memory so far (damage makes this small).
    public private(set) var copiedPixels = 0

    /// The clock a dark display paces its virtual vblanks on; without one a display cannot
    /// run dark (a lost connector then keeps failing flips until it returns).
    private let clock: MonotonicClock?

    /// Lit or dark: the one place the display's output state lives.
    private enum Output {
        /// A connector shows `buffers[front]`; frames are copied into the other and flipped.
        case lit(buffers: [Scanout], front: Int)
        /// No connector is connected: frames are drawn into `shadow` and "flip" on a virtual
        /// vblank grid on `clock`, so animations and links keep running (display-input.md §8).
        case dark(VirtualVBlanks, clock: MonotonicClock)
    }

    /// The virtual output's vblanks, and the one event pending on them.
    private struct VirtualVBlanks {
        var grid: VBlankGrid
        var pending: (kind: VBlankEvent.Kind, sequence: UInt64)?

        init(epoch: Double, period: Double) { grid = VBlankGrid(epoch: epoch, period: period) }
        func time(_ sequence: UInt64) -> Double { grid.time(sequence) }
        func next(after now: Double) -> UInt64 { grid.next(after: now) }
    }

    /// True while a connector is lit; false on the virtual output.
    public var isLit: Bool {
        if case .lit = output { return true }
        return false
    }

    /// The front buffer's pixels as written (XRGB8888 only), for checks.
    public func readFront() -> PixelBuffer {
        guard format == .xrgb8888, case .lit(let buffers, let front) = output else {
            preconditionFailure("readFront reads a lit display's XRGB8888 buffers")
        }
        let scanout = buffers[front]
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
    /// Frames handed to the device.
    public private(set) var presentedFrames = 0
    private var closed = false

    /// Width of the picture in pixels.
    public var width: Int { mode.width }
    /// Height of the picture in pixels.
    public var height: Int { mode.height }
    /// Refreshes per second.
    public var refreshRate: Double { mode.refreshRate }
    /// Seconds per vblank, from the mode timings (not the integer `vrefresh`).
    public var frameDuration: Double { 1 / mode.refreshRate }
    /// The framebuffer the next frame is copied into and flipped to (nil while dark).
    var backFramebuffer: UInt32? {
        guard case .lit(let buffers, let front) = output, buffers.count == 2 else { return nil }
        return buffers[1 - front].framebuffer
    }

    /// The framebuffer currently scanned out (0 while dark).
    public var frontFramebuffer: UInt32 {
        guard case .lit(let buffers, let front) = output, buffers.indices.contains(front) else { return 0 }  // dark or closed
        return buffers[front].framebuffer
    }

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
        scanoutLending = ScanoutLending(device: device)
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
            output = .dark(VirtualVBlanks(epoch: clock!.now, period: 1 / virtualMode!.refreshRate), clock: clock!)
            return
        }
        connector = choice.connector
        mode = choice.mode
        crtc = choice.crtc
        shadow = PixelBuffer(width: choice.mode.width, height: choice.mode.height)
        output = .lit(buffers: try Self.light(device: device, connector: choice.connector, mode: choice.mode,
                                              crtc: choice.crtc, format: format), front: 0)
        stale = everythingStale()
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

    /// Two dumb buffers of `mode`, and a modeset showing the first. On failure whatever was
    /// made is freed again and nothing changed.
    private static func light(device: KMSDevice, connector: KMSConnector, mode: KMSMode, crtc: UInt32,
                              format: PixelFormat) throws(DisplayError) -> [Scanout] {
        var buffers: [Scanout] = []
        do {
            for _ in 0..<2 {
                let buffer = try device.createDumbBuffer(width: mode.width, height: mode.height,
                                                         bitsPerPixel: format.bitsPerPixel)
                let memory = try device.mapDumbBuffer(buffer)
                let fb = try device.addFramebuffer(buffer, format: format)
                buffers.append(Scanout(buffer: buffer, memory: memory, framebuffer: fb))
            }
            try device.setCRTC(crtc, framebuffer: buffers[0].framebuffer, connector: connector.id, mode: mode)
        } catch {
            release(buffers, on: device)
            throw .kms(error)
        }
        return buffers
    }

    /// What a hotplug changed, after `connectorsChanged`.
    public enum OutputChange: Equatable {
        /// Nothing changed for the output.
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
            output = .dark(VirtualVBlanks(epoch: clock.now, period: frameDuration), clock: clock)
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
        // Lit first: a panel that cannot be lit leaves the display dark as it was.
        let buffers = try Self.light(device: device, connector: choice.connector, mode: choice.mode,
                                     crtc: choice.crtc, format: format)
        connector = choice.connector
        crtc = choice.crtc
        if choice.mode.width != mode.width || choice.mode.height != mode.height {
            shadow = PixelBuffer(width: choice.mode.width, height: choice.mode.height)
        }
        mode = choice.mode
        output = .lit(buffers: buffers, front: 0)
        stale = everythingStale()
        forgetFlipState()
        isBlanked = false                                    // a new modeset lights the panel
        return .lit
    }

    /// When the next event is due on a clock, for the run loop's timeout: the device's, or
    /// the virtual output's while dark.
    public var nextEventTime: Double? {
        guard case .dark(let virtual, _) = output else { return device.nextEventTime }
        let times = [virtual.pending.map { virtual.time($0.sequence) }, device.nextEventTime].compactMap { $0 }
        return times.min()
    }

    deinit { close() }

    /// Copies `shadow` into the back buffer and asks for a flip at the next vblank.
    /// Throws EBUSY while a flip is pending (keep the frame and retry after the event).
    ///
    /// `damage` is the part of `shadow` that changed since the last `present` (nil: all of
    /// it), and `regions` the rectangles inside it that did (nil: all of `damage`). Each
    /// scanout buffer remembers what changed since it was last written (its buffer age), so
    /// only the regions of the frames it missed are copied into the (often uncached) scanout
    /// memory (`PixelRegions`); the kernel's damage clip is `damage`.
    ///
    /// `overlay` (from `prepareOverlay`) goes on the overlay plane in the same atomic
    /// commit; without one, a plane that shows something is turned off with it.
    ///
    /// `target` is when the frame is meant to be shown (its vblank is counted as missed when
    /// the flip lands later); nil is the next vblank.
    public func present(damage: PixelRect? = nil, regions: [PixelRect]? = nil, overlay: PlanePlacement? = nil,
                        target: Double? = nil) throws(KMSError) {
        // Recorded first: a refused flip keeps the damage for the retry.
        let whole = PixelRect(width: width, height: height)
        let changed = (damage.map { d in regions.map { $0.map { $0.intersection(d) } } ?? [d] } ?? [whole])
            .map { $0.intersection(whole) }.filter { !$0.isEmpty }
        for i in stale.indices {
            for r in changed { stale[i].add(r) }
        }
        guard !isFlipPending else { throw KMSError(call: "drmModePageFlip", errno: Errno.resourceBusy) }
        scanoutLending.freeReturned()           // scanout buffers a decoder has let go of
        if lastVBlank == nil { _ = try? resynchronize() }
        let buffers: [Scanout], back: Int
        switch output {
        case .dark(var virtual, let clock):
            virtual.pending = (.pageFlip, virtual.next(after: clock.now))
            output = .dark(virtual, clock: clock)
            isFlipPending = true
            targetedSequence = targetedVBlank(for: target)
            return
        case .lit(let lit, let front):
            buffers = lit
            back = 1 - front
        }
        for r in stale[back].nonEmpty {
            let region = r.intersection(whole)
            if !region.isEmpty {
                let memory = buffers[back].memory.baseAddress!, pitch = buffers[back].buffer.pitch
                switch format {
                case .xrgb8888: shadow.copyXRGB8888(into: memory, pitch: pitch, region: region)
                case .rgb565: shadow.copyRGB565(into: memory, pitch: pitch, region: region)
                }
                copiedPixels += region.area
            }
        }
        stale[back] = Self.noStaleRegions
        // The kernel's damage clip is this frame's change, not the buffer-age union.
        let clip = damage.map { $0.intersection(whole) }
        let update = overlayScanout?.update(for: overlay) ?? .unchanged
        do {
            try device.pageFlip(crtc: crtc, framebuffer: buffers[back].framebuffer, damage: clip, overlay: update)
        } catch {
            overlayScanout?.flipRefused()
            throw error
        }
        isFlipPending = true
        targetedSequence = targetedVBlank(for: target)
    }

    /// The vblank a frame presented now for `target` is meant for: the one nearest `target`
    /// counted from the last vblank known, at least the next.
    private func targetedVBlank(for target: Double?) -> UInt64? {
        guard let last = lastVBlank else { return nil }
        guard let target else { return last.sequence + 1 }
        let ahead = ((target - last.timestamp) * refreshRate).rounded()
        return last.sequence + (ahead.isFinite ? UInt64(min(max(ahead, 1), 1_000)) : 1)
    }

    /// Asks for an event at the next vblank without a new frame (a display link that is due
    /// on a later vblank, or a frame that waits for input).
    public func requestVBlank() throws(KMSError) {
        if case .dark(var virtual, let clock) = output {
            if virtual.pending == nil { virtual.pending = (.sequence, virtual.next(after: clock.now)) }
            output = .dark(virtual, clock: clock)
            return
        }
        try device.queueVBlankEvent(crtc: crtc)
    }

    /// Re-reads the current vblank after idle, so the next frame is predicted from a fresh
    /// timestamp rather than a stale flip (display-input.md §4).
    @discardableResult
    public func resynchronize() throws(KMSError) -> (sequence: UInt64, timestamp: Double) {
        if case .dark(let virtual, let clock) = output {
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
        if case .dark(var virtual, let clock) = output {
            guard let pending = virtual.pending, virtual.time(pending.sequence) <= clock.now else { return }
            virtual.pending = nil
            output = .dark(virtual, clock: clock)
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
                if case .lit(let buffers, let front) = output { output = .lit(buffers: buffers, front: 1 - front) }
                overlayScanout?.flipCompleted()
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
        if case .dark(var virtual, let clock) = output {
            virtual.pending = nil
            output = .dark(virtual, clock: clock)
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
        guard case .lit(let buffers, let front) = output else { return }
        try device.setCRTC(crtc, framebuffer: buffers[front].framebuffer, connector: connector.id, mode: mode)
        overlayScanout?.forgetState()
        if isBlanked { try device.setPower(false, connector: connector.id) }     // stay dark until woken
        stale = everythingStale()
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
        scanoutLending.close()
    }

    /// Frees a lit display's buffers (it is about to go dark, or is closing).
    private func releaseBuffers() {
        guard case .lit(let buffers, _) = output else { return }
        releaseOverlay()
        Self.release(buffers, on: device)
        output = .lit(buffers: [], front: 0)
    }

    private static func release(_ buffers: [Scanout], on device: KMSDevice) {
        for s in buffers {
            device.removeFramebuffer(s.framebuffer)
            device.destroyDumbBuffer(s.buffer, mapping: s.memory)
        }
    }

    /// Row by row by `pitch`: premultiplied pixels over black are exactly the XRGB values.
}
