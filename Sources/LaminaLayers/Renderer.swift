import LaminaAnimation
import LaminaGeometry
import LaminaRaster

/// Draws a presentation tree into a canvas: one walk turns the tree into a display list
/// (DisplayListBuilder.swift says what each layer draws and in which order), which is then
/// painted. Group opacity and masks draw through pooled offscreens; non-affine transforms
/// draw by projecting the flattened geometry with clipping at w ≤ 0.
public final class Renderer {
    /// The widest shadow blur drawn, in device pixels (decision 86): a larger
    /// `shadowRadius` draws this blur, so the offscreen it needs stays bounded.
    public static let maximumShadowBlur = 256
    /// Curves are flattened to within this many device pixels.
    public var flatteningTolerance = Path.defaultFlatteningTolerance
    /// What each layer drew in the last damage-tracked frame: where and a digest of how
    /// (Renderer+Damage.swift).
    var previous: DrawRecords?
    /// The shapes' paths of that frame, by record (`DisplayList.outlines`).
    var previousOutlines: [DrawKey: DrawRecord.Outline] = [:]
    /// How many layers' records the last damage-tracked frame compared with the frame
    /// before (not those of subtrees replayed in the same place in both; tests read it).
    var recordsCompared = 0
    var previousSetup: (width: Int, height: Int, background: Color)?

    /// The image an overlay plane shows this frame: painting skips it.
    var skippedImage: PixelBuffer?

    /// Blurred shadow silhouettes kept between frames.
    let shadowMasks = ShadowMasks()
    /// Shadow masks blurred so far: a layer that only moves or fades blurs its shadow once.
    public var shadowMasksBlurred: Int { shadowMasks.blurredCount }

    /// Offscreens kept between frames, by size.
    private var offscreens: [Int: [PixelBuffer]] = [:]
    /// Pooled sizes, least recently used first.
    private var offscreenOrder: [Int] = []
    /// Offscreens kept for reuse, all sizes together (decision 86): a group whose size
    /// changes every frame (a scale animation) would otherwise leave one buffer per size.
    public static let maximumPooledOffscreens = 8
    /// Offscreens held in the pool now.
    public var pooledOffscreenCount: Int { offscreens.values.reduce(0) { $0 + $1.count } }

    /// A renderer with an empty offscreen pool.
    public init() {}

    /// Clears the canvas to `background` and draws `root` and its subtree.
    public func render(_ root: Layer, into canvas: Canvas, background: Color) {
        canvas.clear(background)
        let list = DisplayListBuilder.build(root, canvasSize: (canvas.target.width, canvas.target.height), tracksDamage: false)
        paint(list.operations, on: canvas)
        previous = nil
    }

    /// A text layer's lines: laid out at its font size, each aligned in the bounds' width,
    /// the first line's top at the bounds' top. Under a plain translation glyphs come from
    /// the coverage cache; otherwise their outlines are filled through the transform.
    private func drawText(_ layer: TextLayer, color: Color, toDevice: Transform3D, canvas: Canvas) {
        guard let font = layer.resolvedFont, !layer.string.isEmpty else { return }
        let b = layer.bounds
        let t = toDevice
        let translated = t.isAffine && t.m11 == 1 && t.m12 == 0 && t.m21 == 0 && t.m22 == 1
        for (line, x, baseline) in Self.textLines(of: layer, font: font) {
            if translated {
                canvas.draw(line, font: font, origin: Point(x: b.minX + x + t.m41, y: baseline + t.m42), color: color)
                continue
            }
            for placed in line.glyphs {
                let face = line.face(of: placed, in: font)
                if let colored = face.colorGlyphImage(placed.index, size: line.size) {
                    let at = t.translatedBy(x: b.minX + x + placed.x + Double(colored.left),
                                            y: baseline + placed.y + Double(colored.top), z: 0)
                    canvas.draw(colored.image, transform3D: at, opacity: color.alpha)
                    continue
                }
                let outline = face.glyph(placed.index, size: line.size).path
                    .applying(AffineTransform(translationX: b.minX + x + placed.x, y: baseline + placed.y))
                fill(outline, color: color, rule: .nonZero, transform: toDevice, canvas: canvas)
            }
        }
    }

