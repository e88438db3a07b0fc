/// The deposits: one edge's rows within one band, in integers.
///
/// A row of an edge runs from `xa` to `xb` (subpixels) over `m` subpixel rows. Column c then
/// gains the area of `[c, c+1)` right of the edge, which the cells store as differences
/// along the row (so the sweep's prefix sum gives it back), in units where a subpixel row over
/// a whole column is 512. Within one column that is `m · (512 − fa − fb)` and the rest, `m ·
/// (fa + fb)`, one cell on; across columns it is the trapezoid rule with `m / (xb − xa)` taken
/// from the edge's slope (`Edge.perColumn`), and the row's last cells take what the others
/// leave, so every row still adds up to exactly `512 · m`.
extension FixedPointCoverage {
    /// Deposits the rows of `edge` that lie in the band `[bandTop, bandBottom)` (rows; the
    /// bottom in subpixels).
    @inline(__always)
    func depositRows(of edge: Edge, bandTop: Int, bandBottom: Int32) {
        var ya = max(edge.y0, Int32(bandTop) << Self.subpixelShift)
        let ye = min(edge.y1, bandBottom)
        let cells = self.cells - colFirst, rowLength = self.rowLength
        var row = Int(ya >> Self.subpixelShift) - bandTop
        if edge.x0 == edge.x1 {
            // Vertical: the same column and split in every row, scaled by the row's height.
            let column = Int(edge.x0 >> Self.subpixelShift), twice = 2 &* (edge.x0 & 255)
            while ya < ye {
                let yb = min((ya | 255) &+ 1, ye)
                let m = edge.direction &* (yb &- ya)
                let base = cells + row &* rowLength
                base[column] &+= m &* (512 &- twice)
                base[column + 1] &+= m &* twice
                markTouched(bandRow: row, column, column + 1)
                ya = yb
                row &+= 1
            }
            return
        }
        var xa = ya == edge.y0 ? edge.x0 : x(of: edge, at: ya)
        while ya < ye {
            let yb = min((ya | 255) &+ 1, ye)
            let xb = yb == edge.y1 ? edge.x1 : x(of: edge, at: yb)
            depositRow(cells + row &* rowLength, bandRow: row, xa: xa, xb: xb, height: yb &- ya, edge: edge)
            ya = yb
            xa = xb
            row &+= 1
        }
    }

    /// The edge's x at subpixel row `y`, rounded, and kept within the edge against rounding.
    @inline(__always)
    private func x(of edge: Edge, at y: Int32) -> Int32 {
        let x = roundedInt32(Double(edge.x0) + Double(y &- edge.y0) * edge.slope)
        return min(max(x, min(edge.x0, edge.x1)), max(edge.x0, edge.x1))
    }

    /// One row of an edge, `m` subpixel rows high, into the cells of its band row (indexed by
    /// canvas column).
    @inline(__always)
    private func depositRow(_ cells: UnsafeMutablePointer<Int32>, bandRow: Int, xa: Int32, xb: Int32, height m: Int32,
                            edge: Edge) {
        let direction = edge.direction
        let xl = min(xa, xb), xr = max(xa, xb)
        let start = xl & ~255
        let cl = Int(xl >> Self.subpixelShift)
        if xr - start <= 256 {
            // Within one column: the part right of the edge is 1 − (mean x − column).
            let right = m &* ((xl - start) &+ (xr - start))
            cells[cl] &+= direction &* (512 &* m &- right)
            cells[cl + 1] &+= direction &* right
            markTouched(bandRow: bandRow, cl, cl + 1)
            return
        }
        let cr = Int(xr >> Self.subpixelShift)
        let k = edge.perColumn
        let a = Int64(256 - (xl & 255)), fr = Int64(xr & 255)
        let area = 512 &* m
        let first = min(Int32(truncatingIfNeeded: (k &* a &* a) >> 33), area)         // column cl
        let missing = min(Int32(truncatingIfNeeded: (k &* fr &* fr) >> 33), area)     // what column cr lacks
        cells[cl] &+= direction &* first
        if cr == cl + 1 {
            cells[cr] &+= direction &* (area &- first &- missing)
        } else {
            // Column c's area, times 2³², as a running sum: from column cl + 1 on, each column
            // fully crossed adds k · 2¹⁶.
            var sum = k &* (256 &* a &+ 32768)
            let step = k << 16
            var previous = first
            for c in (cl + 1)..<cr {
                let value = Int32(truncatingIfNeeded: sum >> 32)
                cells[c] &+= direction &* (value &- previous)
                previous = value
                sum &+= step
            }
            cells[cr] &+= direction &* (area &- missing &- previous)
        }
        cells[cr + 1] &+= direction &* missing
        markTouched(bandRow: bandRow, cl, cr + 1)
    }

    /// Sets the touched bits of canvas columns `c0 ... c1` in row `bandRow` of the band.
    @inline(__always)
    func markTouched(bandRow: Int, _ c0: Int, _ c1: Int) {
        let x0 = c0 &- colFirst, x1 = c1 &- colFirst
        let w0 = x0 >> 6, w1 = x1 >> 6
        let words = touched + bandRow &* wordsPerRow
        let first = Int32(truncatingIfNeeded: w0), last = Int32(truncatingIfNeeded: w1)
        if first < rowFirstWord[bandRow] { rowFirstWord[bandRow] = first }
        if last > rowLastWord[bandRow] { rowLastWord[bandRow] = last }
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
