import LaminaGeometry
import LaminaRaster

/// A delegate that draws a plain layer's content (`CALayerDelegate.draw(_:in:)`), for code
/// that would rather not subclass `Layer`.
public protocol LayerDrawingDelegate: LayerDelegate {
    /// Draws `layer`'s content into `canvas` (see `Layer.draw(in:)` for its coordinates).
    func draw(_ layer: Layer, in canvas: Canvas)
}

extension LayerDrawingDelegate {
    public func action(for layer: Layer, forKey key: String) -> ActionAnswer? { nil }
}

/// Custom drawing (`CALayer.setNeedsDisplay()`, `display()`, `draw(in:)`): a layer draws
/// its own content once into a backing store that becomes its `contents`; the renderer
/// composites that image every frame (and damage tracking sees it change only when it is
/// redrawn), so a gauge or a chart costs its drawing only when its data changes.
extension Layer {
    /// The most pixels a backing store may have (decision 86's 64 M pixel cap): a layer
    /// larger than that draws nothing instead of exhausting memory.
    public static let maximumBackingStorePixels = 1 << 26

    /// Asks for `display()` at the next commit (the next frame).
    public func setNeedsDisplay() {
        precondition(!isPresentation, "a presentation layer is read-only; ask the model layer to redisplay")
        displayRequested = true
        setNeedsCommit()
    }

    /// Whether `display()` will run at the next commit.
    public var needsDisplay: Bool { displayRequested }

    /// Runs `display()` now if it was asked for.
    public func displayIfNeeded() {
        guard displayRequested else { return }
        displayRequested = false
        display()
    }

    /// When true, a change of the bounds' size asks for `display()` (the backing store must
    /// match the new size). False by default, as in Core Animation.
    public var needsDisplayOnBoundsChange: Bool {
        get { redisplaysOnResize }
        set { redisplaysOnResize = newValue }
    }

    /// The default `display()`: a transparent buffer of the bounds' size at `contentsScale`,
    /// `draw(in:)` into it, and the result as `contents` (without an implicit action: a
    /// redraw replaces the picture at once). An empty or oversized layer gets no contents.
    func drawBackingStore() {
        let scale = contentsScale > 0 && contentsScale.isFinite ? contentsScale : 1
        let width = Int(saturating: (bounds.width * scale).rounded(.up))
        let height = Int(saturating: (bounds.height * scale).rounded(.up))
        var store: PixelBuffer?
        if width > 0, height > 0, width.multipliedReportingOverflow(by: height).partialValue <= Self.maximumBackingStorePixels,
           !width.multipliedReportingOverflow(by: height).overflow {
            let buffer = PixelBuffer(width: width, height: height)
            draw(in: Canvas(target: buffer))
            store = buffer
        }
        properties.contents = store
        properties.contentsGeneration &+= 1
        setNeedsCommit()
    }
}
