import LaminaGeometry

extension FixedPointCoverage {
    /// Sets up the edges of one shape: end points rounded to 1/256 px, edges split where they
    /// leave the canvas columns and dropped where they miss the rows drawn or lie wholly right
    /// of the columns drawn. Its count and the extent stay in locals while the points stream
    /// through; it writes only edge records.
    struct EdgeBuilder {
        private unowned let owner: FixedPointCoverage
        private var edges: UnsafeMutablePointer<Edge>
        private var capacity: Int
        private(set) var count = 0
        /// The extent of the edges kept: subpixel x, and y clipped to the rows drawn.
        private(set) var minX = Int32.max, maxX = Int32.min, minY = Int32.max, maxY = Int32.min
        /// Whether an edge was dropped for lying right of the columns drawn: its cells would
        /// all be right of them (a row's deposits never go left of its edge), so no pixel drawn
        /// changes, but the rows' sums no longer close, and the run after a row's last kept
        /// edge must then reach the clip's right side.
        private(set) var droppedRight = false
        private let clipTop: Int32, clipBottom: Int32, clipRight: Int32, right: Int32
        /// The box the edges are set up from directly, `reach` px around the canvas.
        private let reachX0: Double, reachY0: Double, reachX1: Double, reachY1: Double

        init(_ owner: FixedPointCoverage) {
            self.owner = owner
            edges = owner.edges
            capacity = owner.edgeCapacity
            clipTop = owner.clipTop
            clipBottom = owner.clipBottom
            clipRight = owner.clipRight
            right = Int32(owner.width) << FixedPointCoverage.subpixelShift
            let reach = Double(FixedPointCoverage.reach)
            reachX0 = -reach
            reachY0 = -reach
            reachX1 = Double(owner.width) + reach
            reachY1 = Double(owner.height) + reach
        }

        /// 1/256 px, rounded to nearest (ties to even).
        @inline(__always)
        private static func subpixels(_ v: Double) -> Int32 { roundedInt32(v * 256) }

        /// Adds every edge of one closed polygon; false when a point is not finite (the shape
        /// is culled). A polygon within `FixedPointCoverage.reach` px of the canvas is set up
        /// directly: edges above or below the rows drawn are dropped, and the parts left or
        /// right of the canvas clamped or dropped (`addSplitEdge`). One reaching farther is
        /// clipped to the box one pixel around the canvas first (decision 86): the winding
        /// inside it is unchanged, and every coordinate is then canvas-sized, so a vertex at
        /// 1e19 costs nothing.
        mutating func addEdges(of polygon: [Point]) -> Bool {
            let start = count
            let withinReach = polygon.withUnsafeBufferPointer { points -> Bool in
                guard let last = points.last else { return true }
                guard last.x >= reachX0 && last.x <= reachX1 && last.y >= reachY0 && last.y <= reachY1 else { return false }
                var previous = (x: Self.subpixels(last.x), y: Self.subpixels(last.y))
                for p in points {
                    // Written so NaN fails too.
                    guard p.x >= reachX0 && p.x <= reachX1 && p.y >= reachY0 && p.y <= reachY1 else { return false }
                    let current = (x: Self.subpixels(p.x), y: Self.subpixels(p.y))
                    if current.y != previous.y { addSplitEdge(previous, current) }
                    previous = current
                }
                return true
            }
            if withinReach { return true }
            // Drop what this polygon added (the extent may stay wider: it is still in reach).
            count = start
            guard polygon.allSatisfy({ $0.x.isFinite && $0.y.isFinite }) else { return false }
            let box = (x0: -1.0, y0: -1.0, x1: Double(owner.width) + 1, y1: Double(owner.height) + 1)
            // The clipped polygon lies within the box: in reach, so this does not recurse again.
            guard let clipped = PolygonClipper.clip(polygon, to: box) else { return true }
            return addEdges(of: clipped)
        }

        /// One edge, split where it leaves the columns `[0, width]`: the part left of the
        /// canvas still covers every pixel to its right, so each part is added with x clamped.
        @inline(__always)
        private mutating func addSplitEdge(_ a: (x: Int32, y: Int32), _ b: (x: Int32, y: Int32)) {
            if a.x >= 0 && a.x <= right && b.x >= 0 && b.x <= right {
                addEdge(a, b)
            } else {
                addEdgeCrossingSides(a, b)
            }
        }

        private mutating func addEdgeCrossingSides(_ a: (x: Int32, y: Int32), _ b: (x: Int32, y: Int32)) {
            // Where the edge crosses x = boundary (strictly inside the edge), y rounded.
            func crossing(_ boundary: Int32) -> (x: Int32, y: Int32) {
                let t = Double(boundary - a.x) / Double(b.x - a.x)
                return (boundary, a.y + Int32((Double(b.y - a.y) * t).rounded()))
            }
            // Each part from the last cut on, x clamped (no array: many of a stroke's edges
            // past a side come here).
            var start = a
            func addPart(to end: (x: Int32, y: Int32)) {
                addEdge((min(max(start.x, 0), right), start.y), (min(max(end.x, 0), right), end.y))
                start = end
            }
            let crossesLeft = (a.x < 0) != (b.x < 0), crossesRight = (a.x > right) != (b.x > right)
            if a.x < b.x {
                if crossesLeft { addPart(to: crossing(0)) }
                if crossesRight { addPart(to: crossing(right)) }
            } else {
                if crossesRight { addPart(to: crossing(right)) }
                if crossesLeft { addPart(to: crossing(0)) }
            }
            addPart(to: b)
        }

        /// Adds one edge whose x lies within the canvas columns, if it reaches the rows drawn.
        @inline(__always)
        private mutating func addEdge(_ a: (x: Int32, y: Int32), _ b: (x: Int32, y: Int32)) {
            guard a.y != b.y else { return }
            let down = a.y < b.y
            let (top, bottom) = down ? (a, b) : (b, a)
            guard bottom.y > clipTop, top.y < clipBottom else { return }
            guard min(top.x, bottom.x) < clipRight else {
                droppedRight = true
                return
            }
            if count == capacity {
                owner.growEdges(keeping: count)
                edges = owner.edges
                capacity = owner.edgeCapacity
            }
            let dx = Double(bottom.x - top.x), dy = Double(bottom.y - top.y)
            // dx/dy and |dy/dx| from one division.
            let reciprocal = 1 / (dx * dy)
            // Past 2⁴² the edge is so steep that no row of it reaches a second column by more
            // than a subpixel, where the per-column deposit is not used at full size.
            let perColumn = dx == 0 ? 0 : Int64(min(8_589_934_592 * dy * dy * abs(reciprocal), 4_398_046_511_104))
            edges[count] = Edge(x0: top.x, y0: top.y, x1: bottom.x, y1: bottom.y, direction: down ? 1 : -1, band: 0,
                                slope: dx == 0 ? 0 : dx * dx * reciprocal, per_column: perColumn)
            count += 1
            minX = min(minX, min(top.x, bottom.x))
            maxX = max(maxX, max(top.x, bottom.x))
            minY = min(minY, max(top.y, clipTop))
            maxY = max(maxY, min(bottom.y, clipBottom))
        }
    }
}
