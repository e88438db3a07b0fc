import LaminaAnimation
import LaminaGeometry
import LaminaRaster

/// Drawing only what changed since the last frame (the renderer with damage).
extension Renderer {
    /// A rectangle of device pixels, half-open.
    public typealias PixelRect = (x0: Int, y0: Int, x1: Int, y1: Int)


    /// A drawn layer: its model layer, and which drawing of it (a replicator draws the same
    /// model layer several times).
    struct DrawKey: Hashable {
        var layer: ObjectIdentifier
        var occurrence: Int
    }

    struct DrawRecord: Equatable {
        var box: [Int]
        var digest: Int
    }

    /// Redraws only what changed since the last call: the canvas must still hold that
    /// frame. Compares each layer's device box and a digest of everything that affects its
    /// pixels (its properties, device transform, inherited opacity and drawing order) with
    /// the last frame's, clears the union of changed boxes (old and new) to `background` and
    /// draws the tree clipped to it. Returns that damage (nil: nothing changed; the whole
    /// canvas on the first frame or after the size or background changed).
    @discardableResult
    public func renderDamage(_ root: Layer, into canvas: Canvas, background: Color) -> PixelRect? {
        let target = canvas.target
        var records: [DrawKey: DrawRecord] = [:]
        var order = 0
        collect(root, toDevice: root.transformToSuperlayerPlane(), alpha: 1, shownAlpha: 1, size: (target.width, target.height),
                order: &order, into: &records)
        let whole: PixelRect = (0, 0, target.width, target.height)
        var damage: PixelRect?
        if let previous, let setup = previousSetup, setup.width == target.width, setup.height == target.height,
           setup.background == background {
            for (id, record) in records where previous[id] != record {
                damage = Self.union(damage, record.box)
                if let old = previous[id] { damage = Self.union(damage, old.box) }
            }
            for (id, old) in previous where records[id] == nil { damage = Self.union(damage, old.box) }
        } else {
            damage = whole
        }
        previous = records
        previousSetup = (target.width, target.height, background)
        guard let d = damage.map({ (max($0.x0, 0), max($0.y0, 0), min($0.x1, whole.x1), min($0.y1, whole.y1)) }),
              d.0 < d.2, d.1 < d.3 else { return nil }
        canvas.save()
        canvas.clip(to: Rect(x: Double(d.0), y: Double(d.1), width: Double(d.2 - d.0), height: Double(d.3 - d.1)))
        target.fill(pixel: background.premultiplied.pixel32, x0: d.0, y0: d.1, x1: d.2, y1: d.3)
        draw(root, toDevice: root.transformToSuperlayerPlane(), canvas: canvas)
        canvas.restore()
        return d
    }

    /// One record per visible layer, in drawing order. `shownAlpha` is the product of the
    /// opacities above, whether applied by scaling or by a group's composite: a layer's
    /// pixels change with it either way.
    fileprivate func collect(_ layer: Layer, toDevice: Transform3D, alpha: Double, shownAlpha: Double, size: (Int, Int),
                         order: inout Int, into records: inout [DrawKey: DrawRecord]) {
        guard !layer.isHidden else { return }
        let own = min(max(layer.opacity, 0), 1)
        let opacity = alpha * own
        guard opacity > 0, !Self.isCulled(layer, toDevice: toDevice) else { return }
        if layer.keepsSublayers3D {
            for plane in Self.children(of: layer, toDevice: toDevice, alpha: opacity) {
                collect(plane.layer, toDevice: plane.toDevice, alpha: plane.alpha, shownAlpha: shownAlpha * own, size: size,
                        order: &order, into: &records)
            }
            return
        }
        if let frame = layer.transitionFrame {
            // A transition moves pictures anywhere: the whole canvas, every frame it runs.
            var key = DrawKey(layer: ObjectIdentifier(layer.model()), occurrence: 0)
            while records[key] != nil { key.occurrence += 1 }
            var hasher = Hasher()
            hasher.combine(frame.progress)
            hasher.combine(order)
            order += 1
            records[key] = DrawRecord(box: [0, 0, size.0, size.1], digest: hasher.finalize())
            return
        }
        let grouped = opacity < 1 && Self.elementCount(layer) > 1
        var hasher = Hasher()
        hasher.combine(order)
        hasher.combine(toDevice)
        hasher.combine(opacity)
        hasher.combine(shownAlpha * own)
        for t in tints { hasher.combine(t.r); hasher.combine(t.g); hasher.combine(t.b) }
        hasher.combine(grouped)
        layer.hashDrawing(into: &hasher)
        order += 1
        let box: [Int]
        if let mask = layer.maskLayer {
            // A mask changes the pixels of the whole subtree: its digest goes in, and the box
            // covers everything the layer and its sublayers draw.
            Self.hashSubtree(mask, toDevice: mask.transformToSuperlayer().concatenating(toDevice), into: &hasher)
            let b = Self.deviceBounds(of: layer, toDevice: toDevice, canvasSize: size)
            box = [b.x0, b.y0, b.x1, b.y1]
        } else if let local = Self.ownBox(of: layer, toDevice: toDevice) {
            box = [Int(saturating: local.minX.rounded(.down)) - 1, Int(saturating: local.minY.rounded(.down)) - 1,
                   Int(saturating: local.maxX.rounded(.up)) + 1, Int(saturating: local.maxY.rounded(.up)) + 1]
        } else {
            box = [0, 0, size.0, size.1]
        }
        var key = DrawKey(layer: ObjectIdentifier(layer.model()), occurrence: 0)
        while records[key] != nil { key.occurrence += 1 }
        records[key] = DrawRecord(box: box, digest: hasher.finalize())
        // Inside a group the children draw at full alpha into the offscreen.
        let childAlpha = grouped ? 1 : opacity
        for child in Self.children(of: layer, toDevice: toDevice, alpha: childAlpha) {
            if let tint = child.tint { tints.append(tint) }
            collect(child.layer, toDevice: child.toDevice, alpha: child.alpha, shownAlpha: shownAlpha * own, size: size,
                    order: &order, into: &records)
            if child.tint != nil { tints.removeLast() }
        }
    }

    /// Everything that decides how a (mask) subtree draws.
    static func hashSubtree(_ layer: Layer, toDevice: Transform3D, into hasher: inout Hasher) {
        hasher.combine(toDevice)
        hasher.combine(layer.opacity)
        hasher.combine(layer.isHidden)
        layer.hashDrawing(into: &hasher)
        for child in layer.sublayers {
            hashSubtree(child, toDevice: child.transformToSuperlayerPlane().concatenating(toDevice), into: &hasher)
        }
    }

    /// The device box of what `layer` itself draws (not its sublayers); nil when a
    /// non-affine transform makes it uncertain.
    static func ownBox(of layer: Layer, toDevice: Transform3D) -> Rect? {
        guard toDevice.isAffine else { return nil }
        var local = contentExtent(of: layer)
        if let shape = layer as? ShapeLayer, let path = shape.path {
            let pad = shape.strokeColor == nil ? 0 : shape.lineWidth / 2 * max(shape.miterLimit, 1.5)
            local = local.union(path.controlPointBounds.insetBy(dx: -pad, dy: -pad))
        }
        return toDevice.affineTransform.apply(to: local)
    }

    private static func union(_ a: PixelRect?, _ box: [Int]) -> PixelRect {
        guard let a else { return (box[0], box[1], box[2], box[3]) }
        return (min(a.x0, box[0]), min(a.y0, box[1]), max(a.x1, box[2]), max(a.y1, box[3]))
    }
}
