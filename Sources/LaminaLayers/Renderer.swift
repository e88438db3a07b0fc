import LaminaAnimation
import LaminaGeometry
import LaminaRaster

/// Draws a presentation tree into a canvas. Per layer, back to front: the background
/// (rounded by `cornerRadius`), a shape layer's fill and stroke, the sublayers in drawing
/// order (rule 54) — those two clipped to the rounded bounds with `masksToBounds` — and the
/// border on top, inside the bounds.
///
/// Opacity is group opacity: a translucent layer with more than one thing to draw renders
/// its subtree into an offscreen the size of what it covers, composited once; with a single
/// element the colour's alpha is simply scaled (the same pixels, no offscreen). Non-affine
/// transforms draw by projecting the flattened geometry with clipping at w ≤ 0.
public final class Renderer {
    /// The widest shadow blur drawn, in device pixels (decision 86): a larger
    /// `shadowRadius` draws this blur, so the offscreen it needs stays bounded.
    public static let maximumShadowBlur = 256
    /// Curves are flattened to within this many device pixels.
    public var flatteningTolerance = Path.defaultFlatteningTolerance
    /// Replicator instance colours in effect, innermost last: every colour drawn is
    /// multiplied by them (`instanceColor` and its offsets).
    var tints: [(r: Double, g: Double, b: Double)] = []

    /// `color` with `alpha` applied and the instance tints multiplied in.
    private func shade(_ color: Color, _ alpha: Double) -> Color {
        var r = color.red, g = color.green, b = color.blue
        for t in tints { r *= t.r; g *= t.g; b *= t.b }
        return Color(red: r, green: g, blue: b, alpha: color.alpha * alpha)
    }

    /// What each layer drew in the last damage-tracked frame: where and a digest of how
    /// (Renderer+Damage.swift).
    var previous: [DrawKey: DrawRecord]?
    var previousSetup: (width: Int, height: Int, background: Color)?

    /// Offscreens kept between frames, by size.
    private var offscreens: [Int: [PixelBuffer]] = [:]
    /// Pooled sizes, least recently used first.
    private var offscreenOrder: [Int] = []
    /// Offscreens kept for reuse, all sizes together (decision 86): a group whose size
    /// changes every frame (a scale animation) would otherwise leave one buffer per size.
    public static let maximumPooledOffscreens = 8
    /// Offscreens held in the pool now.
    public var pooledOffscreenCount: Int { offscreens.values.reduce(0) { $0 + $1.count } }

    public init() {}

    /// Clears the canvas to `background` and draws `root` and its subtree.
    public func render(_ root: Layer, into canvas: Canvas, background: Color) {
        canvas.clear(background)
        draw(root, toDevice: root.transformToSuperlayerPlane(), canvas: canvas)
        previous = nil
    }

    /// A layer in a transition (rule 34): the old picture and the new one, each moved by
    /// the transition's offsets (in the layer's own space) and faded for `fade`; the one
    /// that moves over the other is drawn last.
    private func drawTransition(_ layer: Layer, frame: (old: Layer, transition: Transition, progress: Double),
                                toDevice: Transform3D, canvas: Canvas, alpha: Double) {
        let p = min(max(frame.progress, 0), 1)
        let offsets = frame.transition.offsets(at: p)
        let b = layer.bounds
        func shifted(_ o: (x: Double, y: Double)) -> Transform3D {
            Transform3D(translationX: o.x * b.width, y: o.y * b.height, z: 0).concatenating(toDevice)
        }
        let fade = frame.transition.kind == .fade
        let drawOld = { self.draw(frame.old, toDevice: shifted(offsets.old), canvas: canvas,
                                  alpha: alpha * (fade ? 1 - p : 1), inTransition: true) }
        let drawNew = { self.draw(layer, toDevice: shifted(offsets.new), canvas: canvas,
                                  alpha: alpha * (fade ? p : 1), inTransition: true) }
        if frame.transition.kind == .reveal {
            drawNew()
            drawOld()
        } else {
            drawOld()
            drawNew()
        }
    }

