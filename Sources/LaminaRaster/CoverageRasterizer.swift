import LaminaGeometry

/// The exact-area coverage rasterizer: the reference scan converter.
///
/// Each line segment deposits, into a per-pixel accumulation row, the exact signed area it
/// contributes to every pixel it crosses (a trapezoid per row), written as differences
/// along the row. A prefix sum along the row then gives, for every pixel, the covered area
/// weighted by winding: exactly the covered fraction where one region covers the pixel,
/// and the winding number in the interior. The fill rule maps that value to coverage.
/// No pixel snapping, no sampling: a half-covered pixel is exactly 0.5.
///
/// Coordinates are device pixels: pixel (i, j) covers `[i, i+1) × [j, j+1)`.
///
/// `rasterize` is this model in Double arithmetic over Float cells, every cell visited: the
/// oracle. `rasterizeSpans` hands the same model to the fast core, `FixedPointCoverage`
/// (decision 115), which rounds edges to 1/256 px and works in integers.
public final class CoverageRasterizer {
    /// Width of the area rasterized, in pixels.
    public let width: Int
    /// Height of the area rasterized, in pixels.
    public let height: Int
    /// Cells of the current shape only: its bounding box (`originX`, `originY`, `rowLength`
    /// columns), so a small shape works in a small, cache-resident buffer. Grown on demand,
    /// always left all zero between shapes.
    private var cells: UnsafeMutableBufferPointer<Float>
    private var rowLength = 0
    private var originX = 0
    private var originY = 0
    private let coverageRow: UnsafeMutableBufferPointer<Float>
    /// The fast core `rasterizeSpans` runs (nil past its 4 M pixels a side: the reference then).
    private let fast: FixedPointCoverage?
    /// Rows outside `[rowClip0, rowClip1)` get no deposits: a row's coverage depends only on
    /// its own cells, so clipping rows here is exact (and lets bands skip each other's rows).
    private var rowClip0 = 0.0, rowClip1 = 0.0
    /// The shape's x extent (clamped into the canvas): interpolated x stays inside it in
    /// exact arithmetic, and is clamped to it against rounding so no deposit leaves the box.
    private var extentX0 = 0.0, extentX1 = 0.0

    /// Whether the fast core fills a shape's straight rows apart from its bands (decision
    /// 159); the tests turn it off to compare the two.
    var takesStraightRows: Bool {
        get { fast?.takesStraightRows ?? false }
        set { fast?.takesStraightRows = newValue }
    }
    /// How many rows the fast core has filled straight (for the tests).
    var straightRowsFilled: Int { fast?.straightRowsFilled ?? 0 }

    /// A rasterizer for a `width` x `height` pixel area.
    public init(width: Int, height: Int) {
        precondition(width > 0 && height > 0, "a rasterizer needs a positive size")
        self.width = width
        self.height = height
        cells = .allocate(capacity: 1024)
        cells.initialize(repeating: 0)
        coverageRow = .allocate(capacity: width)
        coverageRow.initialize(repeating: 0)
        fast = max(width, height) <= FixedPointCoverage.maximumSide ? FixedPointCoverage(width: width, height: height) : nil
    }

    deinit {
        cells.deallocate()
        coverageRow.deallocate()
    }

    /// The rows and columns a set of polygons can touch, clipped; nil when nothing can show.
    struct Extent {
        var rowFirst: Int, rowLast: Int, colFirst: Int, colEnd: Int
        var outX0: Int, outX1: Int, clipY0: Int, clipY1: Int
    }

