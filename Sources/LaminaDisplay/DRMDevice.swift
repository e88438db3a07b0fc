import CDRM
import LaminaPixels
import SystemPackage
#if canImport(Glibc)
import Glibc
#endif

/// A DRM/KMS card driven through libdrm: dumb buffers, a legacy modeset
/// (`drmModeSetCrtc`) and page flips with events (atomic commits with damage clips where the
/// kernel takes atomic, `drmModePageFlip` otherwise). One thin wrapper per C call; each
/// returns a typed `KMSError` with the errno. Universal planes, atomic and writeback
/// connectors are asked for at open: probe lists planes and atomic support, and the
/// writeback connector reads the composed frame back.
public final class DRMDevice: KMSDevice {
    /// The device node, such as `/dev/dri/card0`.
    public let path: String
    /// The open descriptor (closed when the device goes away).
    public let fd: Int32
    /// The kernel driver's name, such as `vkms` or `vc4`.
    public let driverName: String
    /// The kernel took `DRM_CLIENT_CAP_ATOMIC` for this file.
    public let supportsAtomic: Bool
    /// The kernel took `DRM_CLIENT_CAP_WRITEBACK_CONNECTORS` (needs atomic).
    let supportsWriteback: Bool
    private var savedCRTC: UnsafeMutablePointer<drmModeCrtc>?
    private var savedConnector: UInt32?
    private var collected: [VBlankEvent] = []
    /// Per CRTC, the primary plane atomic flips set (found after each modeset; nil: legacy).
    private var flipPlanes: [UInt32: FlipPlane?] = [:]
    /// Created on first use: a daemon listens, `lamina probe` does not.
    private lazy var hotplugMonitor = HotplugMonitor()

    /// Opens `path` and checks what Lamina needs: dumb buffers and monotonic timestamps.
    public init(path: String) throws(KMSError) {
        let fd = Glibc.open(path, O_RDWR | O_CLOEXEC)
        guard fd >= 0 else { throw KMSError(call: "open", errno: errno, detail: path) }
        self.path = path
        self.fd = fd
        if let version = drmGetVersion(fd) {
            driverName = version.pointee.name.map { String(cString: $0) } ?? "unknown"
            drmFreeVersion(version)
        } else {
            driverName = "unknown"
        }
        // Universal planes list the primary and cursor planes too; atomic implies them.
        _ = drmSetClientCap(fd, UInt64(DRM_CLIENT_CAP_UNIVERSAL_PLANES), 1)
        supportsAtomic = drmSetClientCap(fd, UInt64(DRM_CLIENT_CAP_ATOMIC), 1) == 0
        supportsWriteback = supportsAtomic && drmSetClientCap(fd, UInt64(DRM_CLIENT_CAP_WRITEBACK_CONNECTORS), 1) == 0
        do throws(KMSError) {
            guard try capability(UInt64(DRM_CAP_DUMB_BUFFER)) != 0 else {
                throw KMSError(call: "drmGetCap", errno: Errno.operationNotSupportedByDevice, detail: "\(path) has no dumb buffers")
            }
            guard try capability(UInt64(DRM_CAP_TIMESTAMP_MONOTONIC)) == 1 else {
                throw KMSError(call: "drmGetCap", errno: Errno.operationNotSupportedByDevice,
                               detail: "\(path) does not stamp flips with CLOCK_MONOTONIC")
            }
        } catch {
            Glibc.close(fd)
            throw error
        }
    }

    deinit {
        if let savedCRTC { drmModeFreeCrtc(savedCRTC) }
        Glibc.close(fd)
    }

    public var name: String { "\(path) (\(driverName))" }