    /// The laid-out lines with their x offset in the bounds and their baseline
    /// (`Font.layoutLines`: one paragraph per explicit line break, wrapped, limited and
    /// truncated as the layer says); baselines are `lineHeight` apart, the first an ascender
    /// below the bounds' top.
    static func textLines(of layer: TextLayer, font: Font) -> [(line: TextLine, x: Double, baseline: Double)] {
        layer.layoutCache.lines(for: TextLayoutCache.Key(text: layer.text, bounds: layer.bounds, font: font)) {
            layOut(layer, font: font)
        }
    }

    private static func layOut(_ layer: TextLayer, font: Font) -> [(line: TextLine, x: Double, baseline: Double)] {
        let width = layer.bounds.width
        let ascender = font.lineMetrics(size: layer.fontSize).ascender, lineHeight = layer.lineHeight(font)
        let lines = font.layoutLines(layer.string, size: layer.fontSize, width: width, wraps: layer.isWrapped,
                                     truncation: layer.truncationMode, maximumLines: layer.numberOfLines)
        return lines.enumerated().map { k, line in
            let x: Double
            switch layer.alignmentMode {
            case .natural: x = line.direction == .rightToLeft ? width - line.width : 0
            case .left: x = 0
            case .center: x = (width - line.width) / 2
            case .right: x = width - line.width
            }
            return (line, x, layer.bounds.minY + ascender + Double(k) * lineHeight)
        }
    }

    /// Paints display-list operations in order.
    func paint(_ operations: [DisplayOperation], on canvas: Canvas) {
        for operation in operations {
            switch operation {
            case .fill(let path, let color, let rule, let toTarget):
                fill(path, color: color, rule: rule, transform: toTarget, canvas: canvas)
            case .stroke(let path, let style, let color, let toTarget):
                stroke(path, style: style, color: color, transform: toTarget, canvas: canvas)
            case .image(let image, let toTarget, let opacity):
                if image !== skippedImage { canvas.draw(image, transform3D: toTarget, opacity: opacity) }
            case .gradient(let path, let gradient, let toTarget):
                canvas.fill(path, gradient: gradient, transform: toTarget)
            case .text(let source, let color, let toTarget):
                drawText(source.layer, color: color, toDevice: toTarget, canvas: canvas)
            case .shadow(let silhouette, let color, let radius, let offset, let toTarget, let covered):
                drawShadow(silhouette: silhouette, color: color, radius: radius, offset: offset, toTarget: toTarget,
                           covered: covered, canvas: canvas)
            case .bounded(let inside, let box):
                if !box.intersection(canvas.clipBounds).isEmpty { paint(inside, on: canvas) }
            case .clipped(let inside, let path, let toTarget):
                canvas.save()
                clip(canvas, to: path, transform: toTarget)
                paint(inside, on: canvas)
                canvas.restore()
            case .group(let inside, let box, let opacity):
                withOffscreen(width: box.x1 - box.x0, height: box.y1 - box.y0) { offscreen in
                    let inner = Canvas(target: offscreen)
                    inner.flatteningTolerance = canvas.flatteningTolerance
                    paint(inside, on: inner)
                    canvas.composite(offscreen, at: (box.x0, box.y0), opacity: opacity)
                }
            case .masked(let inside, let mask, let box):
                withOffscreen(width: box.x1 - box.x0, height: box.y1 - box.y0) { offscreen in
                    paint(mask, on: Canvas(target: offscreen))
                    canvas.save()
                    canvas.clip(toAlphaOf: offscreen, at: (box.x0, box.y0))
                    paint(inside, on: canvas)
                    canvas.restore()
                }
            }
        }
    }

    /// Lends `body` a cleared (transparent) offscreen of the size from the pool, and takes it
    /// back afterwards; nested uses get distinct buffers.
    private func withOffscreen(width: Int, height: Int, _ body: (PixelBuffer) -> Void) {
        let key = width << 32 | height
        let offscreen = offscreens[key]?.popLast() ?? PixelBuffer(width: width, height: height)
        defer { returnOffscreen(offscreen, key: key) }
        offscreen.fill(pixel: 0)
        body(offscreen)
    }

