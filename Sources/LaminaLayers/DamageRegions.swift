import LaminaRaster

/// Where a frame changed, as at most `maximumCount` disjoint rectangles (`PixelRegions`):
/// two things changing far apart (a clock in one corner, a spinner in another) are redrawn
/// as two rectangles, not as the one spanning both. Boxes that overlap are merged (painting
/// a pixel twice would blend translucent content twice), and so are boxes whose merged
/// rectangle costs less than `separateRegionCost` more pixels than the two apart (each
/// rectangle is a pass over the display list).
struct DamageRegions {
    /// Rectangles kept at most; past it the two whose merge adds the fewest pixels merge.
    static let maximumCount = 4
    /// Pixels a separate rectangle is worth: a pass over the display list costs about as
    /// much as clearing and drawing this many.
    static let separateRegionCost = 64 * 64

    private var regions = PixelRegions(maximumCount: DamageRegions.maximumCount, mergeCost: DamageRegions.separateRegionCost)
    /// Every box is clamped into this rectangle first (the canvas: what lies outside is never
    /// drawn, and a box of hostile size cannot overflow an area).
    let bounds: PixelRect

    /// No damage yet, on a canvas of `bounds`.
    init(bounds: PixelRect) {
        self.bounds = bounds
    }

    /// Adds a changed box (an empty one still counts where it is, as its corners are where
    /// the layer was: it is kept as a rectangle of no area, merged with a region it lies on).
    mutating func add(_ box: PixelRect) {
        func x(_ v: Int) -> Int { min(max(v, bounds.x0), bounds.x1) }
        func y(_ v: Int) -> Int { min(max(v, bounds.y0), bounds.y1) }
        regions.add(PixelRect(x0: x(box.x0), y0: y(box.y0), x1: x(box.x1), y1: y(box.y1)))   // normalized there
    }

    /// The rectangles with pixels to redraw (every box was clamped to `bounds` as it came
    /// in, so only the empty ones are dropped).
    var drawn: [PixelRect] { regions.nonEmpty }
}
