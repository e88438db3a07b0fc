import CLaminaKernels
import LaminaGeometry

/// How an image is sampled between its pixels.
public enum ImageFilter: String, Hashable, Sendable {
    /// Four nearest texels weighted by distance (8-bit weights).
    case bilinear
    /// The texel under the sample point (pixel art).
    case nearest
}

extension PixelBuffer {
    /// A premultiplied image from straight 8-bit RGBA (PNG files), each colour rounded as
    /// `round(C · A / 255)`.
    public convenience init(rgba image: RGBAImage) {
        self.init(width: image.width, height: image.height)
        var i = 0
        for y in 0..<image.height {
            for x in 0..<image.width {
                let a = UInt32(image.bytes[i + 3])
                func pre(_ c: UInt8) -> UInt32 { (UInt32(c) * a + 127) / 255 }
                self[x, y] = a << 24 | pre(image.bytes[i]) << 16 | pre(image.bytes[i + 1]) << 8 | pre(image.bytes[i + 2])
                i += 4
            }
        }
    }

    /// The PNG file at `path`, ready for a layer's `contents` in one line:
    /// `layer.contents = try PixelBuffer(contentsOfPNG: "logo.png")`. At most
    /// `maximumPixels` pixels (checked from the header, before anything is decoded); a file
    /// that is missing, not a PNG or too large throws a `PNGError` saying which.
    public convenience init(contentsOfPNG path: String, maximumPixels: Int = RGBAImage.maximumPixels) throws(PNGError) {
        self.init(rgba: try RGBAImage.readPNG(from: path, maximumPixels: maximumPixels))
    }
}

extension Canvas {
    /// Draws `image` (premultiplied) with `transform` mapping image space — the image covers
    /// `[0, width] × [0, height]` — to device pixels. Samples outside the image take the
    /// nearest edge texel (pad); the edges of the transformed rectangle are anti-aliased by
    /// their exact coverage; `opacity` multiplies everything.
    public func draw(_ image: PixelBuffer, transform: AffineTransform, opacity: Double = 1,
                     filter: ImageFilter = .bilinear, clip: PixelRect? = nil) {
        let inverse = transform.inverted()
        guard image.width > 0, image.height > 0, opacity > 0, transform.determinant != 0,
              [inverse.a, inverse.b, inverse.c, inverse.d, inverse.tx, inverse.ty].allSatisfy(\.isFinite) else { return }
        if image.isOpaque, opacity >= 1, clipMask == nil, copyOpaque(image, transform: transform, clip: clip) { return }
        let w = Double(image.width), h = Double(image.height)
        let corners = [Point(x: 0, y: 0), Point(x: w, y: 0), Point(x: w, y: h), Point(x: 0, y: h)].map(transform.apply(to:))
        var sink = ImageSink(image: image, inverse: inverse, opacity: opacity, filter: filter, target: target, mask: clipMask)
        paint([corners], rule: .nonZero, clip: clip, into: &sink)
    }
}

extension Canvas {
    /// An opaque image at its own size on whole pixels: every covered pixel is the texel
    /// under it (bilinear sampling at texel centres weighs that texel alone, and the edges on
    /// whole pixels cover fully), so rows are copied. False when `transform` is anything
    /// else, for the general path.
    private func copyOpaque(_ image: PixelBuffer, transform t: AffineTransform, clip: PixelRect?) -> Bool {
        guard t.a == 1, t.d == 1, t.b == 0, t.c == 0, t.tx == t.tx.rounded(), t.ty == t.ty.rounded(),
              abs(t.tx) < 1e9, abs(t.ty) < 1e9 else { return false }
        let x0 = Int(t.tx), y0 = Int(t.ty)
        var area = PixelRect(x0: x0, y0: y0, x1: x0 + image.width, y1: y0 + image.height)
            .intersection(clipBounds).intersection(PixelRect(width: target.width, height: target.height))
        if let clip { area = area.intersection(clip) }
        guard !area.isEmpty else { return true }
        let count = area.x1 - area.x0
        for y in area.y0..<area.y1 {
            let from = image.pixels.baseAddress! + (y - y0) * image.stride + (area.x0 - x0)
            (target.pixels.baseAddress! + y * target.stride + area.x0).update(from: from, count: count)
        }
        return true
    }