    /// What a layer draws after itself, in order: an ordinary layer's sublayers by zPosition
    /// (rule 54), each flattened into its plane; a transform layer's planes — its sublayers,
    /// through nested transform layers — sorted back to front by the depth of their centres
    /// in its 3-D space (rule 55, painter's algorithm).
    static func children(of layer: Layer, toDevice: Transform3D, alpha: Double)
        -> [(layer: Layer, toDevice: Transform3D, alpha: Double, tint: (r: Double, g: Double, b: Double)?)] {
        guard layer.keepsSublayers3D else {
            guard let replicator = layer as? ReplicatorLayer else {
                return layer.sublayersInDrawingOrder.map { ($0, $0.transformToSuperlayerPlane().concatenating(toDevice), alpha, nil) }
            }
            var result: [(layer: Layer, toDevice: Transform3D, alpha: Double, tint: (r: Double, g: Double, b: Double)?)] = []
            let instances = [layer.sublayersInDrawingOrder] + replicator.instances
            for (i, instance) in instances.enumerated() {
                let placement = replicator.instanceMatrix(i).concatenating(toDevice)
                let instanceAlpha = alpha * replicator.instanceAlpha(i)
                let tint = replicator.instanceTint(i)
                for child in instance where instanceAlpha > 0 {
                    result.append((child, child.transformToSuperlayerPlane().concatenating(placement), instanceAlpha, tint))
                }
            }
            return result
        }
        var planes: [(layer: Layer, toDevice: Transform3D, alpha: Double, depth: Double)] = []
        func gather(_ space: Layer, toDevice: Transform3D, chain: Transform3D, alpha: Double) {
            for (index, child) in space.sublayers.enumerated() where !child.isHidden {
                let childToDevice = child.transformToSuperlayerPlane().concatenating(toDevice)
                let childChain = child.transformToSuperlayer().concatenating(chain)
                if child.keepsSublayers3D {
                    let nested = alpha * min(max(child.opacity, 0), 1)
                    if nested > 0 { gather(child, toDevice: childToDevice, chain: childChain, alpha: nested) }
                    continue
                }
                let b = child.bounds
                let c = childChain.applyHomogeneous(x: b.midX, y: b.midY, z: 0)
                let depth = c.w != 0 ? c.z / c.w : 0
                planes.append((child, childToDevice, alpha, depth + Double(index) * 1e-9))
            }
        }
        gather(layer, toDevice: toDevice, chain: .identity, alpha: alpha)
        return planes.sorted { $0.depth < $1.depth }.map { ($0.layer, $0.toDevice, $0.alpha, nil) }
    }

    /// True for a single-sided layer whose projected front faces away (rule 55).
    static func isCulled(_ layer: Layer, toDevice: Transform3D) -> Bool {
        guard !layer.isDoubleSided else { return false }
        let b = layer.bounds
        let corners = [(b.minX, b.minY), (b.maxX, b.minY), (b.minX, b.maxY)].map {
            toDevice.applyHomogeneous(x: $0.0, y: $0.1, z: 0)
        }
        guard corners.allSatisfy({ $0.w > 0 }) else { return false }
        let p = corners.map { (x: $0.x / $0.w, y: $0.y / $0.w) }
        let cross = (p[1].x - p[0].x) * (p[2].y - p[0].y) - (p[1].y - p[0].y) * (p[2].x - p[0].x)
        return cross < 0
    }

    func draw(_ layer: Layer, toDevice: Transform3D, canvas: Canvas, alpha: Double = 1,
                      inTransition: Bool = false) {
        if !inTransition, let frame = layer.transitionFrame {
            drawTransition(layer, frame: frame, toDevice: toDevice, canvas: canvas, alpha: alpha)
            return
        }
        guard !layer.isHidden else { return }
        let opacity = alpha * min(max(layer.opacity, 0), 1)
        guard opacity > 0, !Self.isCulled(layer, toDevice: toDevice) else { return }
        if layer.keepsSublayers3D {
            // A transform layer draws only its planes, back to front, each with its own opacity.
            for plane in Self.children(of: layer, toDevice: toDevice, alpha: opacity) {
                draw(plane.layer, toDevice: plane.toDevice, canvas: canvas, alpha: plane.alpha)
            }
            return
        }
        if opacity < 1 && Self.elementCount(layer) > 1 {
            drawGroup(layer, toDevice: toDevice, opacity: opacity, canvas: canvas)
        } else {
            drawContents(layer, toDevice: toDevice, alpha: opacity, canvas: canvas)
        }
    }

