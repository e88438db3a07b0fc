import CLaminaKernels
import LaminaGeometry

extension FixedPointCoverage {
    /// Sets up the edges of one shape: end points rounded to 1/256 px, edges split where they
    /// leave the canvas columns and dropped where they miss the rows drawn or lie wholly right
    /// of the columns drawn. The points of each polygon stream through
    /// `lamina_add_polygon_edges` (decision 164), which keeps the count and the extent in
    /// registers and writes only edge records.
    struct EdgeBuilder {
        private unowned let owner: FixedPointCoverage
        private var setup: lamina_edge_setup
        private var capacity: Int

        /// How many edges are set up.
        var count: Int { setup.count }
        /// The extent of the edges kept: subpixel x, and y clipped to the rows drawn.
        var minX: Int32 { setup.min_x }
        var maxX: Int32 { setup.max_x }
        var minY: Int32 { setup.min_y }
        var maxY: Int32 { setup.max_y }
        /// Whether an edge was dropped for lying right of the columns drawn: its cells would
        /// all be right of them (a row's deposits never go left of its edge), so no pixel drawn
        /// changes, but the rows' sums no longer close, and the run after a row's last kept
        /// edge must then reach the clip's right side.
        var droppedRight: Bool { setup.dropped_right != 0 }

        init(_ owner: FixedPointCoverage) {
            self.owner = owner
            capacity = owner.edgeCapacity
            // The box the edges are set up from directly, `reach` px around the canvas.
            let reach = Double(FixedPointCoverage.reach)
            setup = lamina_edge_setup(
                edges: owner.edges, count: 0, min_x: .max, max_x: .min, min_y: .max, max_y: .min, dropped_right: 0,
                clip_top: owner.clipTop, clip_bottom: owner.clipBottom, clip_right: owner.clipRight,
                right: Int32(owner.width) << FixedPointCoverage.subpixelShift,
                reach_x0: -reach, reach_y0: -reach, reach_x1: Double(owner.width) + reach,
                reach_y1: Double(owner.height) + reach)
        }

        /// Adds every edge of one closed polygon; false when a point is not finite (the shape
        /// is culled). A polygon within `FixedPointCoverage.reach` px of the canvas is set up
        /// directly: edges above or below the rows drawn are dropped, and the parts left or
        /// right of the canvas clamped or dropped. One reaching farther is clipped to the box
        /// one pixel around the canvas first (decision 86): the winding inside it is
        /// unchanged, and every coordinate is then canvas-sized, so a vertex at 1e19 costs
        /// nothing.
        mutating func addEdges(of polygon: [Point]) -> Bool {
            let start = setup.count
            // Room for every edge the polygon can make: one per point, each cut in up to
            // three where it crosses both sides of the canvas.
            while capacity - start < 3 * polygon.count {
                owner.growEdges(keeping: start)
                setup.edges = owner.edges
                capacity = owner.edgeCapacity
            }
            let withinReach = polygon.withUnsafeBufferPointer { points in
                points.withMemoryRebound(to: lamina_point.self) { lamina_add_polygon_edges(&setup, $0.baseAddress, $0.count) }
            }
            if withinReach != 0 { return true }
            // Drop what this polygon added (the extent may stay wider: it is still in reach).
            setup.count = start
            guard polygon.allSatisfy({ $0.x.isFinite && $0.y.isFinite }) else { return false }
            let box = (x0: -1.0, y0: -1.0, x1: Double(owner.width) + 1, y1: Double(owner.height) + 1)
            // The clipped polygon lies within the box: in reach, so this does not recurse again.
            guard let clipped = PolygonClipper.clip(polygon, to: box) else { return true }
            return addEdges(of: clipped)
        }
    }
}