    /// Draws `image` on the plane z = 0 through a 3-D transform with perspective (a
    /// `TransformLayer`'s content): the image rectangle is projected and clipped where w ≤ 0,
    /// and each covered pixel is mapped back through the inverse homography and sampled.
    public func draw(_ image: PixelBuffer, transform3D t: Transform3D, opacity: Double = 1, filter: ImageFilter = .bilinear) {
        if t.isAffine { return draw(image, transform: t.affineTransform, opacity: opacity, filter: filter) }
        guard image.width > 0, image.height > 0, opacity > 0 else { return }
        // The homography of the z = 0 plane: (u, v, 1) ↦ (X, Y, W).
        let h = [t.m11, t.m12, t.m14, t.m21, t.m22, t.m24, t.m41, t.m42, t.m44]
        guard let inverse = Homography(h).inverted() else { return }
        let polygons = Path(rect: Rect(x: 0, y: 0, width: Double(image.width), height: Double(image.height)))
            .projected(through: t, tolerance: 0.5)
        guard !polygons.isEmpty else { return }
        var sink = ImageSink(image: image, inverse: .identity, opacity: opacity, filter: filter, target: target, mask: clipMask)
        sink.projective = inverse
        paint(polygons, rule: .nonZero, clip: nil, into: &sink)
    }
}

/// A 3x3 projective map on row vectors: (x, y, 1) · H.
struct Homography {
    var m: [Double]

    init(_ m: [Double]) { self.m = m }

    func inverted() -> Homography? {
        let a = m
        let c00 = a[4] * a[8] - a[5] * a[7], c01 = a[5] * a[6] - a[3] * a[8], c02 = a[3] * a[7] - a[4] * a[6]
        let det = a[0] * c00 + a[1] * c01 + a[2] * c02
        guard det != 0, det.isFinite else { return nil }
        let inv = [c00, a[2] * a[7] - a[1] * a[8], a[1] * a[5] - a[2] * a[4],
                   c01, a[0] * a[8] - a[2] * a[6], a[2] * a[3] - a[0] * a[5],
                   c02, a[1] * a[6] - a[0] * a[7], a[0] * a[4] - a[1] * a[3]].map { $0 / det }
        return inv.allSatisfy(\.isFinite) ? Homography(inv) : nil
    }

    /// (x, y) ↦ the mapped point, nil behind the eye.
    @inline(__always)
    func apply(_ x: Double, _ y: Double) -> (Double, Double)? {
        let w = x * m[2] + y * m[5] + m[8]
        guard w > 0 else { return nil }
        return ((x * m[0] + y * m[3] + m[6]) / w, (x * m[1] + y * m[4] + m[7]) / w)
    }
}

/// Samples an image through the inverse transform for each covered pixel and composites it.
struct ImageSink: SpanSink {
    let image: PixelBuffer
    let inverse: AffineTransform
    /// When set, pixels map back through this homography instead of `inverse`.
    var projective: Homography?
    /// opacity · 255, applied with the coverage.
    let opacity: Float
    let filter: ImageFilter
    let base: UnsafeMutablePointer<UInt32>
    let stride: Int
    let maxX: Int, maxY: Int
    let mask: ClipMask?
    let level = Blend.Level.current
    /// Affine sampling in 32.32 fixed point: texel position of pixel (x, y) is
    /// `rowU(y) + x · stepU` (and the same for v). Exact integer steps let `run` walk a row
    /// incrementally and still match `pixel` bit for bit. Off for extreme transforms.
    let fixedPoint: Bool
    let stepU: Int64, stepV: Int64

