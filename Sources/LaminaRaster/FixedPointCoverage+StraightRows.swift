import CLaminaKernels

/// Rows where a shape is two vertical edges and nothing else: a rectangle's or a rounded
/// rectangle's sides between its corners, the commonest rows a layer tree fills. Every such
/// row has the same coverage, known from the two edges' columns alone, so the fast core takes
/// those rows out of the edges before the bands and fills them straight from the sums the
/// deposits and the sweep would have made (decision 159): no cells, bits or prefix sums.
extension FixedPointCoverage {
    /// Canvas rows `rows` where the shape is the vertical edges at subpixel columns
    /// `left < right` alone, the left one going `direction` (the right one the other way).
    struct StraightRows {
        let rows: Range<Int>
        let left: Int32, right: Int32
        let direction: Int32
    }

    /// The fewest rows worth taking apart (below it the split costs more than it saves).
    static let minimumStraightRows = 4

    /// Finds the straight rows of the edges set up (rows `cy0 ..< cy1` drawn) and cuts them
    /// out of the two vertical edges, so the bands deposit nothing there; nil (the edges as
    /// they were) when the shape has no such rows, or other than two vertical edges.
    func takeStraightRows(cy0: Int, cy1: Int) -> StraightRows? {
        var first = -1, second = -1
        for index in 0..<edgeCount where edges[index].x0 == edges[index].x1 {
            if first < 0 { first = index } else if second < 0 { second = index } else { return nil }
        }
        guard second >= 0 else { return nil }
        let a = edges[first], b = edges[second]
        // Opposite directions: the winding between them is ±1 and zero outside (the sums close).
        guard a.direction == -b.direction, a.x0 != b.x0 else { return nil }
        var top = max(a.y0, b.y0), bottom = min(a.y1, b.y1)
        guard top < bottom else { return nil }
        // Every other edge overlapping the stretch is cut off it from the side losing less.
        for index in 0..<edgeCount where index != first && index != second {
            let e = edges[index]
            guard e.y1 > top && e.y0 < bottom else { continue }
            if e.y1 - top <= bottom - e.y0 { top = e.y1 } else { bottom = e.y0 }
            guard top < bottom else { return nil }
        }
        // Whole rows only (a row partly outside has other coverage), within the rows drawn.
        let firstRow = max(Int((top + 255) >> Self.subpixelShift), cy0), endRow = min(Int(bottom >> Self.subpixelShift), cy1)
        guard endRow - firstRow >= Self.minimumStraightRows else { return nil }
        let rows = firstRow..<endRow
        let (left, right) = a.x0 < b.x0 ? (a, b) : (b, a)
        // The higher index first: removing it can move only an edge after it.
        cutOut(rows, ofEdgeAt: second)
        cutOut(rows, ofEdgeAt: first)
        return StraightRows(rows: rows, left: left.x0, right: right.x0, direction: left.direction)
    }

    /// Leaves the vertical edge at `index` above and below canvas rows `rows` only: the part
    /// above in its place and the part below appended (or in its place when nothing is above),
    /// or the edge removed when it lies within them. A vertical edge's rows depend on its
    /// column and their own heights alone, so the parts deposit what the whole did there.
    private func cutOut(_ rows: Range<Int>, ofEdgeAt index: Int) {
        let edge = edges[index]
        let cutTop = Int32(rows.lowerBound) << Self.subpixelShift, cutBottom = Int32(rows.upperBound) << Self.subpixelShift
        var above = edge, below = edge
        above.y1 = min(edge.y1, cutTop)
        below.y0 = max(edge.y0, cutBottom)
        let keepsAbove = above.y0 < above.y1, keepsBelow = below.y0 < below.y1
        switch (keepsAbove, keepsBelow) {
        case (true, true):
            if edgeCount == edgeCapacity { growEdges(keeping: edgeCount) }
            edges[index] = above
            edges[edgeCount] = below
            edgeCount += 1
        case (true, false): edges[index] = above
        case (false, true): edges[index] = below
        case (false, false):
            edgeCount -= 1
            edges[index] = edges[edgeCount]
        }
    }

    /// Fills the straight rows with what the bands would: each row's cells as the two edges'
    /// deposits of a whole row leave them, summed from the left, within columns `output`.
    /// Left of the left edge's column the sum is zero; at it, its first deposit; then its
    /// whole winding up to the right edge's column (a run); there, less the right edge's
    /// first deposit; and zero again after its second. Edges in one column make one pixel.
    func fillStraightRows<Sink: SpanSink, Rule: FixedPointRule>(
        _ straight: StraightRows, output: (x0: Int, x1: Int), rule: Rule, into sink: inout Sink
    ) {
        // A whole row of a vertical edge at column c + f/256 going d: d·256·(512 − 2f) into
        // column c, d·256·2f into c + 1 (lamina_deposit.c), the right edge's negated.
        let m = straight.direction &* (1 << Self.subpixelShift)
        let leftColumn = Int(straight.left >> Self.subpixelShift), rightColumn = Int(straight.right >> Self.subpixelShift)
        let leftFirst = m &* (512 - 2 * (straight.left & 255))
        let rightFirst = 0 &- m &* (512 - 2 * (straight.right & 255))
        let winding = m &* 512
        let inside = { (x: Int) in x >= output.x0 && x < output.x1 }
        // The edge pixels (x, sum) and the run between (sum `winding`).
        let left = (x: leftColumn, sum: rightColumn == leftColumn ? leftFirst &+ rightFirst : leftFirst)
        let right = (x: rightColumn, sum: rightColumn == leftColumn ? 0 : winding &+ rightFirst)
        let runStart = max(leftColumn + 1, output.x0)
        let run = runStart..<max(min(rightColumn, output.x1), runStart)
        if let solid = sink as? SolidColorSink, solid.mask == nil, Rule.self == NonZeroRule.self {
            // The commonest case in C, as the sweep's.
            let leftAlpha = inside(left.x) ? rule.alpha(left.sum) : 0, rightAlpha = inside(right.x) ? rule.alpha(right.sum) : 0
            var rows = lamina_straight_rows(
                y0: straight.rows.lowerBound, rows: straight.rows.count, pixels: solid.base, stride: solid.stride,
                color: solid.color, level: solid.level.kernels,
                left_x: leftAlpha != 0 ? left.x : output.x0, right_x: rightAlpha != 0 ? right.x : output.x0,
                left_alpha: leftAlpha, right_alpha: rightAlpha,
                run_x0: run.lowerBound, run_x1: run.upperBound, run_alpha: rule.alpha(winding))
            lamina_fill_straight_rows(&rows)
            return
        }
        // As the sweep hands them on: in 8 bits when the sink takes them so, else any coverage above zero.
        let edgePixels = [left, right].filter {
            inside($0.x) && (Sink.takesAlpha ? rule.alpha($0.sum) != 0 : rule.coverage($0.sum) > 0)
        }
        let runCoverage = rule.coverage(winding)
        for y in straight.rows {
            for p in edgePixels {
                if Sink.takesAlpha {
                    sink.pixel(x: p.x, y: y, alpha: rule.alpha(p.sum))
                } else {
                    sink.pixel(x: p.x, y: y, coverage: rule.coverage(p.sum))
                }
            }
            if !run.isEmpty { sink.run(x0: run.lowerBound, x1: run.upperBound, y: y, coverage: runCoverage) }
        }
    }
}
