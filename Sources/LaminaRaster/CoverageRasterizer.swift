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
    public let width: Int
    public let height: Int
    private let rowLength: Int
    private let cells: UnsafeMutableBufferPointer<Float>
    private let coverageRow: UnsafeMutableBufferPointer<Float>

    public init(width: Int, height: Int) {
        precondition(width > 0 && height > 0, "a rasterizer needs a positive size")
        self.width = width
        self.height = height
        rowLength = width + 2
        cells = .allocate(capacity: rowLength * height)
        cells.initialize(repeating: 0)
        coverageRow = .allocate(capacity: width)
        coverageRow.initialize(repeating: 0)
    }

    deinit {
        cells.deallocate()
        coverageRow.deallocate()
    }

    /// Scan-converts closed polygons (device coordinates) and calls `emit` once per row that
    /// may have coverage, with the row index, the first column and the coverage of the
    /// columns `x0 ..< x0 + coverage.count`. Rows and columns are clipped to `clip`.
    public func rasterize(
        _ polygons: [[Point]], rule: FillRule, clip: (x0: Int, y0: Int, x1: Int, y1: Int)? = nil,
        _ emit: (_ y: Int, _ x0: Int, _ coverage: UnsafeBufferPointer<Float>) -> Void
    ) {
        let cx0 = max(0, clip?.x0 ?? 0), cy0 = max(0, clip?.y0 ?? 0)
        let cx1 = min(width, clip?.x1 ?? width), cy1 = min(height, clip?.y1 ?? height)
        guard cx0 < cx1, cy0 < cy1 else { return }

        var minX = Double.infinity, maxX = -Double.infinity
        var minY = Double.infinity, maxY = -Double.infinity
        for polygon in polygons {
            for p in polygon {
                guard p.x.isFinite, p.y.isFinite else { return }
                minX = min(minX, p.x); maxX = max(maxX, p.x)
                minY = min(minY, p.y); maxY = max(maxY, p.y)
            }
        }
        guard minX <= maxX else { return }
        let W = Double(width), H = Double(height)
        // Rows and columns the accumulation can touch (x is clamped into [0, W] below).
        let rowFirst = max(0, Int(minY.rounded(.down)))
        let rowLast = min(height - 1, Int(maxY.rounded(.up)))
        guard rowFirst <= rowLast else { return }
        let colFirst = max(0, min(width, Int(min(max(minX, 0), W).rounded(.down))))
        let colEnd = min(rowLength, Int(min(max(maxX, 0), W).rounded(.down)) + 2)

        for polygon in polygons {
            var previous = polygon[polygon.count - 1]
            for p in polygon {
                addSegment(previous, p, width: W, height: H)
                previous = p
            }
        }

        // Sweep: prefix-sum every touched row, clear it, emit the clipped span.
        let outX0 = max(colFirst, cx0), outX1 = min(colEnd, cx1)
        for y in rowFirst...rowLast {
            let base = y * rowLength
            var acc: Float = 0
            var any = false
            for x in colFirst..<colEnd {
                acc += cells[base + x]
                cells[base + x] = 0
                if x >= outX0 && x < outX1 {
                    let c = rule.coverage(acc)
                    coverageRow[x - outX0] = c
                    if c != 0 { any = true }
                }
            }
            if any, y >= cy0, y < cy1, outX0 < outX1 {
                emit(y, outX0, UnsafeBufferPointer(rebasing: coverageRow[0..<(outX1 - outX0)]))
            }
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
        guard yBottom > 0, yTop < H else { return }
        let dxdy = (xBottom - xTop) / (yBottom - yTop)
        let yStart = max(yTop, 0), yEnd = min(yBottom, H)
        var row = Int(yStart.rounded(.down))
        let rowEnd = Int(yEnd.rounded(.up))
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
        let base = row * rowLength
        let xl = min(xa, xb), xr = max(xa, xb)
        let il = Int(xl.rounded(.down)), ir = Int(xr.rounded(.down))
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
}
