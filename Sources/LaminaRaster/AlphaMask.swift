import LaminaGeometry

/// A one-channel coverage image, 0 (nothing) to 255 (covered), row-major with no padding:
/// a shadow's blurred silhouette. It carries no colour, so one mask is blurred once and then
/// composited in whatever colour and opacity the shadow has, frame after frame.
public struct AlphaMask: Sendable {
    /// Columns and rows.
    public let width: Int, height: Int
    /// `width · height` coverage values, row by row.
    public internal(set) var coverage: [UInt8]

    /// An empty (transparent) mask of `width` x `height` (each clamped to 0 or more).
    public init(width: Int, height: Int) {
        self.width = max(width, 0)
        self.height = max(height, 0)
        coverage = [UInt8](repeating: 0, count: self.width * self.height)
    }

    /// `path` filled through `transform` into a mask of `width` x `height`, anti-aliased as a
    /// canvas fill is (the reference sweep's coverage, rounded to 1/255); curves are
    /// flattened to within `tolerance` pixels. What falls outside the mask is dropped.
    public init(filling path: Path, rule: FillRule = .nonZero, transform: AffineTransform = .identity,
                width: Int, height: Int, tolerance: Double = Path.defaultFlatteningTolerance) {
        self.init(width: width, height: height)
        guard self.width > 0, self.height > 0 else { return }
        let polygons = (transform.isIdentity ? path : path.applying(transform)).flattened(tolerance: tolerance)
        let rasterizer = CoverageRasterizer(width: self.width, height: self.height)
        let stride = self.width
        coverage.withUnsafeMutableBufferPointer { out in
            rasterizer.rasterize(polygons, rule: rule) { y, x0, row in
                let start = y * stride + x0
                for i in 0..<row.count { out[start + i] = UInt8(min(max(row[i], 0), 1) * 255 + 0.5) }
            }
        }
    }

    /// The coverage at column `x`, row `y` (both inside the mask).
    public subscript(x: Int, y: Int) -> UInt8 {
        coverage[y * width + x]
    }
}

extension AlphaMask {
    /// `passes` box blurs of `radius` pixels, each horizontal then vertical, with the
    /// rounding of `PixelBuffer.boxBlur` (the same values as its alpha, bit for bit). Three
    /// approximate a Gaussian of σ = √(r(r + 1)), the variance of three boxes of width
    /// 2r + 1: across a straight edge within 1 % of full coverage of the Gaussian's profile,
    /// at a single point within 7 % of its peak (ShadowTests holds the first). Outside the
    /// mask is transparent. O(1) per pixel whatever the radius: a running sum along each
    /// row, and down all the columns side by side (a column's pixels are a row apart).
    public mutating func blur(radius: Int, passes: Int = 3) {
        guard radius > 0, width > 0, height > 0 else { return }
        let width = self.width, height = self.height
        let divide = ExactDivision(by: 2 * radius + 1)
        let line = UnsafeMutableBufferPointer<Int32>.allocate(capacity: width)
        defer { line.deallocate() }
        let sums = UnsafeMutableBufferPointer<Int32>.allocate(capacity: width)
        defer { sums.deallocate() }
        // The vertical pass overwrites a row before it leaves the window: the last radius + 1
        // rows' originals wait here until they leave.
        let ring = UnsafeMutablePointer<UInt8>.allocate(capacity: (radius + 1) * width)
        defer { ring.deallocate() }
        coverage.withUnsafeMutableBufferPointer { pixels in
            let base = pixels.baseAddress!
            for _ in 0..<passes {
                for y in 0..<height { Self.blurRow(base + y * width, count: width, radius: radius, line: line, divide: divide) }
                Self.blurColumns(base, width: width, height: height, radius: radius, sums: sums, ring: ring, divide: divide)
            }
        }
    }

    /// One horizontal pass over a row: `line` holds a copy while the sum runs over it.
    private static func blurRow(_ row: UnsafeMutablePointer<UInt8>, count: Int, radius: Int,
                                line: UnsafeMutableBufferPointer<Int32>, divide: ExactDivision) {
        for i in 0..<count { line[i] = Int32(row[i]) }
        var sum = 0
        for k in 0..<min(radius, count) { sum += Int(line[k]) }
        for i in 0..<count {
            let entering = i + radius, leaving = i - radius - 1
            if entering < count { sum += Int(line[entering]) }
            if leaving >= 0 { sum -= Int(line[leaving]) }
            row[i] = UInt8(truncatingIfNeeded: divide(sum + radius))
        }
    }

    /// One vertical pass over every column at once: `sums` keeps each column's running sum
    /// of the window, `ring` (radius + 1 rows) the originals of the rows written but not yet
    /// out of the window.
    private static func blurColumns(_ base: UnsafeMutablePointer<UInt8>, width: Int, height: Int, radius: Int,
                                    sums: UnsafeMutableBufferPointer<Int32>, ring: UnsafeMutablePointer<UInt8>,
                                    divide: ExactDivision) {
        let ringRows = radius + 1
        for x in 0..<width { sums[x] = 0 }
        for k in 0..<min(radius, height) {
            let row = base + k * width
            for x in 0..<width { sums[x] &+= Int32(row[x]) }
        }
        for y in 0..<height {
            let entering = y + radius, leaving = y - radius - 1
            if entering < height {
                let row = base + entering * width
                for x in 0..<width { sums[x] &+= Int32(row[x]) }
            }
            if leaving >= 0 {
                let row = ring + (leaving % ringRows) * width
                for x in 0..<width { sums[x] &-= Int32(row[x]) }
            }
            let out = base + y * width
            (ring + (y % ringRows) * width).update(from: out, count: width)     // y's original, for when it leaves
            for x in 0..<width { out[x] = UInt8(truncatingIfNeeded: divide(Int(sums[x]) + radius)) }
        }
    }
}
