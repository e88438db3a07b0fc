import LaminaPixels

/// What of the shadow buffer one scanout buffer has not been given yet: the rectangles the
/// frames it missed changed (its buffer age), so a frame that changed a few bands copies
/// those bands, not the rectangle spanning them. Rectangles that overlap are merged (a
/// pixel is copied once); past `maximumCount` the two whose merge adds the fewest pixels
/// merge, so it stays a few rectangles however long it runs.
struct StaleRegions {
    /// Rectangles kept at most.
    static let maximumCount = 8

    /// Disjoint, none empty.
    private(set) var rects: [PixelRect]

    /// Nothing to copy.
    static let none = StaleRegions(rects: [])

    /// All of a buffer of `width` × `height`.
    static func all(width: Int, height: Int) -> StaleRegions { StaleRegions(rects: [PixelRect(width: width, height: height)]) }

    private init(rects: [PixelRect]) {
        self.rects = rects
    }

    /// Adds a changed rectangle (an empty one changes nothing).
    mutating func add(_ rect: PixelRect) {
        guard !rect.isEmpty else { return }
        var box = rect
        var i = 0
        while i < rects.count {
            let r = rects[i]
            if r.x0 < box.x1 && box.x0 < r.x1 && r.y0 < box.y1 && box.y0 < r.y1 {
                box = box.union(r)
                rects.remove(at: i)
                i = 0
            } else {
                i += 1
            }
        }
        rects.append(box)
        while rects.count > Self.maximumCount {
            var best = (i: 0, j: 1, cost: Int.max)
            for a in rects.indices {
                for b in rects.indices where b > a {
                    let cost = rects[a].union(rects[b]).area - rects[a].area - rects[b].area
                    if cost < best.cost { best = (a, b, cost) }
                }
            }
            let merged = rects[best.i].union(rects[best.j])
            rects.remove(at: best.j)
            rects.remove(at: best.i)
            add(merged)
        }
    }
}
