import LaminaRaster

/// Where a frame changed, as at most `maximumCount` disjoint rectangles: two things changing
/// far apart (a clock in one corner, a spinner in another) are redrawn as two rectangles,
/// not as the one spanning both. Boxes that overlap are merged (painting a pixel twice would
/// blend translucent content twice), and so are boxes whose merged rectangle costs less than
/// `separateRegionCost` more pixels than the two apart (each rectangle is a pass over the
/// display list).
struct DamageRegions {
    /// Rectangles kept at most; past it the two whose merge adds the fewest pixels merge.
    static let maximumCount = 4
    /// Pixels a separate rectangle is worth: a pass over the display list costs about as
    /// much as clearing and drawing this many.
    static let separateRegionCost = 64 * 64

    /// The rectangles, disjoint.
    private(set) var rects: [PixelRect] = []
    /// Every box is clamped into this rectangle first (the canvas: what lies outside is never
    /// drawn, and a box of hostile size cannot overflow an area).
    let bounds: PixelRect

    /// No damage yet, on a canvas of `bounds`.
    init(bounds: PixelRect) {
        self.bounds = bounds
    }

    /// Adds a changed box (an empty one still counts where it is, as its corners are where
    /// the layer was: it is kept as a rectangle of no area, merged with anything it touches).
    mutating func add(_ box: PixelRect) {
        func x(_ v: Int) -> Int { min(max(v, bounds.x0), bounds.x1) }
        func y(_ v: Int) -> Int { min(max(v, bounds.y0), bounds.y1) }
        var box = PixelRect(x0: x(min(box.x0, box.x1)), y0: y(min(box.y0, box.y1)),
                            x1: x(max(box.x0, box.x1)), y1: y(max(box.y0, box.y1)))
        // Fold in every rectangle the box overlaps or is cheaper merged with, until none is.
        var i = 0
        while i < rects.count {
            if Self.shouldMerge(rects[i], box) {
                box = Self.hull(rects[i], box)
                rects.remove(at: i)
                i = 0
            } else {
                i += 1
            }
        }
        rects.append(box)
        while rects.count > Self.maximumCount { mergeCheapestPair() }
    }

    /// The rectangles with pixels to redraw (every box was clamped to `bounds` as it came
    /// in, so only the empty ones are dropped).
    var drawn: [PixelRect] {
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
        add(merged)                                   // it may now overlap another
    }

    /// True when `a` and `b` overlap or touch, or their hull costs little more than both.
    private static func shouldMerge(_ a: PixelRect, _ b: PixelRect) -> Bool {
        if a.x0 <= b.x1 && b.x0 <= a.x1 && a.y0 <= b.y1 && b.y0 <= a.y1 { return true }
        return hull(a, b).area - a.area - b.area <= separateRegionCost
    }

    private static func hull(_ a: PixelRect, _ b: PixelRect) -> PixelRect {
        PixelRect(x0: min(a.x0, b.x0), y0: min(a.y0, b.y0), x1: max(a.x1, b.x1), y1: max(a.y1, b.y1))
    }
}
