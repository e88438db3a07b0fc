import LaminaRaster

/// Why an output could not be brought up.
public enum DisplayError: Error, CustomStringConvertible {
    case noConnectedConnector(device: String)
    case connectorNotFound(name: String, available: [String])
    case noMode(connector: String)
    case modeNotOffered(request: ModeRequest, connector: String, available: [String])
    case formatNotScannedOut(format: PixelFormat, connector: String)
    case noCRTC(connector: String)
    case kms(KMSError)

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
    public let connector: KMSConnector
    public let mode: KMSMode
    public let crtc: UInt32
    /// The scanout format: XRGB8888, or RGB565 (dithered) for 16-bit panels.
    public let format: PixelFormat
    /// The render target: premultiplied, cached memory the size of the mode.
    public let shadow: PixelBuffer

    private struct Scanout {
        var buffer: DumbBuffer
        var memory: UnsafeMutableRawBufferPointer
        var framebuffer: UInt32
    }

    private var scanouts: [Scanout] = []
    private var front = 0
    /// Per scanout buffer, the part of `shadow` changed since it was last written.
    private var stale: [Region?] = [(0, 0, Int.max, Int.max), (0, 0, Int.max, Int.max)]
    /// Pixels copied into scanout memory so far (damage makes this small).
    public private(set) var copiedPixels = 0

    /// A rectangle of pixels, half-open.
    public typealias Region = PixelBuffer.Region

    private static func union(_ a: Region?, _ b: Region) -> Region? {
        guard b.x0 < b.x1, b.y0 < b.y1 else { return a }          // nothing changed
        guard let a else { return b }
        return (min(a.x0, b.x0), min(a.y0, b.y0), max(a.x1, b.x1), max(a.y1, b.y1))
    }

    /// The front buffer's pixels as written (XRGB8888 only), for checks.
    public func readFront() -> PixelBuffer {
        precondition(format == .xrgb8888, "readFront reads XRGB8888 buffers")
        let result = PixelBuffer(width: width, height: height)
        let scanout = scanouts[front]
        for y in 0..<height {
            let row = (scanout.memory.baseAddress! + y * scanout.buffer.pitch).assumingMemoryBound(to: UInt32.self)
            for x in 0..<width { result[x, y] = row[x] | 0xFF00_0000 }
        }
        return result
    }

    /// The composed frame as the device shows it (writeback on a kernel device), or nil.
    public func captureComposedFrame() throws(KMSError) -> PixelBuffer? {
        try device.captureComposedFrame(crtc: crtc)
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
    /// The framebuffer currently scanned out.
    public var frontFramebuffer: UInt32 { scanouts[front].framebuffer }

    /// Brings up an output: the named connector (or the first connected one), the requested
    /// mode, a CRTC that can drive it, two dumb buffers of `format`, and a modeset showing a
    /// black first buffer.
    public init(device: KMSDevice, connectorName: String? = nil, mode request: ModeRequest = .preferred,
                format: PixelFormat = .xrgb8888) throws(DisplayError) {
        self.device = device
        self.format = format
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
        connector = chosen
        self.mode = mode
        self.crtc = crtc
        shadow = PixelBuffer(width: mode.width, height: mode.height)
        do {
            for _ in 0..<2 {
                let buffer = try device.createDumbBuffer(width: mode.width, height: mode.height,
                                                         bitsPerPixel: format.bitsPerPixel)
                let memory = try device.mapDumbBuffer(buffer)
                let fb = try device.addFramebuffer(buffer, format: format)
                scanouts.append(Scanout(buffer: buffer, memory: memory, framebuffer: fb))
            }
            try device.setCRTC(crtc, framebuffer: scanouts[0].framebuffer, connector: chosen.id, mode: mode)
        } catch {
            releaseBuffers()
            throw .kms(error)
        }
    }

    deinit { close() }

    /// Copies `shadow` into the back buffer and asks for a flip at the next vblank.
    /// Throws EBUSY while a flip is pending (keep the frame and retry after the event).
    ///
    /// `damage` is the part of `shadow` that changed since the last `present` (nil: all of
    /// it). Each scanout buffer remembers what changed since it was last written (its
    /// buffer age), so only the union of the damage of the frames it missed is copied into
    /// the (often uncached) scanout memory.
    public func present(damage: Region? = nil) throws(KMSError) {
        // Recorded first: a refused flip keeps the damage for the retry.
        let whole: Region = (0, 0, width, height)
        for i in stale.indices { stale[i] = Self.union(stale[i], damage ?? whole) }
        guard !isFlipPending else { throw KMSError(call: "drmModePageFlip", errno: KMSError.EBUSY) }
        if lastVBlank == nil { _ = try? resynchronize() }
        let back = 1 - front
        if let r = stale[back] {
            let region: Region = (max(r.x0, 0), max(r.y0, 0), min(r.x1, width), min(r.y1, height))
            if region.x0 < region.x1 && region.y0 < region.y1 {
                let memory = scanouts[back].memory.baseAddress!, pitch = scanouts[back].buffer.pitch
                switch format {
                case .xrgb8888: shadow.copyXRGB8888(into: memory, pitch: pitch, region: region)
                case .rgb565: shadow.copyRGB565(into: memory, pitch: pitch, region: region)
                }
                copiedPixels += (region.x1 - region.x0) * (region.y1 - region.y0)
            }
        }
        stale[back] = nil
        try device.pageFlip(crtc: crtc, framebuffer: scanouts[back].framebuffer)
        isFlipPending = true
        targetedSequence = lastVBlank.map { $0.sequence + 1 }
    }

    /// Asks for an event at the next vblank without a new frame (a display link that is due
    /// on a later vblank, or a frame that waits for input).
    public func requestVBlank() throws(KMSError) {
        try device.queueVBlankEvent(crtc: crtc)
    }

    /// Re-reads the current vblank after idle, so the next frame is predicted from a fresh
    /// timestamp rather than a stale flip (display-input.md §4).
    @discardableResult
    public func resynchronize() throws(KMSError) -> (sequence: UInt64, timestamp: Double) {
        let vblank = try device.currentVBlank(crtc: crtc)
        lastVBlank = vblank
        return vblank
    }

    /// Delivers completed flips and vblanks; after a flip the old front buffer becomes the
    /// back buffer.
    public func dispatchEvents(_ handler: (VBlankEvent) -> Void) throws(KMSError) {
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

    /// Takes DRM master back and sets the mode again after another client had the display
    /// (a VT switch): that client may have changed the CRTC, so the whole frame is copied
    /// out again on the next `present`, and vblank tracking starts afresh.
    public func reactivate() throws(KMSError) {
        try device.acquireMaster()
        try device.setCRTC(crtc, framebuffer: scanouts[front].framebuffer, connector: connector.id, mode: mode)
        let whole: Region = (0, 0, width, height)
        stale = [whole, whole]
        isFlipPending = false
        targetedSequence = nil
        lastVBlank = nil
    }

    /// Restores the CRTC found at start and frees the buffers. Safe to call twice.
    public func close() {
        guard !closed else { return }
        closed = true
        device.restoreSavedState()
        releaseBuffers()
    }

    private func releaseBuffers() {
        for s in scanouts {
            device.removeFramebuffer(s.framebuffer)
            device.destroyDumbBuffer(s.buffer, mapping: s.memory)
        }
        scanouts.removeAll()
    }

    /// Row by row by `pitch`: premultiplied pixels over black are exactly the XRGB values.
}
