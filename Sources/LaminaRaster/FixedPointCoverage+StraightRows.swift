import CLaminaKernels

/// Rows where a shape is vertical edges and nothing else: a rectangle's or a rounded
/// rectangle's sides between its corners (the commonest rows a layer tree fills), a border's
/// four sides, bars side by side. Every such row has the same coverage, known from the edges'
/// columns alone, so the fast core takes those rows out of the edges before the bands and
/// fills them straight from the sums the deposits and the sweep would have made (decision
/// 159): no cells, bits or prefix sums.
extension FixedPointCoverage {
    /// Canvas rows `rows` where the shape is the vertical edges `sides` alone (subpixel
    /// column and direction, left to right).
    struct StraightRows {
        let rows: Range<Int>
        let sides: [(x: Int32, direction: Int32)]
    }

    /// The fewest rows worth taking apart (below it the split costs more than it saves).
    static let minimumStraightRows = 4
    /// The most vertical edges looked at (more is no rectangle-like shape).
    static let maximumStraightSides = 8

    /// Finds the straight rows of the edges set up (rows `cy0 ..< cy1` drawn) and cuts them
    /// out of the vertical edges, so the bands deposit nothing there; nil (the edges as they
    /// were) when the shape has no such rows.
    func takeStraightRows(cy0: Int, cy1: Int) -> StraightRows? {
        withUnsafeTemporaryAllocation(of: Int.self, capacity: Self.maximumStraightSides) { vertical in
            takeStraightRows(cy0: cy0, cy1: cy1, vertical: vertical)
        }
    }

