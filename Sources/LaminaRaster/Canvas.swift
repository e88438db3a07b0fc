import CLaminaKernels
import LaminaGeometry

/// Draws into a `PixelBuffer`: clears, anti-aliased path fills and strokes with solid colours
/// and gradients, images and text, all src-over, through an optional clip.
///
/// A canvas keeps its scan-conversion memory between draws, so one canvas per target
/// buffer is the cheap way to draw many paths.
public final class Canvas {
    /// The pixels drawn into.
    public let target: PixelBuffer
    private let rasterizer: CoverageRasterizer
    /// Curves are flattened to within this many device pixels.
    public var flatteningTolerance = Path.defaultFlatteningTolerance

    /// Which scan converter and blender draw.
    public enum Pipeline: Sendable {
        /// Every pixel through the simple reference sweep and the scalar per-pixel blend: the oracle.
        case reference
        /// Edges rounded to 24.8 fixed point and set up once, integer cells a band of rows at
        /// a time, edge cells from a bitmap, vector prefix sums, constant-coverage runs filled
        /// or blended with SIMD; `reference`'s coverage within 1/128 on the rounded edges
        /// (decision 115).
        case fast
    }

    /// Whether the fast core fills straight rows (a rectangle's sides between its corners)
    /// apart from its bands (decision 159): the tests compare the two.
    var takesStraightRows: Bool {
        get { rasterizer.takesStraightRows }
        set { rasterizer.takesStraightRows = newValue }
    }
    /// How many rows the fast core has filled straight (for the tests).
    var straightRowsFilled: Int { rasterizer.straightRowsFilled }

    /// Which rasterizer draws: the fast one (default) or the reference it is tested against.
    public var pipeline = Pipeline.fast

    /// The current clip: a pixel rectangle, and a coverage mask for anything finer.
    private struct ClipState {
        var rect: PixelRect
        var mask: ClipMask?
    }

    private var clipState: ClipState
    private var saved: [ClipState] = []

    /// A canvas drawing into `target`, unclipped, with the default flattening tolerance.
    public init(target: PixelBuffer) {
        self.target = target
        rasterizer = CoverageRasterizer(width: max(target.width, 1), height: max(target.height, 1))
        clipState = ClipState(rect: PixelRect(width: target.width, height: target.height), mask: nil)
    }

    var clipMask: ClipMask? { clipState.mask }

    /// Remembers the current clip.
    public func save() {
        saved.append(clipState)                // a mask is never changed once clipped by: shared
    }

    /// Goes back to the clip of the matching `save()`.
    public func restore() {
        if let state = saved.popLast() { clipState = state }
    }

    /// Narrows the clip to `rect` mapped through `transform`. A pixel-aligned axis-aligned
    /// rectangle is a plain clip rectangle; anything else is clipped by exact coverage.
    /// Corners within a millionth of a pixel of whole pixels count as on them: a scrolled
    /// viewport's bounds land there only up to rounding (`(o − (o + w/2)) + w/2`), and a
    /// millionth of a pixel changes no coverage an 8-bit pixel can show.
    public func clip(to rect: Rect, transform: AffineTransform = .identity) {
        let r = rect.standardized
        if transform.b == 0 && transform.c == 0 {
            let mapped = transform.apply(to: r)
            let corners = [mapped.minX, mapped.minY, mapped.maxX, mapped.maxY].map { $0.rounded() }
            let aligned = zip(corners, [mapped.minX, mapped.minY, mapped.maxX, mapped.maxY]).allSatisfy { abs($0 - $1) <= 1e-6 }
            if aligned {
                let c = clipState.rect
                clipState.rect = c.intersection(PixelRect(x0: Int(saturating: corners[0]), y0: Int(saturating: corners[1]),
                                                          x1: Int(saturating: corners[2]), y1: Int(saturating: corners[3])))
                return
            }
        }
        clip(to: Path(rect: r), rule: .nonZero, transform: transform)
    }

    /// Narrows the clip to the inside of `path` (by `rule`) mapped through `transform`, with
    /// anti-aliased edges: a rounded rect for `masksToBounds` with `cornerRadius`, or any shape.
    public func clip(to path: Path, rule: FillRule = .nonZero, transform: AffineTransform = .identity) {
        clip(toPolygons: (transform.isIdentity ? path : path.applying(transform)).flattened(tolerance: flatteningTolerance),
             rule: rule)
    }

