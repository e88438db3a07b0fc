import CLaminaKernels
import LaminaGeometry

/// The fast coverage core behind `CoverageRasterizer.rasterizeSpans` (decision 115): the
/// reference's exact-area model on edges rounded to 24.8 fixed point, accumulated in integers
/// one band of rows at a time.
///
/// - Edges are set up once per segment: end points rounded to 1/256 px, split where they leave
///   the canvas columns, clipped to the rows drawn, dropped wholly right of the columns drawn,
///   and filed under the band where they start, so the bands above and below a shape and the
///   columns right of a clip cost nothing.
/// - A band is as many rows (a power of two, 1 to 64) as keep its cells within 128 KiB, in L2.
///   Each edge deposits, row by row, the exact area of its rounded self into `Int32` cells
///   (`LAMINA_FULL_COVERAGE` for a pixel covered once), as differences along the row; the
///   cells of one row add up to exactly its signed height, so the interior is exact.
/// - The sweep turns a band's touched cells into coverage with an integer prefix sum (a vector
///   kernel and its scalar twin, equal bit for bit since integer sums do not depend on their
///   order) and hands the stretches between them on as constant runs.
final class FixedPointCoverage {
    /// Subpixels per pixel, as a shift: 24.8 fixed point.
    static let subpixelShift: Int32 = 8
    /// The cells' value for a pixel covered once (2 · 256 · 256).
    static let fullCoverage = Int32(LAMINA_FULL_COVERAGE)
    /// The cell budget of one band: 128 KiB of `Int32` (32 KiB, in L1, measured slower: more bands).
    static let bandCells = 32768
    /// The most rows a band has.
    static let maximumBandRows = 64

    /// One edge, top to bottom, in subpixels (C's, so the deposits read it in place).
    typealias Edge = lamina_edge

    let width: Int, height: Int
    var edges: UnsafeMutablePointer<Edge>
    var edgeCapacity = 256
    var edgeCount = 0
    /// The edges sorted by the band they start in, and those carried into the next band.
    var sorted: UnsafeMutablePointer<Edge>
    var active: UnsafeMutablePointer<Edge>
    /// Per band, where its edges start in `sorted` (one more entry: the end).
    var bandStarts: UnsafeMutablePointer<Int32>
    var bandCapacity = 64
    /// The current band's cells, `bandRows × rowLength`, all zero between bands.
    var cells: UnsafeMutablePointer<Int32>
    var cellCapacity = FixedPointCoverage.bandCells
    /// One bit per cell of the band: set where a deposit touched it, so the sweep visits only those.
    var touched: UnsafeMutablePointer<UInt64>
    var touchedCapacity = 256
    /// Per band row, the first and last touched bitmap words (first > last: none).
    var rowFirstWord: UnsafeMutablePointer<Int32>
    var rowLastWord: UnsafeMutablePointer<Int32>
    /// The coverage of one span of the sweep (at most one bitmap word's 64 cells).
    let spanCoverage: UnsafeMutablePointer<Float>

    /// The box of the current shape: columns `colFirst ..< colFirst + rowLength`, rows
    /// `rowFirst ..< rowEnd`, in bands of `1 << bandShift` rows.
    var colFirst = 0, rowLength = 0, wordsPerRow = 0
    var rowFirst = 0, rowEnd = 0, bandShift = 0
    /// Whether straight rows are filled apart from the bands (decision 159); false only in
    /// the tests that hold them to the bands' pixels.
    var takesStraightRows = true
    /// How many rows this core has filled straight so far (for the tests).
    private(set) var straightRowsFilled = 0
    /// Rows outside the clip get no deposits, nor edges right of it (in subpixels).
    var clipTop: Int32 = 0, clipBottom: Int32 = 0, clipRight: Int32 = 0

    /// The largest side 24.8 fixed point in `Int32` holds with room for the box `reach` px
    /// around the canvas; `CoverageRasterizer` draws anything larger with the reference.
    static let maximumSide = 1 << 22

    /// How far around the canvas a polygon's points may lie and its edges still be set up
    /// directly (px), not clipped to the canvas first: a stroke or shape partly off screen,
    /// as a quarter of W4's strokes are, was set up twice. The box's subpixels, and the
    /// differences of any two, stay within `Int32` for a canvas of `maximumSide`:
    /// (2²² + 2·2²⁰)·256 < 2³¹.
    static let reach = 1 << 20

    init(width: Int, height: Int) {
        precondition(width <= Self.maximumSide && height <= Self.maximumSide, "24.8 fixed point holds at most 4 M pixels a side")
        self.width = width
        self.height = height
        edges = .allocate(capacity: edgeCapacity)
        sorted = .allocate(capacity: edgeCapacity)
        active = .allocate(capacity: edgeCapacity)
        bandStarts = .allocate(capacity: bandCapacity + 1)
        cells = .allocate(capacity: cellCapacity)
        cells.initialize(repeating: 0, count: cellCapacity)
        touched = .allocate(capacity: touchedCapacity)
        touched.initialize(repeating: 0, count: touchedCapacity)
        rowFirstWord = .allocate(capacity: Self.maximumBandRows)
        rowFirstWord.initialize(repeating: Int32.max, count: Self.maximumBandRows)
        rowLastWord = .allocate(capacity: Self.maximumBandRows)
        rowLastWord.initialize(repeating: -1, count: Self.maximumBandRows)
        spanCoverage = .allocate(capacity: 64)
        spanCoverage.initialize(repeating: 0, count: 64)
    }

    deinit {
        edges.deallocate()
        sorted.deallocate()
        active.deallocate()
        bandStarts.deallocate()
        cells.deallocate()
        touched.deallocate()
        rowFirstWord.deallocate()
        rowLastWord.deallocate()
        spanCoverage.deallocate()
    }

