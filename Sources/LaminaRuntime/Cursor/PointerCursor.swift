import LaminaDisplay
import LaminaGeometry
import LaminaLayers
import LaminaPixels
import LaminaRaster

/// When the pointer is drawn (`[input] cursor`).
public enum CursorMode: String, Sendable, CaseIterable {
    /// Shown while a mouse or trackball moves it; hidden after `cursor_hide_after` idle
    /// seconds and on a touch of the screen.
    case auto
    /// Always shown, from the start (a kiosk driven by a trackball alone).
    case always
    /// Never drawn; the mouse still moves an unseen pointer and clicks.
    case never
}

/// The pointer on screen (decision 112): an arrow on the DRM cursor plane where the
/// device has one, so moving it costs two ioctls and no frame; else a layer composited on
/// top of the scene (fbdev, a driver without a cursor plane), redrawn with the damage it
/// makes.
public final class PointerCursor {
    /// How the arrow reaches the glass.
    public enum Drawing: String, Sendable {
        /// The CRTC's cursor plane (`drmModeSetCursor`, `drmModeMoveCursor`).
        case plane
        /// A layer over the scene, drawn by Lamina's renderer.
        case composited
    }

    /// When it is drawn.
    public let mode: CursorMode
    /// Seconds without pointer motion before an `auto` pointer hides.
    public var hideAfter: Double
    /// Where the pointer is, in panel pixels.
    public private(set) var position: Point
    /// Whether the arrow shows now.
    public private(set) var isVisible = false
    /// When an `auto` pointer hides, unless it moves first.
    public private(set) var hideDueAt: Double?
    /// How the arrow is drawn: nil until it first shows.
    public private(set) var drawing: Drawing?
    /// The arrow's layer when composited, above everything (zPosition 2,000,000) and never hit.
    public let layer: Layer

    private unowned let runtime: Runtime
    /// The arrow's image on the cursor plane and where its tip is in it.
    private var plane: (buffer: DumbBuffer, mapping: UnsafeMutableRawBufferPointer, hotspot: Point)?
    /// The device and CRTC the plane's image belongs to (held here: the cursor may outlive
    /// the runtime's teardown).
    private let device: KMSDevice
    private var crtc: UInt32

    init(mode: CursorMode, hideAfter: Double, runtime: Runtime) {
        self.mode = mode
        self.hideAfter = hideAfter
        self.runtime = runtime
        device = runtime.display.device
        crtc = runtime.display.crtc
        position = Point(x: Double(runtime.display.width) / 2, y: Double(runtime.display.height) / 2)
        layer = PassThroughLayer()
        layer.name = "pointer"
        layer.zPosition = 2_000_000
        layer.isHidden = true
    }

    deinit { releasePlane() }

    /// The arrow, its tip at the origin, pointing up and to the left; `scale` 1 is 21 px tall.
    static func arrow(scale: Double) -> Path {
        var path = Path()
        let points = [(0.0, 0.0), (0, 17), (4, 13.2), (7.3, 20.6), (10.3, 19.3), (7.1, 12.2), (12.4, 12.2)]
        path.move(to: Point(x: points[0].0 * scale, y: points[0].1 * scale))
        for p in points.dropFirst() { path.line(to: Point(x: p.0 * scale, y: p.1 * scale)) }
        path.close()
        return path
    }

    /// The arrow's size for the screen: 21 px tall up to 720 lines, in proportion above.
    var scale: Double { max(1, min(Double(runtime.display.width), Double(runtime.display.height)) / 720) }

    /// The pointer moved to `position` (panel pixels) at `time`: it shows (unless `never`)
    /// and an `auto` one hides again `hideAfter` later.
    func moved(to position: Point, at time: Double) {
        self.position = position
        guard mode != .never else { return }
        if mode == .auto { hideDueAt = time + hideAfter }
        show()
    }

    /// A finger touched the screen: an `auto` pointer hides.
    func touched() {
        guard mode == .auto else { return }
        hide()
    }

    /// Hides an `auto` pointer whose idle time ran out by `time`.
    func advance(to time: Double) {
        guard let due = hideDueAt, time >= due else { return }
        hide()
    }

    /// Shows the arrow where the pointer is (`always` calls it at start).
    func show() {
        if drawing == nil { drawing = makePlaneImage() ? .plane : .composited }
        if drawing == .plane {
            do {
                if !isVisible { try device.setCursor(crtc: crtc, buffer: plane?.buffer) }
                try placeOnPlane()
            } catch {
                runtime.logger.warning("cursor plane: \(error); drawing the pointer into the frame")
                releasePlane()
                drawing = .composited
            }
        }
        if drawing == .composited { placeLayer(hidden: false) }
        isVisible = true
    }