    /// `takeStraightRows` with room for the vertical edges' indices (no allocation for a shape
    /// without straight rows).
    private func takeStraightRows(cy0: Int, cy1: Int, vertical: UnsafeMutableBufferPointer<Int>) -> StraightRows? {
        var count = 0, windings: Int32 = 0
        var top = Int32.min, bottom = Int32.max
        for index in 0..<edgeCount where edges[index].x0 == edges[index].x1 {
            guard count < vertical.count else { return nil }
            vertical[count] = index
            count += 1
            windings += edges[index].direction
            top = max(top, edges[index].y0)
            bottom = min(bottom, edges[index].y1)
        }
        // The sums close only over an even count whose directions cancel.
        guard count >= 2, count % 2 == 0, windings == 0, top < bottom else { return nil }
        // Every other edge overlapping the stretch is cut off it from the side losing less.
        var next = 0    // the next vertical edge's place in `vertical` (they are in index order)
        for index in 0..<edgeCount {
            if next < count && vertical[next] == index {
                next += 1
                continue
            }
            let e = edges[index]
            guard e.y1 > top && e.y0 < bottom else { continue }
            if e.y1 - top <= bottom - e.y0 { top = e.y1 } else { bottom = e.y0 }
            guard top < bottom else { return nil }
        }
        // Whole rows only (a row partly outside has other coverage), within the rows drawn.
        let firstRow = max(Int((top + 255) >> Self.subpixelShift), cy0), endRow = min(Int(bottom >> Self.subpixelShift), cy1)
        guard endRow - firstRow >= Self.minimumStraightRows else { return nil }
        let rows = firstRow..<endRow
        var sides = vertical[0..<count].map { (x: edges[$0].x0, direction: edges[$0].direction) }
        sides.sort { $0.x < $1.x }
        // The higher indices first: removing one can move only an edge after it.
        for index in vertical[0..<count].reversed() { cutOut(rows, ofEdgeAt: index) }
        return StraightRows(rows: rows, sides: sides)
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
        // A part is kept only where it reaches into the rows drawn: cut at the clip's top or
        // bottom, the part beyond deposits nothing, and the bands are laid out for the rows
        // drawn alone (a part starting at the clip's bottom fell past the last band).
        let keepsAbove = above.y0 < above.y1 && above.y1 > clipTop
        let keepsBelow = below.y0 < below.y1 && below.y0 < clipBottom
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

    /// Fills the straight rows with what the bands would: each row's cells as the edges'
    /// deposits of a whole row leave them, summed from the left, within columns `output`.
    func fillStraightRows<Sink: SpanSink, Rule: FixedPointRule>(
        _ straight: StraightRows, output: (x0: Int, x1: Int), rule: Rule, into sink: inout Sink
    ) {
        if straight.sides.count == 2, let solid = sink as? SolidColorSink, solid.mask == nil, Rule.self == NonZeroRule.self {
            fillTwoSides(straight, output: output, NonZeroRule(), solid)
            return
        }
        // A whole row of a vertical edge at column c + f/256 going d: d·256·(512 − 2f) into
        // column c, d·256·2f into c + 1 (lamina_deposit.c). Each deposit's column is a pixel
        // of the sum so far, the stretch up to the next deposit's column a run of it.
        var deposits: [(column: Int, value: Int32)] = []
        for side in straight.sides {
            let m = side.direction &* (1 << Self.subpixelShift), twice = 2 * (side.x & 255)
            let column = Int(side.x >> Self.subpixelShift)
            deposits.append((column, m &* (512 - twice)))
            deposits.append((column + 1, m &* twice))
        }
        deposits.sort { $0.column < $1.column }    // a column's sum does not depend on its deposits' order
        var pixels: [(x: Int, sum: Int32)] = [], runs: [(x0: Int, x1: Int, coverage: Float)] = []
        var sum: Int32 = 0
        for (i, deposit) in deposits.enumerated() {
            sum &+= deposit.value
            if i + 1 < deposits.count && deposits[i + 1].column == deposit.column { continue }
            let inside = deposit.column >= output.x0 && deposit.column < output.x1
            // As the sweep hands them on: in 8 bits when the sink takes them so, else any coverage above zero.
            if inside && (Sink.takesAlpha ? rule.alpha(sum) != 0 : rule.coverage(sum) > 0) {
                pixels.append((deposit.column, sum))
            }
            let end = i + 1 < deposits.count ? deposits[i + 1].column : deposit.column + 1
            let x0 = max(deposit.column + 1, output.x0), x1 = min(end, output.x1), coverage = rule.coverage(sum)
            if x0 < x1 && coverage > 0 { runs.append((x0, x1, coverage)) }
        }
        for y in straight.rows {
            for p in pixels {
                if Sink.takesAlpha {
                    sink.pixel(x: p.x, y: y, alpha: rule.alpha(p.sum))
                } else {
                    sink.pixel(x: p.x, y: y, coverage: rule.coverage(p.sum))
                }
            }
            for run in runs { sink.run(x0: run.x0, x1: run.x1, y: y, coverage: run.coverage) }
        }
    }

    /// The commonest case, two sides in a solid colour with no clip mask, in C as the sweep's:
    /// left of the left edge's column the sum is zero; at it, its first deposit; then its whole
    /// winding up to the right edge's column (a run); there, less the right edge's first
    /// deposit; and zero again after its second. Edges in one column make one pixel.
    /// Its own formula rather than the general walk's pixels and runs handed to C as a list:
    /// that list (the side's second column a pixel of its own) cost W3 40.2 M instructions a
    /// frame against this path's 34.8 M.
    private func fillTwoSides(_ straight: StraightRows, output: (x0: Int, x1: Int), _ rule: NonZeroRule,
                              _ solid: SolidColorSink) {
        let (leftSide, rightSide) = (straight.sides[0], straight.sides[1])
        let m = leftSide.direction &* (1 << Self.subpixelShift)
        let leftColumn = Int(leftSide.x >> Self.subpixelShift), rightColumn = Int(rightSide.x >> Self.subpixelShift)
        let leftFirst = m &* (512 - 2 * (leftSide.x & 255))
        let rightFirst = 0 &- m &* (512 - 2 * (rightSide.x & 255))
        let winding = m &* 512
        let inside = { (x: Int) in x >= output.x0 && x < output.x1 }
        // The edge pixels (x, sum) and the run between (sum `winding`).
        let left = (x: leftColumn, sum: rightColumn == leftColumn ? leftFirst &+ rightFirst : leftFirst)
        let right = (x: rightColumn, sum: rightColumn == leftColumn ? 0 : winding &+ rightFirst)
        let runStart = max(leftColumn + 1, output.x0)
        let runEnd = max(min(rightColumn, output.x1), runStart)
        let leftAlpha = inside(left.x) ? rule.alpha(left.sum) : 0, rightAlpha = inside(right.x) ? rule.alpha(right.sum) : 0
        var rows = lamina_straight_rows(
            y0: straight.rows.lowerBound, rows: straight.rows.count, pixels: solid.base, stride: solid.stride,
            color: solid.color, level: solid.level.kernels,
            left_x: leftAlpha != 0 ? left.x : output.x0, right_x: rightAlpha != 0 ? right.x : output.x0,
            left_alpha: leftAlpha, right_alpha: rightAlpha,
            run_x0: runStart, run_x1: runEnd, run_alpha: rule.alpha(winding))
        lamina_fill_straight_rows(&rows)
    }
}