    /// The polygons within reach of the canvas, with their bounds: nil when nothing can show
    /// or a point is not finite (the shape is culled). Geometry far outside the canvas
    /// (decision 86) is clipped to a box one pixel around it first: the winding inside the box
    /// is unchanged, and every coordinate the accumulation sees is then canvas-sized, so no
    /// precision is lost to a vertex at 1e19.
    private func withinReach(_ polygons: [[Point]]) -> (polygons: [[Point]], minX: Double, maxX: Double,
                                                          minY: Double, maxY: Double)? {
        var minX = Double.infinity, maxX = -Double.infinity
        var minY = Double.infinity, maxY = -Double.infinity
        for polygon in polygons {
            for p in polygon {
                guard p.x.isFinite, p.y.isFinite else { return nil }
                minX = min(minX, p.x); maxX = max(maxX, p.x)
                minY = min(minY, p.y); maxY = max(maxY, p.y)
            }
        }
        guard minX <= maxX else { return nil }
        let box = (x0: -1.0, y0: -1.0, x1: Double(width) + 1, y1: Double(height) + 1)
        if minX < box.x0 || maxX > box.x1 || minY < box.y0 || maxY > box.y1 {
            // The clipped polygons lie within the box, so this does not recurse again.
            let clipped = polygons.compactMap { PolygonClipper.clip($0, to: box) }
            guard !clipped.isEmpty else { return nil }
            return withinReach(clipped)
        }
        return (polygons, minX, maxX, minY, maxY)
    }

    /// Deposits every edge of `polygons` and returns what the reference sweep must visit.
    private func accumulate(_ polygons: [[Point]], clip: PixelRect?) -> Extent? {
        let cx0 = max(0, clip?.x0 ?? 0), cy0 = max(0, clip?.y0 ?? 0)
        let cx1 = min(width, clip?.x1 ?? width), cy1 = min(height, clip?.y1 ?? height)
        guard cx0 < cx1, cy0 < cy1, let (polygons, minX, maxX, minY, maxY) = withinReach(polygons) else { return nil }
        let W = Double(width), H = Double(height)
        let canvasRowLength = width + 2
        // Rows and columns the accumulation can touch (x is clamped into [0, W] below).
        // Clamped before converting: a far-away path must not overflow Int.
        let rowFirst = max(cy0, Int(min(max(minY, 0), H).rounded(.down)))
        let rowLast = min(cy1 - 1, Int(min(max(maxY, -1), H).rounded(.up)))
        guard rowFirst <= rowLast else { return nil }
        let colFirst = max(0, min(width, Int(min(max(minX, 0), W).rounded(.down))))
        let colEnd = min(canvasRowLength, Int(min(max(maxX, 0), W).rounded(.down)) + 2)
        prepareStorage(x0: colFirst, x1: colEnd, y0: rowFirst, y1: rowLast + 1)
        rowClip0 = Double(cy0)
        rowClip1 = Double(cy1)
        extentX0 = min(max(minX, 0), W)
        extentX1 = min(max(maxX, 0), W)
        for polygon in polygons {
            var previous = polygon[polygon.count - 1]
            for p in polygon {
                addSegment(previous, p, width: W, height: H)
                previous = p
            }
        }
        return Extent(rowFirst: rowFirst, rowLast: rowLast, colFirst: colFirst, colEnd: colEnd,
                      outX0: max(colFirst, cx0), outX1: min(colEnd, cx1), clipY0: cy0, clipY1: cy1)
    }

    /// Points the cell storage at the box `[x0, x1) × [y0, y1)`, growing it when needed (it
    /// is all zero: every sweep clears what it read).
    private func prepareStorage(x0: Int, x1: Int, y0: Int, y1: Int) {
        originX = x0
        originY = y0
        rowLength = x1 - x0
        let cellCount = rowLength * (y1 - y0)
        if cellCount > cells.count {
            cells.deallocate()
            cells = .allocate(capacity: max(cellCount, cells.count * 2))
            cells.initialize(repeating: 0)
        }
    }

