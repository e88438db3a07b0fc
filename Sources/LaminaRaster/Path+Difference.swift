import LaminaGeometry

extension Path {
    /// Rectangles outside which filling this path and filling `old` (either fill rule, at
    /// `tolerance`) cover every point the same, when the two are built alike: the same
    /// elements in the same order, only their points moved (a shape rebuilt every frame from
    /// animated control points). Nil when they are not built alike, or when either would be
    /// flattened coarser than `tolerance` (past `maximumFlattenedPoints`, where every
    /// curve's chords depend on the whole path): then anything may have changed.
    ///
    /// Why it holds: each sub-path is a closed loop once filled (an open one is closed by a
    /// line back to its start). Where its segments changed in a row (its run, taken round
    /// the loop), the old and the new run start and end at the same points, those of the
    /// unchanged segments around it, so the old run and the new one reversed make a closed
    /// loop of their own, and the winding number changes by that loop's winding number:
    /// zero outside the box of its points. A sub-path that changed whole is its old and new
    /// points' box. Each segment is flattened from its own points alone, so unchanged
    /// segments give the same chords, and the balanced chords stray at most ⁴⁄₃ of the
    /// tolerance outside a curve's box: each rectangle is grown by that.
    ///
    /// An empty array means the two fill the same.
    public func differingRegions(from old: Path, tolerance: Double = Path.defaultFlatteningTolerance) -> [Rect]? {
        guard elements.count == old.elements.count else { return nil }
        for (a, b) in zip(elements, old.elements) where !Self.sameKind(a, b) { return nil }
        guard flattenedPointCount(tolerance: tolerance) <= Path.maximumFlattenedPoints,
              old.flattenedPointCount(tolerance: tolerance) <= Path.maximumFlattenedPoints else { return nil }
        let new = segments, before = old.segments
        guard new.count == before.count else { return nil }
        let grow = 4.0 / 3 * tolerance.clamped(to: 1e-9...1e9, nanAs: Path.defaultFlatteningTolerance)
        var regions: [Rect] = []
        var first = 0
        while first < new.count {
            // One sub-path: segments first..<end share its loop.
            var end = first + 1
            while end < new.count, new[end].loop == new[first].loop { end += 1 }
            let changed = (first..<end).map { !new[$0].samePoints(as: before[$0]) }
            if let kept = changed.firstIndex(of: false) {
                // Runs of changed segments, taken round the loop from an unchanged one.
                let count = end - first
                var run: Rect?
                for step in 1...count {
                    let k = (kept + step) % count
                    if changed[k] {
                        let box = new[first + k].box.union(before[first + k].box)
                        run = run.map { $0.union(box) } ?? box
                    } else if let done = run {
                        regions.append(done.insetBy(dx: -grow, dy: -grow))
                        run = nil
                    }
                }
            } else if !changed.isEmpty {
                let box = (first..<end).reduce(new[first].box.union(before[first].box)) {
                    $0.union(new[$1].box).union(before[$1].box)
                }
                regions.append(box.insetBy(dx: -grow, dy: -grow))
            }
            first = end
        }
        return regions
    }

    /// One segment of the filled outline: the points that decide it, its start first (a
    /// line or a quadratic repeats its last point), and which sub-path's loop it belongs to.
    private struct Segment {
        var a, b, c, d: Point
        var loop: Int

        func samePoints(as other: Segment) -> Bool { a == other.a && b == other.b && c == other.c && d == other.d }

        var box: Rect { Path.box(a, b, c, d) }
    }

    /// The segments a fill draws, sub-path by sub-path, each open sub-path closed by a line
    /// back to its start as filling closes it (the same walk as `flattenedSubpaths`).
    private var segments: [Segment] {
        var result: [Segment] = []
        var current: Point?, start: Point?
        var loop = 0, open = false
        func closeLoop() {
            if open, let c = current, let s = start { result.append(Segment(a: c, b: s, c: s, d: s, loop: loop)) }
            open = false
            loop += 1
        }
        for e in elements {
            switch e {
            case .move(let p):
                closeLoop()
                current = p
                start = p
            case .line(let p):
                guard let c = current else { continue }
                result.append(Segment(a: c, b: p, c: p, d: p, loop: loop))
                current = p
                open = true
            case .quad(let q, let p):
                guard let c = current else { continue }
                result.append(Segment(a: c, b: q, c: p, d: p, loop: loop))
                current = p
                open = true
            case .cubic(let q1, let q2, let p):
                guard let c = current else { continue }
                result.append(Segment(a: c, b: q1, c: q2, d: p, loop: loop))
                current = p
                open = true
            case .close:
                closeLoop()
                current = start
            }
        }
        closeLoop()
        return result
    }

    private static func sameKind(_ a: Element, _ b: Element) -> Bool {
        switch (a, b) {
        case (.move, .move), (.line, .line), (.quad, .quad), (.cubic, .cubic), (.close, .close): return true
        default: return false
        }
    }
}