    /// Background, shape, sublayers and border of `layer`, colours scaled by `alpha`; with a
    /// mask, all of it clipped by the mask's drawn alpha.
    private func drawContents(_ layer: Layer, toDevice: Transform3D, alpha: Double, canvas: Canvas) {
        guard let mask = layer.maskLayer else {
            drawUnmasked(layer, toDevice: toDevice, alpha: alpha, canvas: canvas)
            return
        }
        let target = canvas.target
        let box = Self.deviceBounds(of: mask, toDevice: mask.transformToSuperlayer().concatenating(toDevice),
                                    canvasSize: (target.width, target.height))
        guard box.x0 < box.x1, box.y0 < box.y1 else { return }             // an empty mask hides everything
        withOffscreen(width: box.x1 - box.x0, height: box.y1 - box.y0) { offscreen in
            let shift = Transform3D(translationX: Double(-box.x0), y: Double(-box.y0), z: 0)
            draw(mask, toDevice: mask.transformToSuperlayer().concatenating(toDevice).concatenating(shift),
                 canvas: Canvas(target: offscreen))
            canvas.save()
            canvas.clip(toAlphaOf: offscreen, at: (box.x0, box.y0))
            drawUnmasked(layer, toDevice: toDevice, alpha: alpha, canvas: canvas)
            canvas.restore()
        }
    }

    private func drawUnmasked(_ layer: Layer, toDevice: Transform3D, alpha: Double, canvas: Canvas) {
        let bounds = layer.bounds
        let radius = min(max(layer.cornerRadius, 0), min(bounds.width, bounds.height) / 2)
        let outline = radius > 0 ? Path(roundedRect: bounds, cornerRadius: radius) : Path(rect: bounds)
        if layer.shadowOpacity > 0, let color = layer.shadowColor, toDevice.isAffine {
            drawShadow(layer, outline: outline, color: shade(color, alpha * min(layer.shadowOpacity, 1)),
                       toDevice: toDevice.affineTransform, canvas: canvas)
        }
        if let background = layer.backgroundColor {
            fill(outline, color: shade(background, alpha), rule: .nonZero, transform: toDevice, canvas: canvas)
        }
        if layer.masksToBounds {
            canvas.save()
            clip(canvas, to: outline, transform: toDevice)
        }
        if let image = layer.contents, image.width > 0, image.height > 0 {
            let placed = Self.contentsRect(of: layer, image: image)
            let imageToLayer = Transform3D(scaleX: placed.width / Double(image.width), y: placed.height / Double(image.height), z: 1)
                .concatenating(Transform3D(translationX: placed.minX, y: placed.minY, z: 0))
            canvas.draw(image, transform3D: imageToLayer.concatenating(toDevice), opacity: alpha)
        }
        if let gradientLayer = layer as? GradientLayer, let gradient = gradientLayer.rasterGradient, toDevice.isAffine {
            let faded = Gradient(gradient.kind, stops: gradient.stops.map { Gradient.Stop($0.location, self.shade($0.color, alpha)) })
            canvas.fill(outline, gradient: faded, transform: toDevice.affineTransform)
        }
        if let textLayer = layer as? TextLayer, let color = textLayer.foregroundColor {
            drawText(textLayer, color: shade(color, alpha), toDevice: toDevice, canvas: canvas)
        }
        if let shape = layer as? ShapeLayer, let path = shape.path {
            if let color = shape.fillColor {
                fill(path, color: shade(color, alpha), rule: shape.fillRule, transform: toDevice, canvas: canvas)
            }
            if let color = shape.strokeColor, shape.lineWidth > 0 {
                stroke(path, style: shape.strokeStyle, color: shade(color, alpha), transform: toDevice, canvas: canvas)
            }
        }
        for child in Self.children(of: layer, toDevice: toDevice, alpha: alpha) {
            if let tint = child.tint { tints.append(tint) }
            draw(child.layer, toDevice: child.toDevice, canvas: canvas, alpha: child.alpha)
            if child.tint != nil { tints.removeLast() }
        }
        if layer.masksToBounds { canvas.restore() }
        if let color = layer.borderColor, layer.borderWidth > 0 {
            let w = min(layer.borderWidth, min(bounds.width, bounds.height) / 2)
            var ring = outline
            let inner = bounds.insetBy(dx: w, dy: w)
            if inner.width > 0 && inner.height > 0 {
                let innerRadius = max(radius - w, 0)
                let hole = innerRadius > 0 ? Path(roundedRect: inner, cornerRadius: innerRadius) : Path(rect: inner)
                for element in hole.elements { ring.append(element) }
            }
            fill(ring, color: shade(color, alpha), rule: .evenOdd, transform: toDevice, canvas: canvas)
        }
    }

