import SystemPackage
import LaminaGeometry
import LaminaPixels

/// A display mode, with the timings DRM reports (`drmModeModeInfo`).
public struct KMSMode: Hashable, Sendable, CustomStringConvertible {
    /// The mode's name, such as `1920x1080`.
    public var name: String
    /// Visible pixels across.
    public var width: Int
    /// Visible lines.
    public var height: Int
    /// Pixel clock in kHz.
    public var clock: Int
    /// Pixels per line, blanking included.
    public var htotal: Int
    /// Lines per frame, blanking included.
    public var vtotal: Int
    /// True for `DRM_MODE_TYPE_PREFERRED`.
    public var isPreferred: Bool
    /// Raw `DRM_MODE_FLAG_*` bits (interlace, doublescan).
    public var flags: UInt32
    /// Times each line is scanned (0 or 1: once).
    public var vscan: Int

    /// A mode from its timing.
    public init(name: String, width: Int, height: Int, clock: Int, htotal: Int, vtotal: Int,
                isPreferred: Bool = false, flags: UInt32 = 0, vscan: Int = 0) {
        self.name = name
        self.width = width
        self.height = height
        self.clock = clock
        self.htotal = htotal
        self.vtotal = vtotal
        self.isPreferred = isPreferred
        self.flags = flags
        self.vscan = vscan
    }

    static let interlaceFlag: UInt32 = 1 << 4
    static let doubleScanFlag: UInt32 = 1 << 5

    /// Refresh in Hz from the timings: `clock·1000 / (htotal·vtotal)`, ×2 interlaced,
    /// ÷2 doublescan, ÷vscan (display-input.md §3). The integer `vrefresh` is too coarse.
    public var refreshRate: Double {
        guard htotal > 0, vtotal > 0 else { return 0 }
        var rate = Double(clock) * 1000 / (Double(htotal) * Double(vtotal))
        if flags & Self.interlaceFlag != 0 { rate *= 2 }
        if flags & Self.doubleScanFlag != 0 { rate /= 2 }
        if vscan > 1 { rate /= Double(vscan) }
        return rate
    }

    /// The CEA-861 1920x1080 mode at exactly 60 Hz (148.5 MHz, 2200 x 1125 total).
    public static let cea1080p60 = KMSMode(name: "1920x1080", width: 1920, height: 1080,
                                           clock: 148_500, htotal: 2200, vtotal: 1125, isPreferred: true)

    public var description: String { "\(width)x\(height)@\(refreshRate)" }
}

/// How a panel is mounted: the connector property `panel orientation` (display-input.md §7).
public enum PanelOrientation: String, Hashable, Sendable, Codable {
    /// The panel's top is the picture's top.
    case normal = "Normal"
    /// The panel is mounted upside down.
    case upsideDown = "Upside Down"
    /// The panel's left side is up.
    case leftSideUp = "Left Side Up"
    /// The panel's right side is up.
    case rightSideUp = "Right Side Up"

    /// The clockwise rotation that shows the picture upright on such a panel, composed with
    /// the configured rotation: Upside Down 180, Right Side Up 90, Left Side Up 270 (the
    /// kernel console's mapping; its `DRM_MODE_ROTATE_90` is counter-clockwise).
    public var rotation: Int {
        switch self {
        case .normal: return 0
        case .upsideDown: return 180
        case .rightSideUp: return 90
        case .leftSideUp: return 270
        }
    }
}

/// A connector (an output port such as `HDMI-A-1`).
public struct KMSConnector: Hashable, Sendable {
    /// The connector's object ID.
    public var id: UInt32
    /// Type name + `-` + type id, as the kernel names it.
    public var name: String
    /// True when a display is plugged in.
    public var isConnected: Bool
    /// The modes it offers, preferred first where the driver says.
    public var modes: [KMSMode]
    /// CRTCs this connector's encoders can drive.
    public var possibleCRTCs: [UInt32]
    /// The `panel orientation` property, when the connector has one.
    public var panelOrientation: PanelOrientation?