    init(image: PixelBuffer, inverse: AffineTransform, opacity: Double, filter: ImageFilter, target: PixelBuffer,
         mask: ClipMask?) {
        self.mask = mask
        let linear = [inverse.a, inverse.b, inverse.c, inverse.d]
        fixedPoint = linear.allSatisfy { abs($0) < 65536 } && abs(inverse.tx) < 1e9 && abs(inverse.ty) < 1e9
        stepU = fixedPoint ? Self.fixed(inverse.a) : 0
        stepV = fixedPoint ? Self.fixed(inverse.b) : 0
        self.image = image
        self.inverse = inverse
        self.opacity = Float(min(max(opacity, 0), 1))
        self.filter = filter
        base = target.pixels.baseAddress!
        stride = target.stride
        maxX = image.width - 1
        maxY = image.height - 1
    }

    /// The filtered, premultiplied texel colour at device pixel centre (x + ½, y + ½), mapped
    /// in floating point (perspective and extreme transforms), then sampled like the
    /// fixed-point path.
    @inline(__always)
    func sample(x: Int, y: Int) -> UInt32 {
        let cx = Double(x) + 0.5, cy = Double(y) + 0.5
        var mappedU = inverse.a * cx + inverse.c * cy + inverse.tx
        var mappedV = inverse.b * cx + inverse.d * cy + inverse.ty
        if let projective {
            let mapped = projective.apply(cx, cy) ?? (-2, -2)
            mappedU = mapped.0
            mappedV = mapped.1
        }
        // Clamped to just outside the image before converting: the same texels under pad
        // sampling, and no conversion of a huge or infinite value.
        let u = mappedU.isNaN ? -2 : min(max(mappedU, -2), Double(maxX) + 3)
        let v = mappedV.isNaN ? -2 : min(max(mappedV, -2), Double(maxY) + 3)
        return sample(fixedU: Self.fixed(u), fixedV: Self.fixed(v))
    }

    /// 32.32 fixed point; texel positions beyond ±2³⁰ (far outside any image) saturate there
    /// and NaN is 0, so no row of a degenerate transform traps (decision 86).
    @inline(__always)
    static func fixed(_ v: Double) -> Int64 {
        Int64((v.clamped(to: -1_073_741_824...1_073_741_824, nanAs: 0) * 4_294_967_296).rounded(.down))
    }

    /// Fixed-point texel position of pixel (0, y): the row's base for `u` and `v`.
    @inline(__always)
    func rowBase(y: Int) -> (u: Int64, v: Int64) {
        let cy = Double(y) + 0.5
        return (Self.fixed(inverse.c * cy + inverse.tx + inverse.a * 0.5),
                Self.fixed(inverse.d * cy + inverse.ty + inverse.b * 0.5))
    }

    /// The filtered texel colour at a fixed-point texel position (clamped to just outside the
    /// image, so pad sampling is unchanged and nothing overflows).
    @inline(__always)
    func sample(fixedU u: Int64, fixedV v: Int64) -> UInt32 {
        let texels = image.pixels.baseAddress!
        let rowPixels = image.stride
        let lowU = Int64(-2) << 32, highU = Int64(maxX + 3) << 32
        let lowV = Int64(-2) << 32, highV = Int64(maxY + 3) << 32
        let cu = min(max(u, lowU), highU), cv = min(max(v, lowV), highV)
        switch filter {
        case .nearest:
            let iu = min(max(Int(cu >> 32), 0), maxX), iv = min(max(Int(cv >> 32), 0), maxY)
            return texels[iv * rowPixels + iu]
        case .bilinear:
            let su = cu - (Int64(1) << 31), sv = cv - (Int64(1) << 31)
            let x0 = Int(su >> 32), y0 = Int(sv >> 32)
            let wx = UInt32((su >> 24) & 0xFF), wy = UInt32((sv >> 24) & 0xFF)
            let ax = min(max(x0, 0), maxX), bx = min(max(x0 + 1, 0), maxX)
            let ay = min(max(y0, 0), maxY), by = min(max(y0 + 1, 0), maxY)
            return Self.bilinear(texels[ay * rowPixels + ax], texels[ay * rowPixels + bx],
                                 texels[by * rowPixels + ax], texels[by * rowPixels + bx], wx, wy)
        }
    }

    /// Four texels (top-left, top-right, bottom-left, bottom-right) weighted by 8-bit fractions.
    @inline(__always)
    static func bilinear(_ a: UInt32, _ b: UInt32, _ c: UInt32, _ d: UInt32, _ wx: UInt32, _ wy: UInt32) -> UInt32 {
        lerp(lerp(a, b, wx), lerp(c, d, wx), wy)
    }


