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
public final class CoverageRasterizer {
    /// Width of the area rasterized, in pixels.
    public let width: Int
    /// Height of the area rasterized, in pixels.
    public let height: Int
    /// Cells of the current shape only: its bounding box (`originX`, `originY`, `rowLength`
    /// columns), so a small shape works in a small, cache-resident buffer. Grown on demand,
    /// always left all zero between shapes.
    var cells: UnsafeMutableBufferPointer<Float>
    /// One bit per cell: set when a deposit touched it, so the fast sweep visits only edges.
    var touched: UnsafeMutableBufferPointer<UInt64>
    /// Per local row, the first and last touched bitmap words (first > last: none).
    var rowFirstWord: UnsafeMutableBufferPointer<Int32>
    var rowLastWord: UnsafeMutableBufferPointer<Int32>
    var rowLength = 0
    var wordsPerRow = 0
    var originX = 0
    var originY = 0
    private let coverageRow: UnsafeMutableBufferPointer<Float>
    /// The coverage of one span of the fast sweep (at most one bitmap word's 64 cells).
    private let spanCoverage: UnsafeMutableBufferPointer<Float>
    /// Rows outside `[rowClip0, rowClip1)` get no deposits: a row's coverage depends only on
    /// its own cells, so clipping rows here is exact (and lets bands skip each other's rows).
    var rowClip0 = 0.0, rowClip1 = 0.0
    /// The shape's x extent (clamped into the canvas): interpolated x stays inside it in
    /// exact arithmetic, and is clamped to it against rounding so no deposit leaves the box.
    var extentX0 = 0.0, extentX1 = 0.0

    /// A rasterizer for a `width` x `height` pixel area.
    public init(width: Int, height: Int) {
        precondition(width > 0 && height > 0, "a rasterizer needs a positive size")
        self.width = width
        self.height = height
        cells = .allocate(capacity: 1024)
        cells.initialize(repeating: 0)
        touched = .allocate(capacity: 64)
        touched.initialize(repeating: 0)
        rowFirstWord = .allocate(capacity: 64)
        rowFirstWord.initialize(repeating: Int32.max)
        rowLastWord = .allocate(capacity: 64)
        rowLastWord.initialize(repeating: -1)
        coverageRow = .allocate(capacity: width)
        coverageRow.initialize(repeating: 0)
        spanCoverage = .allocate(capacity: 64)
        spanCoverage.initialize(repeating: 0)
    }

    deinit {
        cells.deallocate()
        touched.deallocate()
        rowFirstWord.deallocate()
        rowLastWord.deallocate()
        coverageRow.deallocate()
        spanCoverage.deallocate()
    }

    /// The rows and columns a set of polygons can touch, clipped; nil when nothing can show.
    struct Extent {
        var rowFirst: Int, rowLast: Int, colFirst: Int, colEnd: Int
        var outX0: Int, outX1: Int, clipY0: Int, clipY1: Int
    }

    /// Deposits every edge of `polygons` and returns what the sweep must visit.
    private func accumulate(_ polygons: [[Point]], clip: PixelRect?, exact: Bool) -> Extent? {
        let cx0 = max(0, clip?.x0 ?? 0), cy0 = max(0, clip?.y0 ?? 0)
        let cx1 = min(width, clip?.x1 ?? width), cy1 = min(height, clip?.y1 ?? height)
        guard cx0 < cx1, cy0 < cy1 else { return nil }
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
        let W = Double(width), H = Double(height)
        // Geometry far outside the canvas (decision 86) is clipped to a box one pixel around
        // it first: the winding inside the box is unchanged, and every coordinate the
        // accumulation sees is then canvas-sized, so no precision is lost to a vertex at 1e19.
        let box = (x0: -1.0, y0: -1.0, x1: W + 1, y1: H + 1)
        if minX < box.x0 || maxX > box.x1 || minY < box.y0 || maxY > box.y1 {
            let clipped = polygons.compactMap { PolygonClipper.clip($0, to: box) }
            guard !clipped.isEmpty else { return nil }
            return accumulate(clipped, clip: clip, exact: exact)
        }
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
        if exact {
            for polygon in polygons {
                var previous = polygon[polygon.count - 1]
                for p in polygon {
                    addSegment(previous, p, width: W, height: H)
                    previous = p
                }
            }
        } else {
            for polygon in polygons { depositEdges(of: polygon, width: W) }
        }
        return Extent(rowFirst: rowFirst, rowLast: rowLast, colFirst: colFirst, colEnd: colEnd,
                      outX0: max(colFirst, cx0), outX1: min(colEnd, cx1), clipY0: cy0, clipY1: cy1)
    }

