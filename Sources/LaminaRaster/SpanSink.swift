/// Receives the output of `CoverageRasterizer.rasterizeSpans`: single edge pixels and runs
/// of constant coverage, left to right within a row, rows top to bottom.
public protocol SpanSink {
    /// One pixel with its own coverage (0 < coverage ≤ …; already through the fill rule).
    mutating func pixel(x: Int, y: Int, coverage: Float)
    /// Pixels `x0 ..< x1` of row `y`, all with the same coverage.
    mutating func run(x0: Int, x1: Int, y: Int, coverage: Float)
}

/// Composites a solid premultiplied colour through spans onto a pixel buffer, with exactly
/// the arithmetic of the reference `Blend.spanOver`, pixel for pixel.
struct SolidColorSink: SpanSink {
    let color: UInt32
    let opaque: Bool
    let base: UnsafeMutablePointer<UInt32>
    let stride: Int

    init(color: UInt32, target: PixelBuffer) {
        self.color = color
        opaque = color >> 24 == 255
        base = target.pixels.baseAddress!
        self.stride = target.stride
    }

    @inline(__always)
    mutating func pixel(x: Int, y: Int, coverage c: Float) {
        let p = base + y * stride + x
        if c >= 1 {
            p.pointee = opaque ? color : Blend.over(color, p.pointee)
        } else {
            let m = UInt32(c * 255 + 0.5)
            if m != 0 { p.pointee = Blend.over(Blend.scale(color, by: m), p.pointee) }
        }
    }

    @inline(__always)
    mutating func run(x0: Int, x1: Int, y: Int, coverage c: Float) {
        let p = base + y * stride + x0
        let count = x1 - x0
        if c >= 1 {
            if opaque {
                p.update(repeating: color, count: count)
            } else {
                Blend.runOver(color, p, count)
            }
        } else {
            let m = UInt32(c * 255 + 0.5)
            if m != 0 { Blend.runOver(Blend.scale(color, by: m), p, count) }
        }
    }
}
