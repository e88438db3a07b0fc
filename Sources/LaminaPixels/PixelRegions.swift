/// At most `maximumCount` disjoint rectangles of pixels that cover every rectangle added:
/// what the renderer redraws of a frame (its damage regions) and what a scanout buffer has
/// not been given yet (the regions of the frames it missed). Two changes far apart stay two
/// rectangles instead of the one spanning them. What a rectangle added shares with those kept
/// is cut away (a pixel is never counted twice), and each piece left is merged with a kept
/// rectangle it overlaps or whose merge with it costs at most `mergeCost` more pixels than
/// the two apart (two halves of one rectangle, side by side); rectangles that only touch stay
/// apart otherwise (the bands round a moving card's unchanged middle, and a label on the card
/// overlapping one of them). Past `maximumCount`, the two whose merge adds the fewest pixels
/// merge, so it stays a few rectangles however many come.
public struct PixelRegions: Sendable {
    /// Rectangles kept at most.
    public let maximumCount: Int
    /// Pixels a separate rectangle is worth (what the caller pays per rectangle, in pixels).
    public let mergeCost: Int
    /// The rectangles, disjoint (an empty one where an empty rectangle was added).
    public private(set) var rects: [PixelRect] = []

    /// No rectangles yet.
    public init(maximumCount: Int, mergeCost: Int = 0) {
        precondition(maximumCount >= 1, "at least one rectangle")
        self.maximumCount = maximumCount
        self.mergeCost = mergeCost
    }

    /// Adds `box` (normalized); an empty one still counts where it is, merged with a
    /// rectangle it lies in or on the edge of (a layer with no area that moved was there), or
    /// kept as a rectangle of no area. Areas are computed in `Int`:
    /// callers clamp boxes to their canvas first.
    public mutating func add(_ box: PixelRect) {
        let box = PixelRect(x0: min(box.x0, box.x1), y0: min(box.y0, box.y1), x1: max(box.x0, box.x1), y1: max(box.y0, box.y1))
        guard !box.isEmpty else { return insert(box) }
        var pieces = [box]
        for kept in rects where Self.overlap(kept, box) {
            pieces = pieces.flatMap { $0.subtracting(kept) }
        }
        for piece in pieces { insert(piece) }
    }

    /// Keeps `box`, folding into it every rectangle it overlaps or is cheaper merged with,
    /// until none is (their hull: each fold leaves one rectangle fewer, so this ends).
    private mutating func insert(_ box: PixelRect) {
        var box = box
        var i = 0
        while i < rects.count {
            if shouldMerge(rects[i], box) {
                box = Self.hull(rects[i], box)
                rects.remove(at: i)
                i = 0
            } else {
                i += 1
            }
        }
        rects.append(box)
        while rects.count > maximumCount { mergeCheapestPair() }
    }

    /// The rectangles that have pixels.
    public var nonEmpty: [PixelRect] {
        rects.filter { !$0.isEmpty }
    }

    private mutating func mergeCheapestPair() {
        var best = (i: 0, j: 1, cost: Int.max)
        for i in rects.indices {
            for j in rects.indices where j > i {
                let cost = Self.hull(rects[i], rects[j]).area - rects[i].area - rects[j].area
                if cost < best.cost { best = (i, j, cost) }
            }
        }
        let merged = Self.hull(rects[best.i], rects[best.j])
        rects.remove(at: best.j)
        rects.remove(at: best.i)
        insert(merged)                                // it may now overlap another
    }

    /// True when `a` and `b` overlap, or their hull costs at most `mergeCost` more than both.
    private func shouldMerge(_ a: PixelRect, _ b: PixelRect) -> Bool {
        Self.overlap(a, b) || Self.hull(a, b).area - a.area - b.area <= mergeCost
    }

    /// True when `a` and `b` share a pixel (touching edges do not).
    private static func overlap(_ a: PixelRect, _ b: PixelRect) -> Bool {
        a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1
    }

    private static func hull(_ a: PixelRect, _ b: PixelRect) -> PixelRect {
        PixelRect(x0: min(a.x0, b.x0), y0: min(a.y0, b.y0), x1: max(a.x1, b.x1), y1: max(a.y1, b.y1))
    }
}