    /// A connector from its parts.
    public init(id: UInt32, name: String, isConnected: Bool, modes: [KMSMode], possibleCRTCs: [UInt32],
                panelOrientation: PanelOrientation? = nil) {
        self.id = id
        self.name = name
        self.isConnected = isConnected
        self.modes = modes
        self.possibleCRTCs = possibleCRTCs
        self.panelOrientation = panelOrientation
    }

    /// The preferred mode, else the largest, then the fastest (display-input.md §3).
    public var bestMode: KMSMode? {
        if let preferred = modes.first(where: \.isPreferred) { return preferred }
        return modes.max { ($0.width * $0.height, $0.refreshRate) < ($1.width * $1.height, $1.refreshRate) }
    }
}

/// A hardware plane (universal planes): a layer the CRTC composes.
public struct KMSPlane: Hashable, Sendable {
    /// What a plane is for.
    public enum Kind: String, Hashable, Sendable, Codable {
        /// The CRTC's main picture.
        case primary
        /// Composited over the primary by the hardware.
        case overlay
        /// The small pointer plane.
        case cursor
    }

    /// The plane's object ID.
    public var id: UInt32
    /// What it is for.
    public var kind: Kind
    /// The pixel formats it scans out, as fourcc strings (`XR24`, `RG16`, …).
    public var formats: [String]
    /// CRTCs it can be attached to.
    public var possibleCRTCs: [UInt32]

    /// A plane from its parts.
    public init(id: UInt32, kind: Kind, formats: [String], possibleCRTCs: [UInt32]) {
        self.id = id
        self.kind = kind
        self.formats = formats
        self.possibleCRTCs = possibleCRTCs
    }
}

/// What a KMS device offers.
public struct KMSResources: Hashable, Sendable {
    /// Display connectors (writeback connectors are not listed: they show nothing).
    public var connectors: [KMSConnector]
    /// The CRTCs' object IDs.
    public var crtcs: [UInt32]
    /// The planes.
    public var planes: [KMSPlane]
    /// True when the device took `DRM_CLIENT_CAP_ATOMIC` (atomic modesetting works).
    public var supportsAtomic: Bool
    /// The writeback connector (reads the composed frame back), when there is one.
    public var writebackConnector: UInt32?

    /// Resources from their parts.
    public init(connectors: [KMSConnector], crtcs: [UInt32], planes: [KMSPlane] = [],
                supportsAtomic: Bool = false, writebackConnector: UInt32? = nil) {
        self.connectors = connectors
        self.crtcs = crtcs
        self.planes = planes
        self.supportsAtomic = supportsAtomic
        self.writebackConnector = writebackConnector
    }
}

/// A dumb buffer: CPU-mappable scanout memory (`DRM_IOCTL_MODE_CREATE_DUMB`).
public struct DumbBuffer: Hashable, Sendable {
    /// The buffer's GEM handle.
    public var handle: UInt32
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int
    /// Bits per pixel (32 or 16).
    public var bitsPerPixel: Int
    /// Bytes from one row to the next; may exceed `width · bpp / 8` (never assume otherwise).
    public var pitch: Int
    /// Size in bytes.
    public var size: Int

    /// A buffer from what the kernel returned.
    public init(handle: UInt32, width: Int, height: Int, bitsPerPixel: Int, pitch: Int, size: Int) {
        self.handle = handle
        self.width = width
        self.height = height
        self.bitsPerPixel = bitsPerPixel
        self.pitch = pitch
        self.size = size
    }
}

/// Scanout pixel formats Lamina writes.
public enum PixelFormat: String, Hashable, Sendable {
    /// 32-bit little-endian, bytes B, G, R, X.
    case xrgb8888
    /// 16-bit little-endian, R 15–11, G 10–5, B 4–0.
    case rgb565

    /// Bits per pixel: 32 for XRGB8888, 16 for RGB565.
    public var bitsPerPixel: Int { self == .xrgb8888 ? 32 : 16 }
    /// The DRM fourcc as text, as planes list their formats.
    public var fourcc: String { self == .xrgb8888 ? "XR24" : "RG16" }
}