    /// The bounds, grown by what may spill out of them: a contents image placed by gravity,
    /// a line of text wider than the bounds.
    static func contentExtent(of layer: Layer) -> Rect {
        var extent = layer.bounds
        if let image = layer.contents { extent = extent.union(contentsRect(of: layer, image: image)) }
        if layer.shadowOpacity > 0 {
            let shape = layer.shadowPath?.controlPointBounds ?? (layer as? ShapeLayer)?.path?.controlPointBounds ?? layer.bounds
            let spread = 3 * layer.shadowRadius + 3
            extent = extent.union(Rect(x: shape.minX + layer.shadowOffset.width - spread, y: shape.minY + layer.shadowOffset.height - spread,
                                       width: shape.width + 2 * spread, height: shape.height + 2 * spread))
        }
        if let text = layer as? TextLayer, let font = text.resolvedFont, !text.string.isEmpty {
            for (line, x, baseline) in textLines(of: text, font: font) {
                let metrics = font.lineMetrics(size: text.fontSize)
                extent = extent.union(Rect(x: layer.bounds.minX + x - text.fontSize, y: baseline - metrics.ascender - text.fontSize,
                                           width: line.width + 2 * text.fontSize,
                                           height: metrics.ascender + metrics.descender + 2 * text.fontSize))
            }
        }
        return extent
    }

    /// The shadow of rule 48's shadow properties: the layer's silhouette (shadowPath, its
    /// shape path, or its rounded bounds) filled with the shadow colour into an offscreen,
    /// blurred by three box passes of about `shadowRadius` device pixels, composited at the
    /// offset under the layer.
    private func drawShadow(_ layer: Layer, outline: Path, color: Color, toDevice: AffineTransform, canvas: Canvas) {
        let silhouette = layer.shadowPath ?? (layer as? ShapeLayer)?.path ?? outline
        let scale = max((toDevice.a * toDevice.a + toDevice.b * toDevice.b).squareRoot(), 1e-9)
        let blur = min(max(Int(saturating: (layer.shadowRadius * scale).rounded()), 0), Renderer.maximumShadowBlur)
        let placed = toDevice.concatenating(AffineTransform(translationX: layer.shadowOffset.width * scale,
                                                            y: layer.shadowOffset.height * scale))
        let box = placed.apply(to: silhouette.controlPointBounds)
        let margin = 3 * blur + 2
        let target = canvas.target
        let x0 = max(Int(saturating: box.minX.rounded(.down)) - margin, 0), y0 = max(Int(saturating: box.minY.rounded(.down)) - margin, 0)
        let x1 = min(Int(saturating: box.maxX.rounded(.up)) + margin, target.width), y1 = min(Int(saturating: box.maxY.rounded(.up)) + margin, target.height)
        guard x0 < x1, y0 < y1 else { return }
        withOffscreen(width: x1 - x0, height: y1 - y0) { offscreen in
            Canvas(target: offscreen).fill(silhouette, color: color,
                                           transform: placed.concatenating(AffineTransform(translationX: Double(-x0), y: Double(-y0))))
            offscreen.boxBlur(radius: blur)
            canvas.composite(offscreen, at: (x0, y0))
        }
    }

