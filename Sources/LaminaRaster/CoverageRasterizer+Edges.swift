import LaminaGeometry

/// The fast pipeline's edge deposits: the same trapezoid areas as the reference's
/// `addSegment`, set up once per edge instead of once per row.
///
/// Per edge, the slope and the deposit per column crossed (`dir · |dy/dx|`) are computed
/// once; each row then costs two multiplies for its end points and no division. The areas
/// differ from the reference's only by rounding (the reference divides by each row's x
/// extent), and each row's deposits still sum to exactly its signed height, so interior
/// coverage is unchanged: decision 113 gives the bound, `DifferentialTests` holds it.
extension CoverageRasterizer {
    /// Deposits every edge of one closed polygon (device pixels, inside the one-pixel box
    /// around the canvas that `accumulate` guarantees).
    func depositEdges(of polygon: [Point], width W: Double) {
        polygon.withUnsafeBufferPointer { points in
            guard var previous = points.last else { return }
            for p in points {
                depositSplitEdge(previous, p, width: W)
                previous = p
            }
        }
    }

    /// One edge, split where it leaves the columns `[0, W]`: the part left of the canvas
    /// still covers every pixel to its right, so each part is deposited with x clamped.
    @inline(__always)
    private func depositSplitEdge(_ a: Point, _ b: Point, width W: Double) {
        guard a.y != b.y else { return }
        let crossesLeft = (a.x < 0) != (b.x < 0), crossesRight = (a.x > W) != (b.x > W)
        if !crossesLeft && !crossesRight {
            depositEdge(x0: min(max(a.x, 0), W), y0: a.y, x1: min(max(b.x, 0), W), y1: b.y)
            return
        }
        var t0 = crossesLeft ? (0 - a.x) / (b.x - a.x) : 2
        var t1 = crossesRight ? (W - a.x) / (b.x - a.x) : 2
        if t1 < t0 { swap(&t0, &t1) }
        var start = a
        func cut(at t: Double) {
            let mid = Point(x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t)
            depositEdge(x0: min(max(start.x, 0), W), y0: start.y, x1: min(max(mid.x, 0), W), y1: mid.y)
            start = mid
        }
        if t0 <= 1 { cut(at: t0) }
        if t1 <= 1 { cut(at: t1) }
        depositEdge(x0: min(max(start.x, 0), W), y0: start.y, x1: min(max(b.x, 0), W), y1: b.y)
    }

    /// Deposits the signed area of one edge whose x already lies within the canvas columns.
    @inline(__always)
    private func depositEdge(x0: Double, y0: Double, x1: Double, y1: Double) {
        if y0 == y1 { return }
        let direction: Double = y0 < y1 ? 1 : -1
        let (xTop, yTop, xBottom, yBottom) = y0 < y1 ? (x0, y0, x1, y1) : (x1, y1, x0, y0)
        guard yBottom > rowClip0, yTop < rowClip1 else { return }
        let yStart = max(yTop, rowClip0), yEnd = min(yBottom, rowClip1)
        var row = floorInt(yStart)
        let rowEnd = ceilInt(yEnd)
        let cells = self.cells.baseAddress!
        if xTop == xBottom {
            depositVerticalEdge(x: xTop, from: yStart, to: yEnd, direction: direction)
            return
        }
        let dxdy = (xBottom - xTop) / (yBottom - yTop)
        // What a column fully crossed within a row gains: the row's signed height over the
        // columns the edge spans there, the same for every row (|dy/dx|).
        let perColumn = direction / abs(dxdy)
        var xa = yStart == yTop ? xTop : xTop + dxdy * (yStart - yTop)
        while row < rowEnd {
            let top = max(Double(row), yStart)
            let bottom = min(Double(row + 1), yEnd)
            let xb = bottom == yBottom ? xBottom : xTop + dxdy * (bottom - yTop)
            if bottom > top {
                depositRow(cells, row: row, xa: xa, xb: xb, d: (bottom - top) * direction, perColumn: perColumn)
            }
            xa = xb
            row += 1
        }
    }

