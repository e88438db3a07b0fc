import LaminaGeometry

/// Draws into a `PixelBuffer`: clears, and anti-aliased path fills with src-over.
///
/// A canvas keeps its scan-conversion memory between draws, so one canvas per target
/// buffer is the cheap way to draw many paths.
public final class Canvas {
    public let target: PixelBuffer
    private let rasterizer: CoverageRasterizer
    var rasterizerForImages: CoverageRasterizer { rasterizer }
    /// Curves are flattened to within this many device pixels.
    public var flatteningTolerance = Path.defaultFlatteningTolerance

    /// Which scan converter and blender draw fills.
    public enum Pipeline: Sendable {
        /// Every pixel through the simple reference sweep and scalar blend: the oracle.
        case reference
        /// Edge cells from a bitmap, constant-coverage runs filled or blended with SIMD;
        /// pixel-identical to `reference`.
        case fast
    }

    public var pipeline = Pipeline.fast

    public init(target: PixelBuffer) {
        self.target = target
        rasterizer = CoverageRasterizer(width: max(target.width, 1), height: max(target.height, 1))
    }

    /// Fills the whole target with `color` (source copy).
    public func clear(_ color: Color) {
        target.fill(color)
    }

    /// Fills `path`, mapped through `transform` into device pixels, with `color` src-over.
    /// `clip` limits the pixels touched (device pixels, half-open).
    public func fill(
        _ path: Path, color: Color, rule: FillRule = .nonZero,
        transform: AffineTransform = .identity, clip: (x0: Int, y0: Int, x1: Int, y1: Int)? = nil
    ) {
        let pixel = color.premultiplied.pixel32
        guard pixel >> 24 != 0 else { return }
        let polygons = (transform.isIdentity ? path : path.applying(transform))
            .flattened(tolerance: flatteningTolerance)
        fill(polygons: polygons, color: color, rule: rule, clip: clip)
    }

    /// Strokes `path` with `style`; the stroke is built in the path's own space and then
    /// mapped through `transform`, so a scaled layer scales its line width too.
    public func stroke(
        _ path: Path, style: StrokeStyle, color: Color, transform: AffineTransform = .identity,
        clip: (x0: Int, y0: Int, x1: Int, y1: Int)? = nil
    ) {
        let scale = max((transform.a * transform.a + transform.b * transform.b).squareRoot(),
                        (transform.c * transform.c + transform.d * transform.d).squareRoot(), 1e-9)
        var polygons = path.stroked(style, tolerance: flatteningTolerance / scale)
        if !transform.isIdentity { polygons = polygons.map { $0.map(transform.apply(to:)) } }
        fill(polygons: polygons, color: color, rule: .nonZero, clip: clip)
    }

    /// Fills closed polygons already in device pixels (for geometry projected elsewhere,
    /// such as paths through a perspective transform).
    public func fill(
        polygons: [[Point]], color: Color, rule: FillRule = .nonZero,
        clip: (x0: Int, y0: Int, x1: Int, y1: Int)? = nil
    ) {
        let pixel = color.premultiplied.pixel32
        guard pixel >> 24 != 0 else { return }
        let target = self.target
        switch pipeline {
        case .reference:
            rasterizer.rasterize(polygons, rule: rule, clip: clip) { y, x0, coverage in
                Blend.spanOver(color: pixel, coverage: coverage, row: target.pixels.baseAddress! + y * target.stride + x0)
            }
        case .fast:
            var sink = SolidColorSink(color: pixel, target: target)
            rasterizer.rasterizeSpans(polygons, rule: rule, clip: clip, into: &sink)
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