    /// Points the cell and bitmap storage at the box `[x0, x1) × [y0, y1)`, growing it when
    /// needed (it is all zero: every sweep clears what it read).
    private func prepareStorage(x0: Int, x1: Int, y0: Int, y1: Int) {
        originX = x0
        originY = y0
        rowLength = x1 - x0
        wordsPerRow = (rowLength + 63) / 64
        let cellCount = rowLength * (y1 - y0), wordCount = wordsPerRow * (y1 - y0)
        if cellCount > cells.count {
            cells.deallocate()
            cells = .allocate(capacity: max(cellCount, cells.count * 2))
            cells.initialize(repeating: 0)
        }
        if wordCount > touched.count {
            touched.deallocate()
            touched = .allocate(capacity: max(wordCount, touched.count * 2))
            touched.initialize(repeating: 0)
        }
        if y1 - y0 > rowFirstWord.count {
            rowFirstWord.deallocate()
            rowLastWord.deallocate()
            rowFirstWord = .allocate(capacity: max(y1 - y0, rowFirstWord.count * 2))
            rowFirstWord.initialize(repeating: Int32.max)
            rowLastWord = .allocate(capacity: rowFirstWord.count)
            rowLastWord.initialize(repeating: -1)
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
        guard let e = accumulate(polygons, clip: clip, exact: true) else { return }
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
            let words = (y - originY) * wordsPerRow
            for w in 0..<wordsPerRow { touched[words + w] = 0 }
            rowFirstWord[y - originY] = Int32.max
            rowLastWord[y - originY] = -1
            if any, y >= e.clipY0, y < e.clipY1, e.outX0 < e.outX1 {
                emit(y, e.outX0, UnsafeBufferPointer(rebasing: coverageRow[0..<(e.outX1 - e.outX0)]))
            }
        }
    }

    /// The fast sweep: the coverage of `rasterize` within float rounding (decision 113: edges
    /// set up once, prefix sums four cells at a time), visiting only the stretches of cells
    /// edges touched (found through a per-row bitmap), handed to `sink` as spans of per-pixel
    /// coverage, and the constant-coverage stretches between them as runs.
    public func rasterizeSpans<Sink: SpanSink>(
        _ polygons: [[Point]], rule: FillRule, clip: PixelRect? = nil, into sink: inout Sink
    ) {
        guard let e = accumulate(polygons, clip: clip, exact: false) else { return }
        // One sweep per rule, so the coverage function is inlined, not re-chosen per cell.
        switch rule {
        case .nonZero: sweepSpans(e, NonZeroRule(), &sink)
        case .evenOdd: sweepSpans(e, EvenOddRule(), &sink)
        }
    }

    private func sweepSpans<Sink: SpanSink, Rule: CoverageRule>(_ e: Extent, _ rule: Rule, _ sink: inout Sink) {
        for y in e.rowFirst...e.rowLast {
            let base = (y - originY) * rowLength - originX
            let words = (y - originY) * wordsPerRow
            let visible = y >= e.clipY0 && y < e.clipY1
            var acc: Float = 0
            var next = e.colFirst                      // first column not yet emitted
            let local = y - originY
            let firstWord = Int(rowFirstWord[local]), lastWord = Int(rowLastWord[local])
            // Warm the destination of the first and last edge pixels two rows ahead: thin
            // shapes are all edge pixels, each on a cold cache line otherwise (runs between
            // them stream, which the hardware prefetcher sees by itself).
            if y + 2 <= e.rowLast && y + 2 < e.clipY1 {
                let ahead = local + 2
                let first = Int(rowFirstWord[ahead]), last = Int(rowLastWord[ahead])
                if first <= last {
                    let aheadWords = ahead * wordsPerRow
                    let x0 = originX + first << 6 + touched[aheadWords + first].trailingZeroBitCount
                    let x1 = originX + last << 6 + 63 - touched[aheadWords + last].leadingZeroBitCount
                    sink.prefetch(x: min(x0, e.outX1 - 1), y: y + 2)
                    sink.prefetch(x: min(x1, e.outX1 - 1), y: y + 2)
                }
            }
            guard firstWord <= lastWord else { continue }    // untouched row: no coverage
            rowFirstWord[local] = Int32.max
            rowLastWord[local] = -1
            for w in firstWord...lastWord {
                let bits = touched[words + w]
                if bits == 0 { continue }
                touched[words + w] = 0
                // The word's first to last touched cell, as one span of per-pixel coverage
                // (cells between touched ones are zero, so they carry the sum unchanged).
                let first = originX + w << 6 + bits.trailingZeroBitCount
                let end = originX + w << 6 + 64 - bits.leadingZeroBitCount
                if visible && first > next { emitRun(next, first, y, rule.coverage(acc), e, &sink) }
                acc = rule.sweep(cells.baseAddress! + base + first, into: spanCoverage.baseAddress!,
                                 count: end - first, from: acc)
                if visible {
                    let a = max(first, e.outX0), b = min(end, e.outX1)
                    if a < b {
                        sink.span(x0: a, y: y, coverage: UnsafePointer(spanCoverage.baseAddress! + (a - first)), count: b - a)
                    }
                }
                next = end
            }
            if visible && next < e.colEnd { emitRun(next, e.colEnd, y, rule.coverage(acc), e, &sink) }
        }
    }

    @inline(__always)
    private func emitRun<Sink: SpanSink>(_ x0: Int, _ x1: Int, _ y: Int, _ c: Float, _ e: Extent, _ sink: inout Sink) {
        guard c > 0 else { return }   // also drops NaN
        let a = max(x0, e.outX0), b = min(x1, e.outX1)
        if a < b { sink.run(x0: a, x1: b, y: y, coverage: c) }
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
            markTouchedCells(row: row, il, il + 1)
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
        markTouchedCells(row: row, il, ir + 1)
    }
}