    /// A vertical edge at `x` over rows `yStart ..< yEnd` (already clipped): every row gets the
    /// same two deposits, scaled by the part of the row it covers. Both pipelines share it.
    @inline(__always)
    func depositVerticalEdge(x: Double, from yStart: Double, to yEnd: Double, direction: Double) {
        let cells = self.cells.baseAddress!
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
                markTouchedCells(row: row, il, il + 1)
            }
            row += 1
        }
    }

    /// One row of an edge from `xa` to `xb`, of signed height `d`: column c gets `d` times
    /// the average over the row of the part of [c, c+1) right of the edge, stored as
    /// differences along the row. `perColumn` is `d` over the row's x extent.
    @inline(__always)
    private func depositRow(_ cells: UnsafeMutablePointer<Float>, row: Int, xa: Double, xb: Double, d: Double,
                            perColumn k: Double) {
        let base = (row - originY) * rowLength - originX
        var xl = min(xa, xb), xr = max(xa, xb)
        var k = k
        if !(xl >= extentX0 && xr <= extentX1) {
            // Rounding carried x out of the shape's extent (or it is NaN): clamp, and
            // take the deposit per column from what is left.
            if !(xl >= extentX0) { xl = extentX0 }
            if !(xr <= extentX1) { xr = extentX1 }
            if xr < xl { xr = xl }
            k = xr > xl ? d / (xr - xl) : 0
        }
        let il = floorInt(xl), ir = floorInt(xr)
        if il == ir || xr == Double(il + 1) {
            let mid = (xl + xr) * 0.5 - Double(il)
            cells[base + il] += Float(d * (1 - mid))
            cells[base + il + 1] += Float(d * mid)
            markTouchedCells(row: row, il, il + 1)
            return
        }
        let fl = xl - Double(il), fr = xr - Double(ir)
        let first = 0.5 * k * (1 - fl) * (1 - fl)      // coverage of column il
        let lastMissing = 0.5 * k * fr * fr            // what column ir lacks of full coverage
        cells[base + il] += Float(first)
        if ir == il + 1 {
            cells[base + ir] += Float(d - first - lastMissing)
        } else {
            let second = k * (1.5 - fl)                 // coverage of column il + 1
            cells[base + il + 1] += Float(second - first)
            let step = Float(k)
            var x = il + 2
            while x < ir {
                cells[base + x] += step
                x += 1
            }
            let beforeLast = second + Double(ir - il - 2) * k
            cells[base + ir] += Float(d - lastMissing - beforeLast)
        }
        cells[base + ir + 1] += Float(lastMissing)
        markTouchedCells(row: row, il, ir + 1)
    }

    /// Sets the touched bits of canvas columns `cx0 ... cx1` in canvas row `row`.
    @inline(__always)
    func markTouchedCells(row: Int, _ cx0: Int, _ cx1: Int) {
        let local = row - originY
        let x0 = cx0 - originX, x1 = cx1 - originX
        let w0 = x0 >> 6, w1 = x1 >> 6
        let words = touched.baseAddress! + local * wordsPerRow
        if Int32(w0) < rowFirstWord[local] { rowFirstWord[local] = Int32(w0) }
        if Int32(w1) > rowLastWord[local] { rowLastWord[local] = Int32(w1) }
        let low = ~UInt64(0) << UInt64(x0 & 63)                       // bits x0 & 63 … 63
        let high = ~UInt64(0) >> UInt64(63 - x1 & 63)                 // bits 0 … x1 & 63
        if w0 == w1 {
            words[w0] |= low & high
            return
        }
        words[w0] |= low
        var w = w0 + 1
        while w < w1 {
            words[w] = ~0
            w += 1
        }
        words[w1] |= high
    }
}