    /// Narrows the clip to the inside of closed polygons already in device pixels (geometry
    /// projected elsewhere, such as a layer's bounds under perspective).
    public func clip(toPolygons polygons: [[Point]], rule: FillRule = .nonZero) {
        let bounds = Rect.boundingBox(of: polygons.flatMap { $0 })
        let c = clipState.rect
        let b = c.intersection(PixelRect(
            x0: Int(saturating: max(bounds.minX, -1).rounded(.down)), y0: Int(saturating: max(bounds.minY, -1).rounded(.down)),
            x1: Int(saturating: min(bounds.maxX, Double(target.width) + 1).rounded(.up)),
            y1: Int(saturating: min(bounds.maxY, Double(target.height) + 1).rounded(.up))))
        let mask = ClipMask(width: target.width, height: target.height,
                            bounds: b.isEmpty ? PixelRect(width: 0, height: 0) : b)
        rasterizer.rasterize(polygons, rule: rule, clip: b) { y, x0, coverage in mask.setRow(coverage, x0: x0, y: y) }
        if let existing = clipState.mask { mask.intersect(with: existing) }
        clipState.rect = c.intersection(mask.bounds)
        clipState.mask = mask
    }

    /// Narrows the clip by the alpha of `image` placed with its top-left at pixel `origin`
    /// (a layer mask): pixels outside the image are clipped away.
    public func clip(toAlphaOf image: PixelBuffer, at origin: (x: Int, y: Int)) {
        let c = clipState.rect
        let b = c.intersection(PixelRect(x0: origin.x, y0: origin.y, x1: origin.x + image.width, y1: origin.y + image.height))
        let mask = ClipMask(width: target.width, height: target.height,
                            bounds: b.isEmpty ? PixelRect(width: 0, height: 0) : b)
        if !b.isEmpty {
            for y in b.y0..<b.y1 {
                for x in b.x0..<b.x1 { mask.set(UInt8(image[x - origin.x, y - origin.y] >> 24), x: x, y: y) }
            }
        }
        if let existing = clipState.mask { mask.intersect(with: existing) }
        clipState.rect = c.intersection(mask.bounds)
        clipState.mask = mask
    }

    /// Fills the whole target with `color` (source copy, ignoring the clip).
    public func clear(_ color: Color) {
        target.fill(color)
    }

    /// The pixels the clip lets through, as a rectangle (a path clip's box): nothing drawn
    /// lands outside it.
    public var clipBounds: PixelRect { clipState.rect }

    /// The draw's clip rectangle: the canvas clip, narrowed by `extra`.
    private func effectiveClip(_ extra: PixelRect?) -> PixelRect {
        let c = clipState.rect
        guard let e = extra else { return c }
        return c.intersection(e)
    }

    /// False when `path` mapped through `transform`, grown by `reach` device pixels, lies
    /// wholly outside the clip: such a draw is skipped before it is flattened or stroked (a
    /// band of a split frame, or a damage-only redraw, pays only for what reaches it). The
    /// control points' box contains the curves; anything not finite is left to the rasterizer.
    private func mayTouch(_ path: Path, transform: AffineTransform, reach: Double, clip: PixelRect?) -> Bool {
        let box = transform.apply(to: path.controlPointBounds)
        let c = effectiveClip(clip)
        guard box.minX.isFinite, box.maxX.isFinite, box.minY.isFinite, box.maxY.isFinite, reach.isFinite else { return true }
        let margin = reach + 1
        return box.maxX + margin > Double(c.x0) && box.minX - margin < Double(c.x1)
            && box.maxY + margin > Double(c.y0) && box.minY - margin < Double(c.y1)
    }

    /// Scan-converts `polygons` into `sink` with the chosen pipeline, inside the clip.
    func paint<Sink: SpanSink>(_ polygons: [[Point]], rule: FillRule, clip: PixelRect?,
                               into sink: inout Sink) {
        let c = effectiveClip(clip)
        guard c.x0 < c.x1, c.y0 < c.y1 else { return }
        switch pipeline {
        case .reference:
            rasterizer.rasterize(polygons, rule: rule, clip: c) { y, x0, coverage in
                for i in 0..<coverage.count where coverage[i] > 0 { sink.pixel(x: x0 + i, y: y, coverage: coverage[i]) }
            }
        case .fast:
            rasterizer.rasterizeSpans(polygons, rule: rule, clip: c, into: &sink)
        }
    }

    /// Fills `path`, mapped through `transform` into device pixels, with `color` src-over.
    /// `clip` further limits the pixels touched (device pixels, half-open).
    public func fill(
        _ path: Path, color: Color, rule: FillRule = .nonZero,
        transform: AffineTransform = .identity, clip: PixelRect? = nil
    ) {
        guard mayTouch(path, transform: transform, reach: 0, clip: clip) else { return }
        let device = transform.isIdentity ? path : path.applying(transform)
        // The fast core sees only the clip's pixels: curves away from them become chords
        // (the same pixels inside); the reference pipeline flattens everything.
        let polygons = pipeline == .fast
            ? device.fillPolygons(tolerance: flatteningTolerance, inside: Rect(effectiveClip(clip)))
            : device.flattened(tolerance: flatteningTolerance)
        fill(polygons: polygons, color: color, rule: rule, clip: clip)
    }