    /// The cards under `/dev/dri`, in name order (`card0`, `card1`, …).
    public static func cardPaths(directory: String = "/dev/dri") -> [String] {
        guard let dir = opendir(directory) else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafePointer(to: entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
            }
            if name.hasPrefix("card") { names.append(name) }
        }
        return names.sorted { $0.count != $1.count ? $0.count < $1.count : $0 < $1 }.map { "\(directory)/\($0)" }
    }

    /// The first card that opens and has a connected connector; else the first that has
    /// connectors at all (a display may be plugged in later: the daemon runs dark until then);
    /// else the reasons none could be used.
    public static func openFirstUsable(directory: String = "/dev/dri") -> Result<DRMDevice, KMSError> {
        let paths = cardPaths(directory: directory)
        guard !paths.isEmpty else {
            return .failure(KMSError(call: "open", errno: Errno.noSuchFileOrDirectory, detail: "no \(directory)/card* device"))
        }
        var reasons: [String] = []
        var unplugged: DRMDevice?
        for path in paths {
            do {
                let device = try DRMDevice(path: path)
                let resources = try device.resources()
                if resources.connectors.contains(where: \.isConnected) { return .success(device) }
                if resources.connectors.isEmpty {
                    reasons.append("\(path): no connectors (not a display controller)")
                } else {
                    reasons.append("\(path): no connected connector")
                    if unplugged == nil { unplugged = device }
                }
            } catch {
                reasons.append(error.description)
            }
        }
        if let unplugged { return .success(unplugged) }
        return .failure(KMSError(call: "open", errno: Errno.operationNotSupportedByDevice, detail: reasons.joined(separator: "; ")))
    }

    private func capability(_ cap: UInt64) throws(KMSError) -> UInt64 {
        var value: UInt64 = 0
        let ret = drmGetCap(fd, cap, &value)
        if ret != 0 { throw KMSError(call: "drmGetCap", errno: Self.errnoOf(ret)) }
        return value
    }

    static func errnoOf(_ ret: Int32) -> Int32 { ret == -1 ? errno : -ret }

    public func resources() throws(KMSError) -> KMSResources {
        guard let res = drmModeGetResources(fd) else { throw KMSError(call: "drmModeGetResources", errno: errno) }
        defer { drmModeFreeResources(res) }
        let crtcs = (0..<Int(res.pointee.count_crtcs)).map { res.pointee.crtcs[$0] }
        var connectors: [KMSConnector] = []
        var writeback: UInt32?
        for i in 0..<Int(res.pointee.count_connectors) {
            guard let c = drmModeGetConnector(fd, res.pointee.connectors[i]) else { continue }
            defer { drmModeFreeConnector(c) }
            if c.pointee.connector_type == UInt32(DRM_MODE_CONNECTOR_WRITEBACK) {
                writeback = c.pointee.connector_id
                continue
            }
            let typeName = drmModeGetConnectorTypeName(c.pointee.connector_type).map { String(cString: $0) } ?? "Unknown"
            let modes = (0..<Int(c.pointee.count_modes)).map { Self.mode(c.pointee.modes[$0]) }
            var possible: [UInt32] = []
            for e in 0..<Int(c.pointee.count_encoders) {
                guard let encoder = drmModeGetEncoder(fd, c.pointee.encoders[e]) else { continue }
                for (index, crtc) in crtcs.enumerated() where encoder.pointee.possible_crtcs & (1 << UInt32(index)) != 0 {
                    if !possible.contains(crtc) { possible.append(crtc) }
                }
                drmModeFreeEncoder(encoder)
            }
            connectors.append(KMSConnector(
                id: c.pointee.connector_id, name: "\(typeName)-\(c.pointee.connector_type_id)",
                isConnected: c.pointee.connection == DRM_MODE_CONNECTED, modes: modes, possibleCRTCs: possible,
                panelOrientation: panelOrientation(connector: c.pointee.connector_id)))
        }
        return KMSResources(connectors: connectors, crtcs: crtcs, planes: planes(crtcs: crtcs),
                            supportsAtomic: supportsAtomic, writebackConnector: writeback)
    }

    static func mode(_ info: drmModeModeInfo) -> KMSMode {
        KMSMode(name: string(info.name), width: Int(info.hdisplay), height: Int(info.vdisplay), clock: Int(info.clock),
                       htotal: Int(info.htotal), vtotal: Int(info.vtotal),
                       isPreferred: info.type & UInt32(DRM_MODE_TYPE_PREFERRED) != 0,
                       flags: info.flags, vscan: Int(info.vscan))
    }

    /// The kernel's mode record for `mode` (looked up again so every timing field is exact).
    private func modeInfo(for mode: KMSMode, connector: UInt32) throws(KMSError) -> drmModeModeInfo {
        guard let c = drmModeGetConnector(fd, connector) else { throw KMSError(call: "drmModeGetConnector", errno: errno) }
        defer { drmModeFreeConnector(c) }
        for i in 0..<Int(c.pointee.count_modes) where Self.mode(c.pointee.modes[i]) == mode {
            return c.pointee.modes[i]
        }
        throw KMSError(call: "drmModeSetCrtc", errno: Errno.invalidArgument, detail: "mode \(mode) not offered")
    }

    public func createDumbBuffer(width: Int, height: Int, bitsPerPixel: Int) throws(KMSError) -> DumbBuffer {
        var request = drm_mode_create_dumb()
        request.width = UInt32(width)
        request.height = UInt32(height)
        request.bpp = UInt32(bitsPerPixel)
        let ret = drmIoctl(fd, lamina_drm_ioctl_mode_create_dumb(), &request)
        if ret != 0 { throw KMSError(call: "DRM_IOCTL_MODE_CREATE_DUMB", errno: errno) }
        return DumbBuffer(handle: request.handle, width: width, height: height, bitsPerPixel: bitsPerPixel,
                          pitch: Int(request.pitch), size: Int(request.size))
    }

    public func mapDumbBuffer(_ buffer: DumbBuffer) throws(KMSError) -> UnsafeMutableRawBufferPointer {
        var request = drm_mode_map_dumb()
        request.handle = buffer.handle
        if drmIoctl(fd, lamina_drm_ioctl_mode_map_dumb(), &request) != 0 {
            throw KMSError(call: "DRM_IOCTL_MODE_MAP_DUMB", errno: errno)
        }
        let address = mmap(nil, buffer.size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, off_t(request.offset))
        guard let address, address != MAP_FAILED else { throw KMSError(call: "mmap", errno: errno) }
        return UnsafeMutableRawBufferPointer(start: address, count: buffer.size)
    }

    public func destroyDumbBuffer(_ buffer: DumbBuffer, mapping: UnsafeMutableRawBufferPointer?) {
        if let mapping, let base = mapping.baseAddress { munmap(base, mapping.count) }
        var request = drm_mode_destroy_dumb()
        request.handle = buffer.handle
        _ = drmIoctl(fd, lamina_drm_ioctl_mode_destroy_dumb(), &request)
    }

    public func addFramebuffer(_ buffer: DumbBuffer, format: PixelFormat) throws(KMSError) -> UInt32 {
        var handles: (UInt32, UInt32, UInt32, UInt32) = (buffer.handle, 0, 0, 0)
        var pitches: (UInt32, UInt32, UInt32, UInt32) = (UInt32(buffer.pitch), 0, 0, 0)
        var offsets: (UInt32, UInt32, UInt32, UInt32) = (0, 0, 0, 0)
        var id: UInt32 = 0
        let fourcc = format == .xrgb8888 ? lamina_drm_format_xrgb8888() : lamina_drm_format_rgb565()
        let ret = withUnsafePointer(to: &handles) { h in
            withUnsafePointer(to: &pitches) { p in
                withUnsafePointer(to: &offsets) { o in
                    drmModeAddFB2(fd, UInt32(buffer.width), UInt32(buffer.height), fourcc,
                                  UnsafeRawPointer(h).assumingMemoryBound(to: UInt32.self),
                                  UnsafeRawPointer(p).assumingMemoryBound(to: UInt32.self),
                                  UnsafeRawPointer(o).assumingMemoryBound(to: UInt32.self), &id, 0)
                }
            }
        }
        if ret != 0 { throw KMSError(call: "drmModeAddFB2", errno: Self.errnoOf(ret)) }
        return id
    }

    public func removeFramebuffer(_ id: UInt32) {
        _ = drmModeRmFB(fd, id)
    }

    public func setCRTC(_ crtc: UInt32, framebuffer: UInt32, connector: UInt32, mode: KMSMode) throws(KMSError) {
        if savedCRTC == nil {
            savedCRTC = drmModeGetCrtc(fd, crtc)
            savedConnector = connector
        }
        var info = try modeInfo(for: mode, connector: connector)
        var connectorID = connector
        let ret = drmModeSetCrtc(fd, crtc, framebuffer, 0, 0, &connectorID, 1, &info)
        flipPlanes[crtc] = nil                              // the modeset may have moved planes
        if ret != 0 { throw KMSError(call: "drmModeSetCrtc", errno: Self.errnoOf(ret)) }
    }

    /// Flip with `drmModePageFlip` even where atomic is supported (`display.page_flips`):
    /// an escape hatch for a driver whose atomic path misbehaves.
    public var prefersLegacyFlips = false {
        didSet { flipPlanes.removeAll() }
    }

    /// Per overlay plane, the property ids a commit placing it sets (looked up once).
    var overlayPlaneProperties: [UInt32: OverlayPlaneProperties] = [:]

    /// The primary plane atomic flips use on `crtc`, looked up once per modeset.
    func flipPlane(crtc: UInt32) -> FlipPlane? {
        guard supportsAtomic, !prefersLegacyFlips else { return nil }
        if let known = flipPlanes[crtc] { return known }
        let found = findFlipPlane(crtc: crtc)
        flipPlanes[crtc] = .some(found)
        return found
    }

    public func pageFlipMethod(crtc: UInt32) -> String {
        let plane = flipPlane(crtc: crtc)
        return Self.pageFlipDescription(atomic: plane != nil, damageClips: plane?.damageClipsProperty != nil)
    }

    public func pageFlip(crtc: UInt32, framebuffer: UInt32, damage: PixelRect?) throws(KMSError) {
        try pageFlip(crtc: crtc, framebuffer: framebuffer, damage: damage, overlay: .unchanged)
    }

    public func pageFlip(crtc: UInt32, framebuffer: UInt32, damage: PixelRect?, overlay: OverlayUpdate) throws(KMSError) {
        if let plane = flipPlane(crtc: crtc) {
            try atomicFlip(plane, framebuffer: framebuffer, damage: damage, crtc: crtc, overlay: overlay)
            return
        }
        guard overlay == .unchanged else {
            throw KMSError(call: "drmModePageFlip", errno: Errno.operationNotSupportedByDevice, detail: "legacy flips carry no overlay plane")
        }
        let context = Unmanaged.passUnretained(self).toOpaque()
        let ret = drmModePageFlip(fd, crtc, framebuffer, UInt32(DRM_MODE_PAGE_FLIP_EVENT), context)
        if ret != 0 { throw KMSError(call: "drmModePageFlip", errno: Self.errnoOf(ret)) }
    }

    public func cursorSize(crtc: UInt32) -> (width: Int, height: Int)? {
        let width = (try? capability(UInt64(DRM_CAP_CURSOR_WIDTH))) ?? 64
        let height = (try? capability(UInt64(DRM_CAP_CURSOR_HEIGHT))) ?? 64
        guard width > 0, height > 0, width <= 512, height <= 512 else { return nil }
        return (Int(width), Int(height))
    }

    public func setCursor(crtc: UInt32, buffer: DumbBuffer?) throws(KMSError) {
        let ret = drmModeSetCursor(fd, crtc, buffer?.handle ?? 0, UInt32(buffer?.width ?? 0), UInt32(buffer?.height ?? 0))
        if ret != 0 { throw KMSError(call: "drmModeSetCursor", errno: Self.errnoOf(ret)) }
    }

    public func moveCursor(crtc: UInt32, x: Int, y: Int) throws(KMSError) {
        let ret = drmModeMoveCursor(fd, crtc, Int32(clamping: x), Int32(clamping: y))
        if ret != 0 { throw KMSError(call: "drmModeMoveCursor", errno: Self.errnoOf(ret)) }
    }

    public func queueVBlankEvent(crtc: UInt32) throws(KMSError) {
        var queued: UInt64 = 0
        let context = UInt64(UInt(bitPattern: Unmanaged.passUnretained(self).toOpaque()))
        let ret = drmCrtcQueueSequence(fd, crtc, UInt32(DRM_CRTC_SEQUENCE_RELATIVE), 1, &queued, context)
        if ret != 0 { throw KMSError(call: "drmCrtcQueueSequence", errno: Self.errnoOf(ret)) }
    }

    public func currentVBlank(crtc: UInt32) throws(KMSError) -> (sequence: UInt64, timestamp: Double) {
        var sequence: UInt64 = 0
        var ns: UInt64 = 0
        let ret = drmCrtcGetSequence(fd, crtc, &sequence, &ns)
        if ret != 0 { throw KMSError(call: "drmCrtcGetSequence", errno: Self.errnoOf(ret)) }
        return (sequence, Double(ns) / 1e9)
    }

    public var eventDescriptor: Int32? { fd }
    public var hotplugDescriptor: Int32? { hotplugMonitor?.descriptor }
    public func takeHotplug() -> Bool { hotplugMonitor?.takeHotplug() ?? false }
    public var nextEventTime: Double? { nil }

    /// Never blocks: `drmHandleEvent` reads the fd, which would wait for the next event, so
    /// it runs only when a zero-timeout `poll` says an event is there.
    public func handleEvents(_ handler: (VBlankEvent) -> Void) throws(KMSError) {
        do {
            guard try FileDescriptor(rawValue: fd).isReadableNow() else { return }
        } catch {
            throw KMSError(call: "poll", errno: error)
        }
        var context = drmEventContext()
        context.version = 4
        context.page_flip_handler2 = { _, sequence, seconds, microseconds, crtc, userData in
            guard let userData else { return }
            let device = Unmanaged<DRMDevice>.fromOpaque(userData).takeUnretainedValue()
            device.collected.append(VBlankEvent(kind: .pageFlip, crtc: crtc, sequence: UInt64(sequence),
                                                timestamp: Double(seconds) + Double(microseconds) / 1e6))
        }
        context.sequence_handler = { _, sequence, ns, userData in
            guard let pointer = UnsafeMutableRawPointer(bitPattern: UInt(userData)) else { return }
            let device = Unmanaged<DRMDevice>.fromOpaque(pointer).takeUnretainedValue()
            device.collected.append(VBlankEvent(kind: .sequence, crtc: 0, sequence: sequence,
                                                timestamp: Double(ns) / 1e9))
        }
        let ret = drmHandleEvent(fd, &context)
        let events = collected
        collected.removeAll()
        for event in events { handler(event) }
        if ret != 0 { throw KMSError(call: "drmHandleEvent", errno: Self.errnoOf(ret)) }
    }

    /// What `crtc` shows now (`drmModeGetCrtc`): its framebuffer (0 when off) and mode.
    public func crtcState(_ crtc: UInt32) throws(KMSError) -> (framebuffer: UInt32, mode: KMSMode?) {
        guard let state = drmModeGetCrtc(fd, crtc) else { throw KMSError(call: "drmModeGetCrtc", errno: errno) }
        defer { drmModeFreeCrtc(state) }
        return (state.pointee.buffer_id, state.pointee.mode_valid != 0 ? Self.mode(state.pointee.mode) : nil)
    }

    /// `drmModeConnectorSetProperty` on the connector's `DPMS` property.
    public func setPower(_ on: Bool, connector: UInt32) throws(KMSError) {
        let property = try propertyID(of: connector, type: UInt32(DRM_MODE_OBJECT_CONNECTOR), named: "DPMS")
        let value = UInt64(on ? DRM_MODE_DPMS_ON : DRM_MODE_DPMS_OFF)
        let ret = drmModeConnectorSetProperty(fd, connector, property, value)
        if ret != 0 { throw KMSError(call: "drmModeConnectorSetProperty", errno: Self.errnoOf(ret), detail: "DPMS") }
    }

    /// The connector's `DPMS` value now (0 on … 3 off), for checks; readable without master.
    public func powerState(connector: UInt32) -> UInt64? {
        properties(of: connector, type: UInt32(DRM_MODE_OBJECT_CONNECTOR))["DPMS"]?.value
    }

    /// `drmDropMaster`: another client (the next VT) may take the display.
    public func dropMaster() throws(KMSError) {
        let ret = drmDropMaster(fd)
        if ret != 0 { throw KMSError(call: "drmDropMaster", errno: Self.errnoOf(ret)) }
    }

    /// `drmSetMaster`: take the display back (on VT return).
    public func acquireMaster() throws(KMSError) {
        let ret = drmSetMaster(fd)
        if ret != 0 { throw KMSError(call: "drmSetMaster", errno: Self.errnoOf(ret)) }
    }

    /// Puts back the CRTC found before the first modeset: its framebuffer and mode, or off
    /// when it was off (the console's own framebuffer, usually).
    public func restoreSavedState() {
        guard let saved = savedCRTC, var connector = savedConnector else { return }
        var mode = saved.pointee.mode
        if saved.pointee.mode_valid != 0 && saved.pointee.buffer_id != 0 {
            _ = drmModeSetCrtc(fd, saved.pointee.crtc_id, saved.pointee.buffer_id, saved.pointee.x, saved.pointee.y,
                               &connector, 1, &mode)
        } else {
            _ = drmModeSetCrtc(fd, saved.pointee.crtc_id, 0, 0, 0, nil, 0, nil)
        }
        drmModeFreeCrtc(saved)
        savedCRTC = nil
    }
}