    /// The reference sweep: scan-converts closed polygons (device coordinates) and calls
    /// `emit` once per row that may have coverage, with the row index, the first column and
    /// the coverage of the columns `x0 ..< x0 + coverage.count`, clipped to `clip`. Every
    /// cell is visited; simple enough to trust, and the oracle for `rasterizeSpans`.
    public func rasterize(
        _ polygons: [[Point]], rule: FillRule, clip: PixelRect? = nil,
        _ emit: (_ y: Int, _ x0: Int, _ coverage: UnsafeBufferPointer<Float>) -> Void
    ) {
        guard let e = accumulate(polygons, clip: clip) else { return }
        for y in e.rowFirst...e.rowLast {
            let base = (y - originY) * rowLength - originX
            var acc: Float = 0
            var any = false
            for x in e.colFirst..<e.colEnd {
                acc += cells[base + x]
                cells[base + x] = 0
                if x >= e.outX0 && x < e.outX1 {
                    let c = rule.coverage(acc)
                    coverageRow[x - e.outX0] = c
                    if c != 0 { any = true }
                }
            }
            if any, y >= e.clipY0, y < e.clipY1, e.outX0 < e.outX1 {
                emit(y, e.outX0, UnsafeBufferPointer(rebasing: coverageRow[0..<(e.outX1 - e.outX0)]))
            }
        }
    }

    /// The fast sweep: the coverage of `rasterize` on edges rounded to 1/256 px (decision 115
    /// gives the bound), accumulated in integers band by band, visiting only the cells edges
    /// touched, handed to `sink` as spans of per-pixel coverage, and the constant-coverage
    /// stretches between them as runs.
    public func rasterizeSpans<Sink: SpanSink>(
        _ polygons: [[Point]], rule: FillRule, clip: PixelRect? = nil, into sink: inout Sink
    ) {
        let cx0 = max(0, clip?.x0 ?? 0), cy0 = max(0, clip?.y0 ?? 0)
        let cx1 = min(width, clip?.x1 ?? width), cy1 = min(height, clip?.y1 ?? height)
        guard cx0 < cx1, cy0 < cy1 else { return }
        guard let fast else {
            rasterize(polygons, rule: rule, clip: clip) { y, x0, coverage in
                for i in 0..<coverage.count where coverage[i] > 0 { sink.pixel(x: x0 + i, y: y, coverage: coverage[i]) }
            }
            return
        }
        // One sweep per rule, so the coverage function is inlined, not re-chosen per cell.
        switch rule {
        case .nonZero: fast.rasterize(polygons, rule: NonZeroRule(), cx0: cx0, cy0: cy0, cx1: cx1, cy1: cy1, into: &sink)
        case .evenOdd: fast.rasterize(polygons, rule: EvenOddRule(), cx0: cx0, cy0: cy0, cx1: cx1, cy1: cy1, into: &sink)
        }
    }

    /// Adds one edge, split where it crosses x = 0 and x = W so each piece can be clamped
    /// into the canvas columns without changing the coverage of any pixel inside it: area
    /// left of the canvas still covers every pixel to its right.
    private func addSegment(_ a: Point, _ b: Point, width W: Double, height H: Double) {
        guard a.y != b.y else { return }
        var cuts: [Double] = []
        if (a.x < 0) != (b.x < 0) { cuts.append((0 - a.x) / (b.x - a.x)) }
        if (a.x > W) != (b.x > W) { cuts.append((W - a.x) / (b.x - a.x)) }
        if cuts.isEmpty {
            addClampedLine(a, b, width: W, height: H)
            return
        }
        cuts.sort()
        var start = a
        for t in cuts {
            let mid = Point(x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t)
            addClampedLine(start, mid, width: W, height: H)
            start = mid
        }
        addClampedLine(start, b, width: W, height: H)
    }

    private func addClampedLine(_ a: Point, _ b: Point, width W: Double, height H: Double) {
        accumulateLine(x0: min(max(a.x, 0), W), y0: a.y, x1: min(max(b.x, 0), W), y1: b.y, height: H)
    }