    /// Fills `path` with a gradient whose geometry is in the path's space (mapped through
    /// `transform` along with it).
    public func fill(_ path: Path, gradient: Gradient, rule: FillRule = .nonZero, transform: AffineTransform = .identity) {
        guard transform.determinant != 0 else { return }
        let polygons = (transform.isIdentity ? path : path.applying(transform)).flattened(tolerance: flatteningTolerance)
        var sink = GradientSink(gradient: gradient, inverse: transform.inverted(), target: target, mask: clipMask)
        paint(polygons, rule: rule, clip: nil, into: &sink)
    }

    /// Strokes `path` with `style`; the stroke is built in the path's own space and then
    /// mapped through `transform`, so a scaled layer scales its line width too.
    public func stroke(
        _ path: Path, style: StrokeStyle, color: Color, transform: AffineTransform = .identity,
        clip: PixelRect? = nil
    ) {
        let scale = max((transform.a * transform.a + transform.b * transform.b).squareRoot(),
                        (transform.c * transform.c + transform.d * transform.d).squareRoot(), 1e-9)
        // How far the outline can stray from the path: half the width, times the miter limit
        // for miter joins or √2 for square caps, and a little for the area-true arc points.
        let spread = max(1, style.join == .miter ? style.miterLimit : 1, style.cap == .square ? 2.squareRoot() : 1)
        guard mayTouch(path, transform: transform, reach: style.width / 2 * spread * 1.1 * scale, clip: clip) else { return }
        var polygons = path.stroked(style, tolerance: flatteningTolerance / scale)
        if !transform.isIdentity { polygons = polygons.map { $0.map(transform.apply(to:)) } }
        fill(polygons: polygons, color: color, rule: .nonZero, clip: clip)
    }

    /// Fills closed polygons already in device pixels (for geometry projected elsewhere,
    /// such as paths through a perspective transform).
    public func fill(
        polygons: [[Point]], color: Color, rule: FillRule = .nonZero,
        clip: PixelRect? = nil
    ) {
        let pixel = color.premultiplied.pixel32
        guard pixel >> 24 != 0 else { return }
        var sink = SolidColorSink(color: pixel, target: target, mask: clipMask)
        if pipeline == .fast, clipMask == nil, let box = PixelRect(pixelAlignedRectangle: polygons) {
            // Every pixel inside is covered exactly once and none outside: the sweep's own
            // runs, row by row, without edges, deposits or a sweep (a panel, a backdrop, a bar).
            let c = effectiveClip(clip).intersection(box)
            guard c.x0 < c.x1, c.y0 < c.y1 else { return }
            for y in c.y0..<c.y1 { sink.run(x0: c.x0, x1: c.x1, y: y, coverage: 1) }
            return
        }
        paint(polygons, rule: rule, clip: clip, into: &sink)
    }

    /// Composites a glyph's coverage at pixel `(x, y)` in the premultiplied `pixel` (through the clip).
    func blit(_ mask: GlyphMask, x: Int, y: Int, pixel: UInt32) {
        mask.coverage.withUnsafeBufferPointer { blit($0, width: mask.width, height: mask.height, x: x, y: y, pixel: pixel) }
    }

    /// Composites `mask` with its top-left corner at pixel `origin`, each pixel covered by
    /// `color` as much as the mask says (through the clip): a shadow's blurred silhouette.
    public func draw(_ mask: AlphaMask, at origin: (x: Int, y: Int), color: Color) {
        mask.coverage.withUnsafeBufferPointer {
            blit($0, width: mask.width, height: mask.height, x: origin.x, y: origin.y, pixel: color.premultiplied.pixel32)
        }
    }

    /// The same, leaving the pixels of `hole` untouched when no clip mask is set: what an
    /// opaque shape drawn next paints whatever is under it (a shadow under its card). Under a
    /// clip mask the shape's edge blends with what is under it, so the mask is drawn whole.
    public func draw(_ mask: AlphaMask, at origin: (x: Int, y: Int), color: Color, excluding hole: PixelRect) {
        let box = PixelRect(x0: origin.x, y0: origin.y, x1: origin.x + mask.width, y1: origin.y + mask.height)
        let h = hole.intersection(box)
        guard !h.isEmpty, clipMask == nil else { return draw(mask, at: origin, color: color) }
        let around = [PixelRect(x0: box.x0, y0: box.y0, x1: box.x1, y1: h.y0),    // above
                      PixelRect(x0: box.x0, y0: h.y1, x1: box.x1, y1: box.y1),    // below
                      PixelRect(x0: box.x0, y0: h.y0, x1: h.x0, y1: h.y1),        // left
                      PixelRect(x0: h.x1, y0: h.y0, x1: box.x1, y1: h.y1)]        // right
        let whole = clipState.rect
        defer { clipState.rect = whole }
        for part in around where !part.isEmpty {
            clipState.rect = whole.intersection(part)
            draw(mask, at: origin, color: color)
        }
    }