    /// `a · (256 − w)/256 + b · w/256` per channel, two channels per 32-bit lane pair.
    @inline(__always)
    static func lerp(_ a: UInt32, _ b: UInt32, _ w: UInt32) -> UInt32 {
        let iw: UInt32 = 256 - w, pairs: UInt32 = 0x00FF_00FF
        // Term by term: Swift 6.2's type checker gives up on the nested one-line form.
        let rb: UInt32 = ((a & pairs) &* iw &+ (b & pairs) &* w) >> 8
        let ag: UInt32 = (((a >> 8) & pairs) &* iw &+ ((b >> 8) & pairs) &* w) >> 8
        return (rb & pairs) | (ag & pairs) << 8
    }

    @inline(__always)
    mutating func pixel(x: Int, y: Int, coverage c: Float) {
        var m = UInt32(c * opacity * 255 + 0.5)
        if let mask { m = mask.apply(m, x: x, y: y) }
        guard m != 0 else { return }
        let src: UInt32
        if fixedPoint && projective == nil {
            let row = rowBase(y: y)
            src = sample(fixedU: row.u &+ Int64(x) &* stepU, fixedV: row.v &+ Int64(x) &* stepV)
        } else {
            src = sample(x: x, y: y)
        }
        Blend.composite(src, coverage: m, into: base + y * stride + x)
    }

    @inline(__always)
    mutating func run(x0: Int, x1: Int, y: Int, coverage c: Float) {
        guard fixedPoint && projective == nil && mask == nil else {
            for x in x0..<x1 { pixel(x: x, y: y, coverage: c) }
            return
        }
        let m = UInt32(c * opacity * 255 + 0.5)
        guard m != 0 else { return }
        let row = rowBase(y: y)
        var u = row.u &+ Int64(x0) &* stepU, v = row.v &+ Int64(x0) &* stepV
        var p = base + y * stride + x0
        let texels = image.pixels.baseAddress!
        let rowPixels = image.stride
        // Bilinear samples whose four texels are all inside the image need no clamping:
        // u − ½ in [0, maxX) and v − ½ in [0, maxY), in fixed point.
        let half = Int64(1) << 31
        let innerU = Int64(maxX) << 32, innerV = Int64(maxY) << 32
        var remaining = x1 - x0
        var scalarUntil = remaining + 8  // after the kernel declines, eight pixels go one by one
        while remaining > 0 {
            let su = u &- half, sv = v &- half
            if filter == .bilinear && level != .portable && remaining >= 8 && remaining <= scalarUntil - 8 {
                // Eight at a time while all four texels of every sample are inside the image.
                let done = level == .avx512
                    ? lamina_image_run_bilinear_avx512(texels, rowPixels, su, sv, stepU, stepV, innerU, innerV,
                                                       min(m, 255), p, remaining)
                    : lamina_image_run_bilinear_avx2(texels, rowPixels, su, sv, stepU, stepV, innerU, innerV,
                                                     min(m, 255), p, remaining)
                if done > 0 {
                    u &+= Int64(done) &* stepU
                    v &+= Int64(done) &* stepV
                    p += done
                    remaining -= done
                    scalarUntil = remaining
                    continue
                }
                scalarUntil = remaining
            }
            let src: UInt32
            if filter == .bilinear && su >= 0 && su < innerU && sv >= 0 && sv < innerV {
                let tx = Int(su >> 32), ty = Int(sv >> 32)
                let wx = UInt32((su >> 24) & 0xFF), wy = UInt32((sv >> 24) & 0xFF)
                let t = texels + ty * rowPixels + tx
                src = Self.bilinear(t[0], t[1], t[rowPixels], t[rowPixels + 1], wx, wy)
            } else {
                src = sample(fixedU: u, fixedV: v)
            }
            Blend.composite(src, coverage: m, into: p)
            u &+= stepU
            v &+= stepV
            p += 1
            remaining -= 1
        }
    }
}
