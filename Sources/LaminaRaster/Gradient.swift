import LaminaGeometry

/// A colour ramp along 0…1 and the geometry that maps a point to a place on it.
///
/// Colours between stops interpolate componentwise in straight alpha (then premultiply),
/// as Core Graphics and Skia do by default (**Lamina choice**, decisions.md). Beyond the
/// first and last stops the end colours hold (pad). The ramp is sampled into 256 entries.
public struct Gradient: Sendable {
    /// A colour at a position along the gradient.
    public struct Stop: Hashable, Sendable {
        /// Where, from 0 (start) to 1 (end).
        public var location: Double
        /// The colour there.
        public var color: Color
        /// A stop of `color` at `location`.
        public init(_ location: Double, _ color: Color) {
            self.location = location
            self.color = color
        }
    }

    /// How the gradient's parameter t is measured.
    public enum Kind: Sendable {
        /// Colour varies along the line from `start` (t = 0) to `end` (t = 1).
        case linear(start: Point, end: Point)
        /// Colour varies with the distance from `center`: t = distance / radius.
        case radial(center: Point, radius: Double)
    }

    /// Its geometry.
    public var kind: Kind
    /// Sorted by location; locations are clamped to 0…1.
    public var stops: [Stop]

    /// A gradient of `kind` through `stops` (sorted by location).
    public init(_ kind: Kind, stops: [Stop]) {
        self.kind = kind
        self.stops = stops.map { Stop(min(max($0.location, 0), 1), $0.color) }.sorted { $0.location < $1.location }
    }

    /// The colour at ramp position `t` (straight alpha), exactly, without the table.
    public func color(at t: Double) -> Color {
        guard let first = stops.first, let last = stops.last else { return .clear }
        if t <= first.location { return first.color }
        if t >= last.location { return last.color }
        for (a, b) in zip(stops, stops.dropFirst()) where t >= a.location && t <= b.location {
            let span = b.location - a.location
            return span > 0 ? a.color.interpolated(to: b.color, by: (t - a.location) / span) : b.color
        }
        return last.color
    }

    /// 256 premultiplied pixels: entry i is the colour at t = i / 255.
    func table() -> [UInt32] {
        (0..<256).map { color(at: Double($0) / 255).premultiplied.pixel32 }
    }
}

/// Paints a gradient through coverage: the ramp position of each pixel centre (mapped back
/// into the gradient's space) picks a table entry, which is composited src-over.
struct GradientSink: SpanSink {
    let table: [UInt32]
    let kind: Gradient.Kind
    let inverse: AffineTransform
    let base: UnsafeMutablePointer<UInt32>
    let stride: Int
    let mask: ClipMask?

    init(gradient: Gradient, inverse: AffineTransform, target: PixelBuffer, mask: ClipMask?) {
        table = gradient.table()
        kind = gradient.kind
        self.inverse = inverse
        base = target.pixels.baseAddress!
        stride = target.stride
        self.mask = mask
    }

    @inline(__always)
    func position(x: Int, y: Int) -> Double {
        let cx = Double(x) + 0.5, cy = Double(y) + 0.5
        let p = Point(x: inverse.a * cx + inverse.c * cy + inverse.tx, y: inverse.b * cx + inverse.d * cy + inverse.ty)
        switch kind {
        case .linear(let s, let e):
            let d = e - s
            let length2 = d.x * d.x + d.y * d.y
            return length2 > 0 ? ((p.x - s.x) * d.x + (p.y - s.y) * d.y) / length2 : 0
        case .radial(let c, let r):
            return r > 0 ? p.distance(to: c) / r : 1
        }
    }

    @inline(__always)
    mutating func pixel(x: Int, y: Int, coverage c: Float) {
        var m = UInt32(c * 255 + 0.5)
        if let mask { m = mask.apply(m, x: x, y: y) }
        guard m != 0 else { return }
        let t = position(x: x, y: y)
        let index = t.isNaN ? 0 : Int(min(max(t, 0), 1) * 255 + 0.5)
        Blend.composite(table[index], coverage: m, into: base + y * stride + x)
    }

    @inline(__always)
    mutating func run(x0: Int, x1: Int, y: Int, coverage c: Float) {
        for x in x0..<x1 { pixel(x: x, y: y, coverage: c) }
    }
}