    /// `width` x `height` coverage values composited in `pixel` at `(x, y)`, clipped.
    private func blit(_ coverage: UnsafeBufferPointer<UInt8>, width: Int, height: Int, x: Int, y: Int, pixel: UInt32) {
        guard pixel >> 24 != 0, width > 0, height > 0 else { return }
        let c = effectiveClip(nil)
        let x0 = max(x, c.x0), x1 = min(x + width, c.x1), y0 = max(y, c.y0), y1 = min(y + height, c.y1)
        guard x0 < x1, y0 < y1 else { return }
        if clipMask == nil && pipeline == .fast {
            // The whole mask in one call; the same arithmetic as `sink.pixel`, bit for bit.
            let rows = coverage.baseAddress! + (y0 - y) * width + (x0 - x)
            let destination = target.pixels.baseAddress! + y0 * target.stride + x0
            switch Blend.Level.current {
            case .avx512:
                lamina_blend_mask_rows_avx512(pixel, rows, width, destination, target.stride, x1 - x0, y1 - y0); return
            case .avx2:
                lamina_blend_mask_rows_avx2(pixel, rows, width, destination, target.stride, x1 - x0, y1 - y0); return
            case .portable: break
            }
        }
        var sink = SolidColorSink(color: pixel, target: target, mask: clipMask)
        for py in y0..<y1 {
            let row = (py - y) * width - x
            for px in x0..<x1 {
                let v = coverage[row + px]
                if v != 0 { sink.pixel(x: px, y: py, coverage: Float(v) / 255) }
            }
        }
    }

    /// Composites a premultiplied buffer (a layer group drawn offscreen) src-over at pixel
    /// offset `origin` with `opacity`: group opacity, applied once to the whole subtree.
    ///
    /// The buffer sits on whole pixels, so each pixel of the target takes one source pixel at
    /// full coverage: the rows are blended directly (what drawing the placement rectangle
    /// through the rasterizer with nearest sampling gives, bit for bit, without a sweep or a
    /// sample per pixel), through the clip mask when there is one. Transparent source pixels
    /// change nothing and are skipped.
    public func composite(_ source: PixelBuffer, at origin: (x: Int, y: Int) = (0, 0), opacity: Double = 1) {
        let m = UInt32(Float(min(max(opacity.isNaN ? 0 : opacity, 0), 1)) * 255 + 0.5)
        let placed = PixelRect(x0: origin.x, y0: origin.y,
                               x1: origin.x.addingReportingOverflow(source.width).partialValue,
                               y1: origin.y.addingReportingOverflow(source.height).partialValue)
        let area = clipState.rect.intersection(placed).intersection(PixelRect(width: target.width, height: target.height))
        guard m != 0, !area.isEmpty, source.width > 0, source.height > 0 else { return }
        let mask = clipMask
        let from = source.pixels.baseAddress!, into = target.pixels.baseAddress!
        for y in area.y0..<area.y1 {
            let sourceRow = from + (y - origin.y) * source.stride - origin.x
            let targetRow = into + y * target.stride
            for x in area.x0..<area.x1 {
                let src = sourceRow[x]
                guard src != 0 else { continue }
                let coverage = mask.map { $0.apply(m, x: x, y: y) } ?? m
                if coverage != 0 { Blend.composite(src, coverage: coverage, into: targetRow + x) }
            }
        }
    }

    /// The coverage (0…1) each pixel of the target would get from filling `path`: the
    /// rasterizer's exact output before blending, row-major `width · height`.
    public func coverage(of path: Path, rule: FillRule = .nonZero, transform: AffineTransform = .identity) -> [Float] {
        var mask = [Float](repeating: 0, count: target.width * target.height)
        let polygons = (transform.isIdentity ? path : path.applying(transform))
            .flattened(tolerance: flatteningTolerance)
        let width = target.width
        rasterizer.rasterize(polygons, rule: rule) { y, x0, coverage in
            for i in 0..<coverage.count { mask[y * width + x0 + i] = coverage[i] }
        }
        return mask
    }
}