    /// Deposits the signed area of the segment, row by row (x already within [0, W]).
    private func accumulateLine(x0: Double, y0: Double, x1: Double, y1: Double, height H: Double) {
        if y0 == y1 { return }
        let direction: Double = y0 < y1 ? 1 : -1
        let (xTop, yTop, xBottom, yBottom) = y0 < y1 ? (x0, y0, x1, y1) : (x1, y1, x0, y0)
        guard yBottom > rowClip0, yTop < rowClip1 else { return }
        let dxdy = (xBottom - xTop) / (yBottom - yTop)
        let yStart = max(yTop, rowClip0), yEnd = min(yBottom, rowClip1)
        var row = floorInt(yStart)
        let rowEnd = ceilInt(yEnd)
        if xTop == xBottom {
            depositVerticalEdge(x: xTop, from: yStart, to: yEnd, direction: direction)
            return
        }
        while row < rowEnd {
            let top = max(Double(row), yStart)
            let bottom = min(Double(row + 1), yEnd)
            if bottom > top {
                let xa = xTop + dxdy * (top - yTop)
                let xb = bottom == yBottom ? xBottom : xTop + dxdy * (bottom - yTop)
                depositRow(row: row, xa: xa, xb: xb, d: (bottom - top) * direction)
            }
            row += 1
        }
    }

    /// One row band of an edge: the edge runs from `xa` to `xb` across a band of signed
    /// height `d`. Coverage of a column c is `d` times the average, over the band, of the
    /// part of [c, c+1) right of the edge; the cells store its differences along the row.
    @inline(__always)
    private func depositRow(row: Int, xa: Double, xb: Double, d: Double) {
        let base = (row - originY) * rowLength - originX
        // Interpolated x stays in the shape's extent in exact arithmetic; clamp against
        // rounding (and NaN).
        var xl = min(xa, xb), xr = max(xa, xb)
        if !(xl >= extentX0) { xl = extentX0 }
        if !(xr <= extentX1) { xr = extentX1 }
        if xr < xl { xr = xl }
        let il = floorInt(xl), ir = floorInt(xr)
        if il == ir || xr == Double(il + 1) {
            // Within one column: the covered part to its right is 1 − (mean x − column).
            let mid = (xl + xr) * 0.5 - Double(il)
            cells[base + il] += Float(d * (1 - mid))
            cells[base + il + 1] += Float(d * mid)
            return
        }
        let s = 1 / (xr - xl)
        let fl = xl - Double(il), fr = xr - Double(ir)
        let first = 0.5 * s * (1 - fl) * (1 - fl)   // coverage of column il
        let lastMissing = 0.5 * s * fr * fr         // what column ir lacks of full coverage
        cells[base + il] += Float(d * first)
        if ir == il + 1 {
            cells[base + ir] += Float(d * (1 - first - lastMissing))
        } else {
            let second = s * (1.5 - fl)              // coverage of column il + 1
            cells[base + il + 1] += Float(d * (second - first))
            let step = Float(d * s)
            var x = il + 2
            while x < ir {
                cells[base + x] += step
                x += 1
            }
            let beforeLast = second + Double(ir - il - 2) * s
            cells[base + ir] += Float(d * (1 - lastMissing - beforeLast))
        }
        cells[base + ir + 1] += Float(d * lastMissing)
    }

    /// A vertical edge at `x` over rows `yStart ..< yEnd` (already clipped): every row gets the
    /// same two deposits, scaled by the part of the row it covers.
    private func depositVerticalEdge(x: Double, from yStart: Double, to yEnd: Double, direction: Double) {
        let il = floorInt(x)
        let fraction = x - Double(il)
        var row = floorInt(yStart)
        let rowEnd = ceilInt(yEnd)
        while row < rowEnd {
            let dy = min(Double(row + 1), yEnd) - max(Double(row), yStart)
            if dy > 0 {
                let base = (row - originY) * rowLength - originX
                cells[base + il] += Float(dy * direction * (1 - fraction))
                cells[base + il + 1] += Float(dy * direction * fraction)
            }
            row += 1
        }
    }
}
