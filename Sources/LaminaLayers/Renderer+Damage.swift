import LaminaAnimation
import LaminaGeometry
import LaminaRaster

/// Drawing only what changed since the last frame (the renderer with damage).
extension Renderer {
    /// A rectangle of device pixels, half-open.


    /// A drawn layer: its model layer, and which drawing of it (a replicator draws the same
    /// model layer several times).
    struct DrawKey: Hashable {
        var layer: ObjectIdentifier
        var occurrence: Int
    }

    struct DrawRecord: Equatable {
        var box: PixelRect
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
        let whole = PixelRect(width: target.width, height: target.height)
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
        guard let d = damage?.intersection(whole), !d.isEmpty else { return nil }
        canvas.save()
        canvas.clip(to: Rect(x: Double(d.x0), y: Double(d.y0), width: Double(d.width), height: Double(d.height)))
        target.fill(pixel: background.premultiplied.pixel32, x0: d.x0, y0: d.y0, x1: d.x1, y1: d.y1)
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
            records[key] = DrawRecord(box: PixelRect(width: size.0, height: size.1), digest: hasher.finalize())
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
        let box: PixelRect
        if let mask = layer.maskLayer {
            // A mask changes the pixels of the whole subtree: its digest goes in, and the box
            // covers everything the layer and its sublayers draw.
            Self.hashSubtree(mask, toDevice: mask.transformToSuperlayer().concatenating(toDevice), into: &hasher)
            let b = Self.deviceBounds(of: layer, toDevice: toDevice, canvasSize: size)
            box = b
        } else if let local = Self.ownBox(of: layer, toDevice: toDevice) {
            box = PixelRect(x0: Int(saturating: local.minX.rounded(.down)) - 1, y0: Int(saturating: local.minY.rounded(.down)) - 1,
                            x1: Int(saturating: local.maxX.rounded(.up)) + 1, y1: Int(saturating: local.maxY.rounded(.up)) + 1)
        } else {
            box = PixelRect(width: size.0, height: size.1)
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

    /// The hull of the damage so far and a box (an empty box still stretches it, as its
    /// corners are where the layer was).
    private static func union(_ a: PixelRect?, _ box: PixelRect) -> PixelRect {
        guard let a else { return box }
        return PixelRect(x0: min(a.x0, box.x0), y0: min(a.y0, box.y0), x1: max(a.x1, box.x1), y1: max(a.y1, box.y1))
    }
}
