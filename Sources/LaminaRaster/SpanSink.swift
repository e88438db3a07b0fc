import CLaminaKernels

/// Receives the output of `CoverageRasterizer.rasterizeSpans`: single edge pixels and runs
/// of constant coverage, left to right within a row, rows top to bottom.
public protocol SpanSink {
    /// Pixel `x` of row `y` will be visited soon (a cache hint; optional).
    func prefetch(x: Int, y: Int)
    /// One pixel with its own coverage (0 < coverage ≤ …; already through the fill rule).
    mutating func pixel(x: Int, y: Int, coverage: Float)
    /// Pixels `x0 ..< x1` of row `y`, all with the same coverage.
    mutating func run(x0: Int, x1: Int, y: Int, coverage: Float)
    /// Pixels `x0 ..< x0 + count` of row `y`, each with its own coverage (through the fill
    /// rule, so in 0…1, or NaN): exactly `pixel` for every coverage above zero.
    mutating func span(x0: Int, y: Int, coverage: UnsafePointer<Float>, count: Int)
    /// Whether `pixel(x:y:alpha:)` draws exactly what `pixel(x:y:coverage:)` draws for any
    /// coverage `c` with `alpha = UInt32(c · 255 + 0.5)`, i.e. the sink uses coverage only
    /// through that rounding. The fast core then hands edge pixels over in 8 bits, straight
    /// from its integer sums (false by default).
    static var takesAlpha: Bool { get }
    /// One pixel with its coverage in 8 bits (1…255), for sinks whose `takesAlpha` is true.
    mutating func pixel(x: Int, y: Int, alpha: UInt32)
}

extension SpanSink {
    public func prefetch(x: Int, y: Int) {}

    public static var takesAlpha: Bool { false }

    public mutating func pixel(x: Int, y: Int, alpha: UInt32) {
        pixel(x: x, y: y, coverage: Float(alpha) * (1 / 255))
    }

    public mutating func span(x0: Int, y: Int, coverage: UnsafePointer<Float>, count: Int) {
        for i in 0..<count where coverage[i] > 0 { pixel(x: x0 + i, y: y, coverage: coverage[i]) }   // drops NaN
    }
}

/// Composites a solid premultiplied colour through coverage onto a pixel buffer. `pixel` is
/// the reference arithmetic; `run` does the same per pixel, only faster (memset for opaque
/// full coverage, SIMD blending otherwise), and falls back to `pixel` under a clip mask.
struct SolidColorSink: SpanSink {
    let color: UInt32
    let opaque: Bool
    let base: UnsafeMutablePointer<UInt32>
    let stride: Int
    let mask: ClipMask?
    let level = Blend.Level.current

    init(color: UInt32, target: PixelBuffer, mask: ClipMask? = nil) {
        self.color = color
        opaque = color >> 24 == 255
        base = target.pixels.baseAddress!
        self.stride = target.stride
        self.mask = mask
    }

    static var takesAlpha: Bool { true }

    /// Prefetches the destination cache line of one pixel.
    @inline(__always)
    func prefetch(x: Int, y: Int) {
        lamina_prefetch_write(base + y * stride + x)
    }

    @inline(__always)
    mutating func pixel(x: Int, y: Int, coverage c: Float) {
        pixel(x: x, y: y, alpha: UInt32(c * 255 + 0.5))
    }

    @inline(__always)
    mutating func pixel(x: Int, y: Int, alpha: UInt32) {
        var m = alpha
        if let mask { m = mask.apply(m, x: x, y: y) }
        guard m != 0 else { return }
        Blend.composite(color, coverage: m, into: base + y * stride + x)
    }

    @inline(__always)
    mutating func span(x0: Int, y: Int, coverage: UnsafePointer<Float>, count: Int) {
        let p = base + y * stride + x0
        // Short spans (a near-vertical edge's two pixels) are cheaper one by one.
        if count >= 4 && mask == nil {
            switch level {
            case .avx512: lamina_blend_coverage_avx512(color, coverage, p, count); return
            case .avx2: lamina_blend_coverage_avx2(color, coverage, p, count); return
            case .portable: break
            }
        }
        for i in 0..<count where coverage[i] > 0 { pixel(x: x0 + i, y: y, coverage: coverage[i]) }   // drops NaN
    }

    @inline(__always)
    mutating func run(x0: Int, x1: Int, y: Int, coverage c: Float) {
        if mask != nil {
            for x in x0..<x1 { pixel(x: x, y: y, coverage: c) }
            return
        }
        let p = base + y * stride + x0
        let count = x1 - x0
        let m = UInt32(c * 255 + 0.5)
        if m >= 255 {
            if opaque {
                Blend.fill(color, p, count, level: level)
            } else {
                Blend.runOver(color, p, count, level: level)
            }
        } else if m != 0 {
            Blend.runOver(Blend.scale(color, by: m), p, count, level: level)
        }
    }
}
