import LaminaAnimation
import LaminaGeometry
import LaminaRaster

/// Where layers draw: the questions the display list's walk asks about a layer's extent,
/// order and visibility.
enum DrawingGeometry {
    /// A layer's next drawings: where each sublayer (or plane) lands and with what opacity
    /// and tint.
    typealias Child = (layer: Layer, toDevice: Transform3D, alpha: Double, tint: (r: Double, g: Double, b: Double)?)

    /// What a layer draws after itself, in order: an ordinary layer's sublayers by zPosition
    /// (rule 54), each flattened into its plane, once per instance for a replicator; a
    /// transform layer's planes — its sublayers, through nested transform layers — sorted
    /// back to front by the depth of their centres in its 3-D space (rule 55, painter's
    /// algorithm).
    static func children(of layer: Layer, toDevice: Transform3D, alpha: Double) -> [Child] {
        guard layer.keepsSublayers3D else {
            var result: [Child] = []
            for instance in layer.sublayerInstances() {
                guard let placement = instance.placement else {
                    result += instance.sublayers.map { ($0, $0.transformToSuperlayerPlane().concatenating(toDevice), alpha, nil) }
                    continue
                }
                let placed = placement.concatenating(toDevice)
                let instanceAlpha = alpha * instance.alpha
                for child in instance.sublayers where instanceAlpha > 0 {
                    result.append((child, child.transformToSuperlayerPlane().concatenating(placed), instanceAlpha, instance.tint))
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

    /// How many things `layer` draws by itself and through visible sublayers, up to 2 (an
    /// offscreen is needed only when two may overlap).
    static func elementCount(_ layer: Layer) -> Int {
        var count = layer.kindContentElementCount
        if layer.backgroundColor != nil { count += 1 }
        if layer.contents != nil { count += 1 }
        if layer.shadowOpacity > 0 && layer.shadowColor != nil { count += 1 }
        if layer.borderColor != nil && layer.borderWidth > 0 { count += 1 }
        for child in layer.sublayers where !child.isHidden && child.opacity > 0 {
            count += 1
            if count > 1 { break }
        }
        return count
    }

    /// `rect`'s pixels when its edges lie on whole pixels (to within a millionth), else nil.
    static func wholePixels(_ rect: Rect) -> PixelRect? {
        let edges = [rect.minX, rect.minY, rect.maxX, rect.maxY]
        guard edges.allSatisfy({ $0.isFinite && abs($0 - $0.rounded()) < 1e-6 && abs($0) < 1e9 }) else { return nil }
        return PixelRect(x0: Int(rect.minX.rounded()), y0: Int(rect.minY.rounded()),
                         x1: Int(rect.maxX.rounded()), y1: Int(rect.maxY.rounded()))
    }

    /// Where a layer's contents image lands in its bounds (gravity, contentsScale).
    static func contentsRect(of layer: Layer, image: PixelBuffer) -> Rect {
        let scale = layer.contentsScale > 0 ? layer.contentsScale : 1
        return layer.contentsGravity.rect(for: Size(width: Double(image.width) / scale, height: Double(image.height) / scale),
                                          in: layer.bounds)
    }

    /// The device box of what `layer` itself draws (not its sublayers): the bounds, grown by
    /// what may spill out of them (a contents image placed by gravity, the shadow, the kind's
    /// content); nil when a non-affine transform makes it uncertain.
    static func ownBox(of layer: Layer, toDevice: Transform3D) -> Rect? {
        var extent = layer.bounds
        if let image = layer.contents { extent = extent.union(contentsRect(of: layer, image: image)) }
        if layer.shadowOpacity > 0 {
            let shape = layer.shadowPath?.controlPointBounds ?? layer.kindSilhouette?.controlPointBounds ?? layer.bounds
            let spread = 3 * layer.shadowRadius + 3
            extent = extent.union(Rect(x: shape.minX + layer.shadowOffset.width - spread, y: shape.minY + layer.shadowOffset.height - spread,
                                       width: shape.width + 2 * spread, height: shape.height + 2 * spread))
        }
        if let kind = layer.kindContentExtent { extent = extent.union(kind) }
        guard toDevice.isAffine else { return projectedBox(of: extent, through: toDevice) }
        let box = toDevice.affineTransform.apply(to: extent)
        guard layer.shadowOpacity > 0 else { return box }
        return box.union(shadowBox(of: layer, toDevice: toDevice.affineTransform))
    }

    /// The device box of a shadow as `Renderer.drawShadow` places it: the silhouette's box
    /// through `toDevice`, moved by the offset and blurred by the radius at the scale the
    /// shadow is drawn at (`Renderer.shadowScale`), grown by the three box passes' reach and
    /// the half pixel the mask may be snapped by.
    private static func shadowBox(of layer: Layer, toDevice: AffineTransform) -> Rect {
        let shape = layer.shadowPath?.controlPointBounds ?? layer.kindSilhouette?.controlPointBounds ?? layer.bounds
        let (scale, blur) = Renderer.shadowScale(radius: layer.shadowRadius, toTarget: toDevice)
        let placed = toDevice.apply(to: shape)
        let reach = 3 * Double(blur) + 1
        return Rect(x: placed.minX + layer.shadowOffset.width * scale - reach, y: placed.minY + layer.shadowOffset.height * scale - reach,
                    width: placed.width + 2 * reach, height: placed.height + 2 * reach)
    }

    /// The device box of a rectangle of the z = 0 plane seen through a perspective: the box
    /// of its four projected corners when all lie in front of the eye (a projection keeps
    /// lines straight, so the projected rectangle is the quadrilateral they span); nil when
    /// one does not (drawing clips it at w = 0, and it may reach anywhere).
    static func projectedBox(of rect: Rect, through transform: Transform3D) -> Rect? {
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        for (x, y) in [(rect.minX, rect.minY), (rect.maxX, rect.minY), (rect.minX, rect.maxY), (rect.maxX, rect.maxY)] {
            let h = transform.applyHomogeneous(x: x, y: y, z: 0)
            guard h.w >= Self.nearW, h.x.isFinite, h.y.isFinite else { return nil }
            let px = h.x / h.w, py = h.y / h.w
            minX = min(minX, px); maxX = max(maxX, px)
            minY = min(minY, py); maxY = max(maxY, py)
        }
        guard minX.isFinite, minY.isFinite, maxX.isFinite, maxY.isFinite else { return nil }
        return Rect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    }

    /// Where perspective drawing clips (`Path.projected`'s default): a corner nearer the
    /// eye's plane than this is taken as behind it.
    static let nearW = 1e-6

    /// Device pixels the subtree can touch, clamped to the canvas (the whole canvas where a
    /// non-affine transform makes bounds uncertain).
    static func deviceBounds(of layer: Layer, toDevice: Transform3D, canvasSize: (width: Int, height: Int)) -> PixelRect {
        let whole = PixelRect(width: canvasSize.width, height: canvasSize.height)
        guard let box = subtreeBox(of: layer, toDevice: toDevice) else { return whole }
        return pixels(around: box).intersection(whole)
    }

    /// The device pixels `box` touches and one more on each side (anti-aliasing): what a
    /// damage record covers.
    static func pixels(around box: Rect) -> PixelRect {
        PixelRect(x0: Int(saturating: box.minX.rounded(.down)) - 1, y0: Int(saturating: box.minY.rounded(.down)) - 1,
                  x1: Int(saturating: box.maxX.rounded(.up)) + 1, y1: Int(saturating: box.maxY.rounded(.up)) + 1)
    }

    private static func subtreeBox(of layer: Layer, toDevice: Transform3D) -> Rect? {
        guard var box = ownBox(of: layer, toDevice: toDevice) else { return nil }
        guard !layer.masksToBounds else { return box }
        if layer.sublayerInstanceCount > 1 { return nil }   // replicated instances: anywhere
        for child in layer.sublayers where !child.isHidden {
            guard let childBox = subtreeBox(of: child, toDevice: child.transformToSuperlayerPlane().concatenating(toDevice)) else {
                return nil
            }
            box = box.union(childBox)
        }
        return box
    }
}