    /// Hides the arrow.
    func hide() {
        hideDueAt = nil
        guard isVisible else { return }
        isVisible = false
        switch drawing {
        case .plane?:
            do { try device.setCursor(crtc: crtc, buffer: nil) } catch {
                runtime.logger.warning("cursor plane: \(error)")
            }
        case .composited?:
            placeLayer(hidden: true)
        case nil:
            break
        }
    }

    /// Puts the arrow back after the display was set up again (a modeset or a VT switch
    /// may clear the cursor plane).
    func restore() {
        guard isVisible, drawing == .plane else { return }
        isVisible = false
        show()
    }

    /// Draws the arrow again from scratch (the picture turned: the plane's image is turned
    /// with it, the composited one is placed anew), showing it if it showed.
    func redraw() {
        let wasVisible = isVisible
        let due = hideDueAt
        hide()
        releasePlane()
        drawing = nil
        Transaction.begin()
        Transaction.disableActions = true
        layer.removeFromSuperlayer()
        Transaction.commit()
        if wasVisible {
            show()
            hideDueAt = due
        }
    }

    private func placeOnPlane() throws(KMSError) {
        guard let plane else { return }
        try device.moveCursor(crtc: crtc,
                                              x: Int((position.x - plane.hotspot.x).rounded()),
                                              y: Int((position.y - plane.hotspot.y).rounded()))
    }

    private func placeLayer(hidden: Bool) {
        Transaction.begin()
        Transaction.disableActions = true
        defer { Transaction.commit() }
        if layer.superlayer !== runtime.tree.root {
            let (image, hotspot) = Self.image(of: Self.arrow(scale: scale), turned: .identity)
            layer.contents = image
            layer.bounds = Rect(x: 0, y: 0, width: Double(image.width), height: Double(image.height))
            layer.anchorPoint = Point(x: hotspot.x / Double(image.width), y: hotspot.y / Double(image.height))
            runtime.tree.root.addSublayer(layer)
        }
        layer.isHidden = hidden
        layer.position = runtime.dispatcher.panelToLogical(position)
    }

    /// Draws the arrow, turned as the panel is, into a dumb buffer for the cursor plane;
    /// false when the device has no cursor plane or the buffer cannot be made.
    private func makePlaneImage() -> Bool {
        crtc = runtime.display.crtc
        guard let size = device.cursorSize(crtc: crtc) else { return false }
        // The panel's turn: the root layer's transform, without its translation.
        let root = runtime.tree.root.transformToSuperlayer().affineTransform
        let turn = AffineTransform(a: root.a, b: root.b, c: root.c, d: root.d, tx: 0, ty: 0)
        let (image, hotspot) = Self.image(of: Self.arrow(scale: scale), turned: turn)
        guard image.width <= size.width, image.height <= size.height else { return false }
        do {
            let buffer = try device.createDumbBuffer(width: size.width, height: size.height, bitsPerPixel: 32)
            let mapping: UnsafeMutableRawBufferPointer
            do { mapping = try device.mapDumbBuffer(buffer) } catch {
                device.destroyDumbBuffer(buffer, mapping: nil)
                throw error
            }
            mapping.initializeMemory(as: UInt8.self, repeating: 0)
            // ARGB8888 has XRGB8888's byte layout; the copy keeps the alpha bytes.
            image.copyXRGB8888(into: mapping.baseAddress!, pitch: buffer.pitch)
            plane = (buffer, mapping, hotspot)
            return true
        } catch {
            runtime.logger.warning("cursor plane: \(error); drawing the pointer into the frame")
            return false
        }
    }

    private func releasePlane() {
        guard let plane else { return }
        try? device.setCursor(crtc: crtc, buffer: nil)
        device.destroyDumbBuffer(plane.buffer, mapping: plane.mapping)
        self.plane = nil
    }

    /// The arrow through `turn`: white, outlined in black, in an image just big enough,
    /// and where its tip landed in the image.
    static func image(of arrow: Path, turned turn: AffineTransform) -> (PixelBuffer, hotspot: Point) {
        let outline = 1.5, margin = 2.0
        let bounds = arrow.applying(turn).controlPointBounds
        let place = turn.concatenating(AffineTransform(translationX: margin - bounds.minX, y: margin - bounds.minY))
        let image = PixelBuffer(width: Int((bounds.size.width + 2 * margin).rounded(.up)),
                                height: Int((bounds.size.height + 2 * margin).rounded(.up)))
        let canvas = Canvas(target: image)
        canvas.fill(arrow, color: .white, transform: place)
        canvas.stroke(arrow, style: StrokeStyle(width: outline, join: .round), color: Color(red: 0, green: 0, blue: 0), transform: place)
        return (image, place.apply(to: .zero))
    }
}