    /// Where a layer's contents image lands in its bounds (gravity, contentsScale).
    static func contentsRect(of layer: Layer, image: PixelBuffer) -> Rect {
        let scale = layer.contentsScale > 0 ? layer.contentsScale : 1
        return layer.contentsGravity.rect(for: Size(width: Double(image.width) / scale, height: Double(image.height) / scale),
                                          in: layer.bounds)
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
                let outline = font.glyph(placed.index, size: line.size).path
                    .applying(AffineTransform(translationX: b.minX + x + placed.x, y: baseline))
                fill(outline, color: color, rule: .nonZero, transform: toDevice, canvas: canvas)
            }
        }
    }

    /// The laid-out lines with their x offset in the bounds and their baseline: one per
    /// explicit line break, and with `isWrapped` broken at spaces to fit the bounds' width;
    /// lines stack by the face's ascender + descender.
    static func textLines(of layer: TextLayer, font: Font) -> [(line: TextLine, x: Double, baseline: Double)] {
        let size = layer.fontSize, width = layer.bounds.width
        let metrics = font.lineMetrics(size: size)
        var texts: [String] = []
        for paragraph in layer.string.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            guard layer.isWrapped, width > 0 else { texts.append(paragraph); continue }
            var current = ""
            for word in paragraph.split(separator: " ", omittingEmptySubsequences: false).map(String.init) {
                let candidate = current.isEmpty ? word : current + " " + word
                if !current.isEmpty && font.layout(candidate, size: size).width > width {
                    texts.append(current)
                    current = word
                } else {
                    current = candidate
                }
            }
            texts.append(current)
        }
        return texts.enumerated().map { k, text in
            let line = font.layout(text, size: size, maxWidth: layer.truncatesEnd ? width : nil)
            let x: Double
            switch layer.alignmentMode {
            case .natural, .left: x = 0
            case .center: x = (width - line.width) / 2
            case .right: x = width - line.width
            }
            return (line, x, layer.bounds.minY + metrics.ascender + Double(k) * (metrics.ascender + metrics.descender))
        }
    }

    /// The subtree drawn opaque into an offscreen covering its device bounds, then
    /// composited once with `opacity` (group opacity).
    private func drawGroup(_ layer: Layer, toDevice: Transform3D, opacity: Double, canvas: Canvas) {
        let target = canvas.target
        let box = Self.deviceBounds(of: layer, toDevice: toDevice, canvasSize: (target.width, target.height))
        guard box.x0 < box.x1, box.y0 < box.y1 else { return }
        withOffscreen(width: box.x1 - box.x0, height: box.y1 - box.y0) { offscreen in
            let inner = Canvas(target: offscreen)
            inner.flatteningTolerance = canvas.flatteningTolerance
            let shift = toDevice.concatenating(Transform3D(translationX: Double(-box.x0), y: Double(-box.y0), z: 0))
            drawContents(layer, toDevice: shift, alpha: 1, canvas: inner)
            canvas.composite(offscreen, at: (box.x0, box.y0), opacity: opacity)
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

    /// How many things `layer` draws by itself and through visible sublayers, up to 2 (an
    /// offscreen is needed only when two may overlap).
    static func elementCount(_ layer: Layer) -> Int {
        var count = 0
        if layer.backgroundColor != nil { count += 1 }
        if layer.contents != nil { count += 1 }
        if layer.shadowOpacity > 0 && layer.shadowColor != nil { count += 1 }
        if let g = layer as? GradientLayer, g.colors.count >= 2 { count += 1 }
        if let t = layer as? TextLayer, !t.string.isEmpty, t.foregroundColor != nil { count += 1 }
        if let shape = layer as? ShapeLayer, shape.path != nil {
            if shape.fillColor != nil { count += 1 }
            if shape.strokeColor != nil && shape.lineWidth > 0 { count += 1 }
        }
        if layer.borderColor != nil && layer.borderWidth > 0 { count += 1 }
        for child in layer.sublayers where !child.isHidden && child.opacity > 0 {
            count += 1
            if count > 1 { break }
        }
        if let replicator = layer as? ReplicatorLayer, replicator.instanceCount > 1, !layer.sublayers.isEmpty { count += 1 }
        return count
    }

    /// Device pixels the subtree can touch, clamped to the canvas (the whole canvas where a
    /// non-affine transform makes bounds uncertain).
    static func deviceBounds(of layer: Layer, toDevice: Transform3D, canvasSize: (Int, Int)) -> PixelRect {
        let whole = PixelRect(width: canvasSize.0, height: canvasSize.1)
        guard let box = localBox(of: layer, toDevice: toDevice) else { return whole }
        return PixelRect(x0: Int(saturating: box.minX.rounded(.down)) - 1, y0: Int(saturating: box.minY.rounded(.down)) - 1,
                         x1: Int(saturating: box.maxX.rounded(.up)) + 1, y1: Int(saturating: box.maxY.rounded(.up)) + 1)
            .intersection(whole)
    }

    private static func localBox(of layer: Layer, toDevice: Transform3D) -> Rect? {
        guard var box = ownBox(of: layer, toDevice: toDevice) else { return nil }
        guard !layer.masksToBounds else { return box }
        if let replicator = layer as? ReplicatorLayer, replicator.instanceCount > 1 { return nil }   // instances: anywhere
        for child in layer.sublayers where !child.isHidden {
            guard let childBox = localBox(of: child, toDevice: child.transformToSuperlayerPlane().concatenating(toDevice)) else {
                return nil
            }
            box = box.union(childBox)
        }
        return box
    }

    private func fill(_ path: Path, color: Color, rule: FillRule, transform: Transform3D, canvas: Canvas) {
        if transform.isAffine {
            canvas.fill(path, color: color, rule: rule, transform: transform.affineTransform)
        } else {
            canvas.fill(polygons: projected(path, transform), color: color, rule: rule)
        }
    }

    private func stroke(_ path: Path, style: StrokeStyle, color: Color, transform: Transform3D, canvas: Canvas) {
        if transform.isAffine {
            canvas.stroke(path, style: style, color: color, transform: transform.affineTransform)
        } else {
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

    private func clip(_ canvas: Canvas, to path: Path, transform: Transform3D) {
        if transform.isAffine {
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
