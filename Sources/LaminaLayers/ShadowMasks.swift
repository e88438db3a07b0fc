import LaminaGeometry
import LaminaRaster

/// Blurred shadow silhouettes kept between frames (decision 127): a shadow is blurred once
/// per silhouette, blur, device scale and rotation and sub-pixel placement, then only
/// composited while its layer moves or fades. Least recently used masks go first once more
/// than `maximumCount` masks or `maximumBytes` bytes are kept.
final class ShadowMasks {
    /// A blurred silhouette's identity: the path, the 2x2 part of its placement, its
    /// placement's fraction of a pixel (quantized), the blur, and which part of it the mask
    /// covers (relative to the whole pixel the shape is placed at).
    struct Key: Hashable {
        var silhouette: Path
        var a, b, c, d: Double
        var fractionX, fractionY: Double
        var blur: Int
        var region: PixelRect
        /// The flattening tolerance the silhouette was filled with.
        var tolerance: Double
    }

    /// Masks kept at most.
    static let maximumCount = 8
    /// Bytes of mask kept at most (one byte a pixel).
    static let maximumBytes = 32 << 20
    /// A mask larger than this many pixels is cut to the canvas (and so redone when it
    /// moves across the canvas's edge).
    static let wholeMaskLimit = 8 << 20

    private var masks: [Key: AlphaMask] = [:]
    /// Keys, least recently used first.
    private var order: [Key] = []
    private var bytes = 0
    /// Masks blurred since the renderer was made: what the cache saved shows here.
    private(set) var blurredCount = 0

    /// The mask for `key`, made by `make` (and kept) when it is not kept already.
    func mask(for key: Key, make: () -> AlphaMask) -> AlphaMask {
        if let mask = masks[key] {
            if order.last != key, let i = order.firstIndex(of: key) {
                order.remove(at: i)
                order.append(key)
            }
            return mask
        }
        let mask = make()
        blurredCount += 1
        masks[key] = mask
        order.append(key)
        bytes += mask.coverage.count
        while masks.count > Self.maximumCount || bytes > Self.maximumBytes, order.count > 1 {
            let oldest = order.removeFirst()
            bytes -= masks.removeValue(forKey: oldest)?.coverage.count ?? 0
        }
        return mask
    }
}

extension Renderer {
    /// The shadow of rule 48's shadow properties: the silhouette's coverage blurred by three
    /// box passes of about `radius` target pixels (kept for the next frames, ShadowMasks),
    /// composited in the shadow's colour at the offset under the layer. A blur of zero is
    /// the silhouette filled. The mask is placed at the nearest whole pixel when the blur is
    /// 4 px or more (a shift of at most half a pixel under a blur that wide), at the nearest
    /// quarter pixel below, so a moving layer reuses its shadow. Where `covered` (in the
    /// layer's space, under an axis-aligned placement) takes whole pixels, the shadow is left
    /// out: the opaque background drawn next paints them whatever is under it.
    func drawShadow(silhouette: Path, color: Color, radius: Double, offset: Size, toTarget: AffineTransform,
                    covered: Rect? = nil, canvas: Canvas) {
        let (scale, blur) = Self.shadowScale(radius: radius, toTarget: toTarget)
        let placed = toTarget.concatenating(AffineTransform(translationX: offset.width * scale, y: offset.height * scale))
        guard blur > 0 else {
            canvas.fill(silhouette, color: color, transform: placed)
            return
        }
        guard placed.tx.isFinite, placed.ty.isFinite else { return }
        let step = blur >= 4 ? 1.0 : 0.25
        let snappedX = (placed.tx / step).rounded() * step, snappedY = (placed.ty / step).rounded() * step
        let wholeX = snappedX.rounded(.down), wholeY = snappedY.rounded(.down)
        let fractionX = snappedX - wholeX, fractionY = snappedY - wholeY
        var near = placed                                    // the shape placed near the origin, by its fraction of a pixel
        near.tx = fractionX
        near.ty = fractionY
        let box = near.apply(to: silhouette.controlPointBounds)
        let margin = 3 * blur + 2
        // Beyond a billion pixels nothing can reach the canvas (and the sums below stay exact).
        let far = 1e9
        guard abs(box.minX) < far, abs(box.minY) < far, abs(box.maxX) < far, abs(box.maxY) < far,
              abs(wholeX) < far, abs(wholeY) < far else { return }
        var region = PixelRect(x0: Int(box.minX.rounded(.down)) - margin, y0: Int(box.minY.rounded(.down)) - margin,
                               x1: Int(box.maxX.rounded(.up)) + margin, y1: Int(box.maxY.rounded(.up)) + margin)
        let dx = Int(wholeX), dy = Int(wholeY)
        let target = canvas.target
        let visible = region.intersection(PixelRect(x0: -dx, y0: -dy, x1: target.width - dx, y1: target.height - dy))
        guard !visible.isEmpty else { return }
        if region.area > ShadowMasks.wholeMaskLimit { region = visible }
        let key = ShadowMasks.Key(silhouette: silhouette, a: near.a, b: near.b, c: near.c, d: near.d,
                                  fractionX: fractionX, fractionY: fractionY, blur: blur, region: region,
                                  tolerance: canvas.flatteningTolerance)
        let mask = shadowMasks.mask(for: key) {
            var mask = AlphaMask(filling: silhouette,
                                 transform: near.concatenating(AffineTransform(translationX: Double(-region.x0), y: Double(-region.y0))),
                                 width: region.width, height: region.height, tolerance: canvas.flatteningTolerance)
            mask.blur(radius: blur)
            return mask
        }
        canvas.draw(mask, at: (region.x0 + dx, region.y0 + dy), color: color,
                    excluding: covered.map { Self.wholePixels(inside: $0, toTarget: toTarget) } ?? PixelRect(width: 0, height: 0))
    }

    /// The scale a shadow is placed at (the transform's x scale, for the offset and the blur
    /// alike) and its blur in target pixels (`radius` at that scale, rounded, at most
    /// `maximumShadowBlur`): what `drawShadow` draws and a layer's damage box must hold.
    static func shadowScale(radius: Double, toTarget: AffineTransform) -> (scale: Double, blur: Int) {
        let scale = max((toTarget.a * toTarget.a + toTarget.b * toTarget.b).squareRoot(), 1e-9)
        return (scale, min(max(Int(saturating: (radius * scale).rounded()), 0), Renderer.maximumShadowBlur))
    }

    /// The pixels `rect` mapped by `toTarget` takes whole, less one on each side (the outline
    /// is filled as a flattened polygon, whose chords lie inside its arcs by up to the
    /// flattening tolerance); empty (possibly inverted) unless `toTarget` keeps rectangles upright.
    static func wholePixels(inside rect: Rect, toTarget: AffineTransform) -> PixelRect {
        guard toTarget.b == 0, toTarget.c == 0 else { return PixelRect(width: 0, height: 0) }
        let r = toTarget.apply(to: rect)
        guard r.minX.isFinite, r.minY.isFinite, r.maxX.isFinite, r.maxY.isFinite else { return PixelRect(width: 0, height: 0) }
        return PixelRect(x0: Int(saturating: r.minX.rounded(.up)) + 1, y0: Int(saturating: r.minY.rounded(.up)) + 1,
                         x1: Int(saturating: r.maxX.rounded(.down)) - 1, y1: Int(saturating: r.maxY.rounded(.down)) - 1)
    }
}