    /// Scan-converts `polygons` (device pixels) into `sink`, clipped to the pixel rectangle
    /// `[cx0, cx1) × [cy0, cy1)` (already within the canvas and not empty). A shape with a
    /// point that is not finite is culled.
    func rasterize<Sink: SpanSink, Rule: FixedPointRule>(
        _ polygons: [[Point]], rule: Rule, cx0: Int, cy0: Int, cx1: Int, cy1: Int, into sink: inout Sink
    ) {
        clipTop = Int32(cy0) << Self.subpixelShift
        clipBottom = Int32(cy1) << Self.subpixelShift
        clipRight = Int32(cx1) << Self.subpixelShift
        var builder = EdgeBuilder(self)
        for polygon in polygons {
            guard builder.addEdges(of: polygon) else { return }
        }
        edgeCount = builder.count
        guard edgeCount > 0 else { return }
        let straight = takesStraightRows ? takeStraightRows(cy0: cy0, cy1: cy1) : nil
        // Columns the deposits can touch: a row's last deposit goes one cell right of its edge.
        colFirst = Int(builder.minX >> Self.subpixelShift)
        // An edge dropped right of the clip leaves the rows' sums open up to the clip's side.
        let colEnd = max(Int(builder.maxX >> Self.subpixelShift) + 2, builder.droppedRight ? cx1 : 0)
        rowFirst = Int(builder.minY >> Self.subpixelShift)
        rowEnd = Int((builder.maxY + 255) >> Self.subpixelShift)
        rowLength = colEnd - colFirst
        wordsPerRow = (rowLength + 63) >> 6
        bandShift = 0
        while 1 << (bandShift + 1) <= Self.maximumBandRows && rowLength << (bandShift + 1) <= Self.bandCells {
            bandShift += 1
        }
        let bandCount = (rowEnd - rowFirst + (1 << bandShift) - 1) >> bandShift
        reserveBands(count: bandCount, rows: 1 << bandShift)
        // One band: the edges as set up. More: sorted by band, each band's run then read in order.
        let byBand = bandCount == 1 ? edges : sortEdgesByBand(count: bandCount)
        let output = (x0: max(colFirst, cx0), x1: min(colEnd, cx1))
        var band = self.band
        var carried = 0
        for bandIndex in 0..<bandCount {
            let top = rowFirst + bandIndex << bandShift, bottom = min(top + 1 << bandShift, rowEnd)
            let bandBottom = Int32(bottom) << Self.subpixelShift
            // Edges from bands above first, then those starting here; those going on are carried.
            var kept = lamina_deposit_edges(&band, active, carried, top, bandBottom, active)
            let starts = bandCount == 1 ? 0..<edgeCount
                : Int(bandStarts[bandIndex])..<Int(bandStarts[bandIndex + 1])
            kept += lamina_deposit_edges(&band, byBand + starts.lowerBound, starts.count, top, bandBottom,
                                         active + kept)
            carried = kept
            sweep(rows: top..<bottom, output: output, rule: rule, into: &sink)
        }
        if let straight {
            fillStraightRows(straight, output: output, rule: rule, into: &sink)
            straightRowsFilled += straight.rows.count
        }
    }

    /// The current shape's band storage, as the C deposits and sweep take it.
    var band: lamina_band {
        lamina_band(cells: cells, touched: touched, row_first_word: rowFirstWord, row_last_word: rowLastWord,
                    col_first: colFirst, row_length: rowLength, words_per_row: wordsPerRow)
    }

    /// Doubles the edge storage, keeping the first `count` edges.
    func growEdges(keeping count: Int) {
        let grown = UnsafeMutablePointer<Edge>.allocate(capacity: edgeCapacity * 2)
        grown.moveInitialize(from: edges, count: count)
        edges.deallocate()
        edges = grown
        sorted.deallocate()
        active.deallocate()
        edgeCapacity *= 2
        sorted = .allocate(capacity: edgeCapacity)
        active = .allocate(capacity: edgeCapacity)
    }

    /// Grows the band storage to `count` bands of `rows` rows of the current row length.
    private func reserveBands(count: Int, rows: Int) {
        if count > bandCapacity {
            bandStarts.deallocate()
            bandCapacity = max(count, bandCapacity * 2)
            bandStarts = .allocate(capacity: bandCapacity + 1)
        }
        let cellCount = rows * rowLength
        if cellCount > cellCapacity {     // only a row wider than the budget
            cells.deallocate()
            cellCapacity = max(cellCount, cellCapacity * 2)
            cells = .allocate(capacity: cellCapacity)
            cells.initialize(repeating: 0, count: cellCapacity)
        }
        let wordCount = rows * wordsPerRow
        if wordCount > touchedCapacity {
            touched.deallocate()
            touchedCapacity = max(wordCount, touchedCapacity * 2)
            touched = .allocate(capacity: touchedCapacity)
            touched.initialize(repeating: 0, count: touchedCapacity)
        }
    }

    /// Sorts the edges by the band holding their first row drawn (a counting sort, stable)
    /// into `sorted`, and the bands' starts into `bandStarts` (`lamina_sort_edges_by_band`:
    /// the Swift loop read the class's pointers again after every store through them).
    private func sortEdgesByBand(count: Int) -> UnsafeMutablePointer<Edge> {
        assert((0..<edgeCount).allSatisfy { index in
            let band = (Int(max(edges[index].y0, clipTop) >> Self.subpixelShift) - rowFirst) >> bandShift
            return band >= 0 && band < count
        }, "an edge outside the bands, which hold rows \(rowFirst)..<\(rowEnd)")
        lamina_sort_edges_by_band(edges, edgeCount, sorted, bandStarts, count, clipTop, rowFirst, Int32(bandShift))
        return sorted
    }
}
