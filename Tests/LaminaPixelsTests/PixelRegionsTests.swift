import Testing
@testable import LaminaPixels

/// `PixelRegions`: a few disjoint rectangles covering everything added.
@Suite("Pixel regions")
struct PixelRegionsTests {
    @Test("the rectangles stay few and disjoint and cover everything added", arguments: 0..<8)
    func fewDisjointCovering(seed: UInt64) {
        var state = seed &+ 17
        func pick(_ n: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(n))
        }
        var stale = PixelRegions(maximumCount: 8, mergeCost: seed % 2 == 0 ? 0 : 64)
        var added: [PixelRect] = []
        for _ in 0..<40 {
            let x = pick(90), y = pick(60)
            let r = PixelRect(x0: x, y0: y, x1: x + 1 + pick(12), y1: y + 1 + pick(12))
            stale.add(r)
            added.append(r)
            #expect(stale.rects.count <= 8)
            for (i, a) in stale.rects.enumerated() {
                for b in stale.rects[(i + 1)...] { #expect(a.intersection(b).isEmpty, "\(a) and \(b) overlap") }
            }
            var uncovered = 0
            for r in added where !r.isEmpty {
                for y in r.y0..<r.y1 {
                    for x in r.x0..<r.x1 where !stale.rects.contains(where: { x >= $0.x0 && x < $0.x1 && y >= $0.y0 && y < $0.y1 }) {
                        uncovered += 1
                    }
                }
            }
            #expect(uncovered == 0)
        }
    }
}
