import CLaminaKernels

/// The sweep: a band's touched cells into coverage, the stretches between them as runs.
extension FixedPointCoverage {
    /// Sweeps the band rows `rows` (canvas rows; the band's first is band row 0), emitting
    /// columns `output.x0 ..< output.x1` only, and leaves the band's cells and bits all zero.
    func sweep<Sink: SpanSink, Rule: FixedPointRule>(
        rows: Range<Int>, output: (x0: Int, x1: Int), rule: Rule, into sink: inout Sink
    ) {
        // The commonest case in C (both type checks fold away once specialized).
        if Rule.self == NonZeroRule.self, let solid = sink as? SolidColorSink, solid.mask == nil {
            sweepSolidNonZero(rows: rows, output: output, solid)
            return
        }
        // Locals for the fields read per row: stores through the pixel pointers may alias
        // anything reached through memory, so the compiler would reload them on every pixel.
        let cells = self.cells - colFirst, spanCoverage = self.spanCoverage
        let colFirst = self.colFirst, rowLength = self.rowLength, wordsPerRow = self.wordsPerRow
        let touched = self.touched, rowFirstWord = self.rowFirstWord, rowLastWord = self.rowLastWord
        let colEnd = colFirst + rowLength
        // Warm the destination of each row's first and last edge pixels two rows ahead: thin
        // shapes are all edge pixels, each on a cold cache line otherwise (runs between them
        // stream, which the hardware prefetcher sees by itself).
        func prefetch(_ local: Int) {
            let first = Int(rowFirstWord[local]), last = Int(rowLastWord[local])
            guard first <= last else { return }
            let words = touched + local * wordsPerRow
            let x0 = colFirst + first << 6 + words[first].trailingZeroBitCount
            let x1 = colFirst + last << 6 + 63 - words[last].leadingZeroBitCount
            sink.prefetch(x: min(x0, output.x1 - 1), y: rows.lowerBound + local)
            sink.prefetch(x: min(x1, output.x1 - 1), y: rows.lowerBound + local)
        }
        for local in 0..<min(2, rows.count) { prefetch(local) }
        for y in rows {
            let local = y - rows.lowerBound
            let base = cells + local * rowLength
            let words = touched + local * wordsPerRow
            let firstWord = Int(rowFirstWord[local]), lastWord = Int(rowLastWord[local])
            if local + 2 < rows.count { prefetch(local + 2) }
            guard firstWord <= lastWord else { continue }    // untouched row: no coverage
            rowFirstWord[local] = Int32.max
            rowLastWord[local] = -1
            var sum: Int32 = 0
            var next = colFirst                                 // first column not yet emitted
            for w in firstWord...lastWord {
                let bits = words[w]
                if bits == 0 { continue }
                words[w] = 0
                // The word's first to last touched cell, as one span of per-pixel coverage
                // (cells between touched ones are zero, so they carry the sum unchanged).
                let first = colFirst + w << 6 + bits.trailingZeroBitCount
                let end = colFirst + w << 6 + 64 - bits.leadingZeroBitCount
                if first > next { emitRun(next, first, y, rule.coverage(sum), output, &sink) }
                if Sink.takesAlpha && end - first < 8 {
                    // A short stretch (an edge's few pixels): cell, sum, 8-bit coverage, blend.
                    for x in first..<end {
                        sum &+= base[x]
                        base[x] = 0
                        let m = rule.alpha(sum)
                        if m != 0 && x >= output.x0 && x < output.x1 { sink.pixel(x: x, y: y, alpha: m) }
                    }
                } else {
                    sum = rule.sweep(base + first, into: spanCoverage, count: end - first, from: sum)
                    let a = max(first, output.x0), b = min(end, output.x1)
                    if a < b { sink.span(x0: a, y: y, coverage: spanCoverage + (a - first), count: b - a) }
                }
                next = end
            }
            if next < colEnd { emitRun(next, colEnd, y, rule.coverage(sum), output, &sink) }
        }
    }

    /// `sweep` for a solid colour under the non-zero rule with no clip mask, by
    /// `lamina_sweep_solid_nonzero`: the same pixels, bit for bit.
    private func sweepSolidNonZero(rows: Range<Int>, output: (x0: Int, x1: Int), _ sink: SolidColorSink) {
        var band = lamina_solid_sweep(
            band: band,
            out_x0: output.x0, out_x1: output.x1, y0: rows.lowerBound, rows: rows.count,
            pixels: sink.base, stride: sink.stride, color: sink.color, level: sink.level.kernels)
        lamina_sweep_solid_nonzero(&band)
    }

    @inline(__always)
    private func emitRun<Sink: SpanSink>(_ x0: Int, _ x1: Int, _ y: Int, _ c: Float, _ output: (x0: Int, x1: Int),
                                         _ sink: inout Sink) {
        guard c > 0 else { return }
        let a = max(x0, output.x0), b = min(x1, output.x1)
        if a < b { sink.run(x0: a, x1: b, y: y, coverage: c) }
    }
}