    private func returnOffscreen(_ offscreen: PixelBuffer, key: Int) {
        offscreens[key, default: []].append(offscreen)
        offscreenOrder.removeAll { $0 == key }
        offscreenOrder.append(key)
        var pooled = pooledOffscreenCount
        while pooled > Self.maximumPooledOffscreens, let oldest = offscreenOrder.first {
            pooled -= offscreens.removeValue(forKey: oldest)?.count ?? 0
            offscreenOrder.removeFirst()
        }
    }

    private func fill(_ path: Path, color: Color, rule: FillRule, transform: Transform3D, canvas: Canvas) {
        if transform.isAffine {
            canvas.fill(path, color: color, rule: rule, transform: transform.affineTransform)
        } else if mayTouch(path.controlPointBounds, through: transform, canvas: canvas) {
            canvas.fill(polygons: projected(path, transform), color: color, rule: rule)
        }
    }

    /// False when `box` (in the layer's plane) seen through the perspective `transform`, grown
    /// by a pixel of anti-aliasing, lies wholly outside the clip: drawing it would be flattened
    /// and projected for nothing (each damage region is a pass over the list). True when a
    /// corner is behind the eye (it may reach anywhere).
    private func mayTouch(_ box: Rect, through transform: Transform3D, canvas: Canvas) -> Bool {
        guard let projected = DrawingGeometry.projectedBox(of: box, through: transform) else { return true }
        let clip = canvas.clipBounds, margin = 1.0
        return projected.maxX + margin > Double(clip.x0) && projected.minX - margin < Double(clip.x1)
            && projected.maxY + margin > Double(clip.y0) && projected.minY - margin < Double(clip.y1)
    }

    private func stroke(_ path: Path, style: StrokeStyle, color: Color, transform: Transform3D, canvas: Canvas) {
        if transform.isAffine {
            canvas.stroke(path, style: style, color: color, transform: transform.affineTransform)
        } else if mayTouch(path.controlPointBounds.insetBy(dx: -Self.strokeReach(style), dy: -Self.strokeReach(style)),
                           through: transform, canvas: canvas) {
            // The outline built in layer space, then projected like any filled shape.
            let outline = path.stroked(style, tolerance: flatteningTolerance)
            var polygons: [[Point]] = []
            for polygon in outline {
                var p = Path()
                p.move(to: polygon[0])
                for point in polygon.dropFirst() { p.line(to: point) }
                p.close()
                polygons.append(contentsOf: projected(p, transform))
            }
            canvas.fill(polygons: polygons, color: color, rule: .nonZero)
        }
    }

    /// How far a stroke's outline reaches beyond its path, in the path's units: half the
    /// width, times the miter limit where joins may be mitred (a square cap's corner reaches
    /// √2 · half the width, inside that with the default limit of 10 and at least 1.5).
    private static func strokeReach(_ style: StrokeStyle) -> Double {
        let half = abs(style.width) / 2
        guard half.isFinite else { return .infinity }
        return half * max(style.miterLimit.isFinite ? style.miterLimit : 10, 1.5) + 1
    }

    private func clip(_ canvas: Canvas, to path: Path, transform: Transform3D) {
        if transform.isAffine, let rectangle = path.rectangle {
            canvas.clip(to: rectangle, transform: transform.affineTransform)   // a plain rectangle on whole pixels: no mask
        } else if transform.isAffine {
            canvas.clip(to: path, transform: transform.affineTransform)
        } else {
            canvas.clip(toPolygons: projected(path, transform))
        }
    }

    /// Tolerance in layer units: divided by the largest linear scale near the origin.
    private func projected(_ path: Path, _ transform: Transform3D) -> [[Point]] {
        let scale = max(abs(transform.m11) + abs(transform.m21), abs(transform.m12) + abs(transform.m22), 1e-9)
        return path.projected(through: transform, tolerance: flatteningTolerance / scale)
    }
}