/// A vblank event from the device: a completed page flip (`page_flip_handler2`: the new
/// buffer started scanning out at `timestamp`) or a vblank that was asked for without a flip
/// (`drmCrtcQueueSequence`). Times are seconds on `CLOCK_MONOTONIC`.
public struct VBlankEvent: Hashable, Sendable {
    /// Which event.
    public enum Kind: Hashable, Sendable {
        /// A page flip completed: the new buffer is on screen.
        case pageFlip
        /// A requested vblank happened.
        case sequence
    }

    /// Which event.
    public var kind: Kind
    /// The CRTC it happened on.
    public var crtc: UInt32
    /// The CRTC's vblank counter.
    public var sequence: UInt64
    /// When the vblank happened, in seconds on the monotonic clock (the kernel's timestamp).
    public var timestamp: Double

    /// An event from its parts.
    public init(kind: Kind, crtc: UInt32, sequence: UInt64, timestamp: Double) {
        self.kind = kind
        self.crtc = crtc
        self.sequence = sequence
        self.timestamp = timestamp
    }
}

/// A KMS call that failed, with the errno the kernel (or the dummy) returned: a failed system
/// call like any other (`SystemCallError`), with what the output loop asks of it.
public typealias KMSError = SystemCallError

extension SystemCallError {
    /// A flip is already pending on that CRTC: keep the frame queued and retry on the event.
    public var isBusy: Bool { errno == .resourceBusy }
    /// DRM master was lost (VT switch): pause output.
    public var isPermissionDenied: Bool { errno == .permissionDenied || errno == .notPermitted }
}

/// A framebuffer placed on an overlay plane: which part of it is shown where on the CRTC
/// (the plane's `SRC_*` and `CRTC_*` properties). The CRTC blends the plane over the primary.
public struct PlanePlacement: Hashable, Sendable {
    /// The overlay plane's object ID.
    public var plane: UInt32
    /// The framebuffer it scans out.
    public var framebuffer: UInt32
    /// The part of the framebuffer shown, in its pixels (fractions allowed: the kernel takes
    /// 16.16 fixed point).
    public var source: Rect
    /// Where it is shown on the CRTC, in whole pixels.
    public var destination: PixelRect

    /// A placement from its parts.
    public init(plane: UInt32, framebuffer: UInt32, source: Rect, destination: PixelRect) {
        self.plane = plane
        self.framebuffer = framebuffer
        self.source = source
        self.destination = destination
    }

    /// `image` (the framebuffer's pixels) drawn over `frame` as the CRTC blends an opaque
    /// plane: its source's pixels replace the frame's at the destination (nearest sample when
    /// the plane scales). For read-back and screenshots.
    public func compose(_ image: PixelBuffer, onto frame: PixelBuffer) {
        let s = source, d = destination
        guard image.width > 0, image.height > 0 else { return }
        for y in max(d.y0, 0)..<max(min(d.y1, frame.height), max(d.y0, 0)) {
            let sy = min(max(Int(s.minY + (Double(y - d.y0) + 0.5) * s.height / Double(d.height)), 0), image.height - 1)
            for x in max(d.x0, 0)..<max(min(d.x1, frame.width), max(d.x0, 0)) {
                let sx = min(max(Int(s.minX + (Double(x - d.x0) + 0.5) * s.width / Double(d.width)), 0), image.width - 1)
                frame.pixels[y * frame.stride + x] = image.pixels[sy * image.stride + sx] | 0xFF00_0000
            }
        }
    }
}

/// What a page flip does to an overlay plane, in the same atomic commit as the primary's
/// new frame.
public enum OverlayUpdate: Hashable, Sendable {
    /// Leaves the overlay planes as they are.
    case unchanged
    /// Shows a framebuffer on an overlay plane.
    case show(PlanePlacement)
    /// Turns an overlay plane off.
    case hide(plane: UInt32)
}
