import LaminaGeometry
import LaminaLayers
import LaminaWidgets
import Testing

/// Stacks and grids against frames worked out by hand.
@Suite("Layout: stacks and grids")
struct LayoutTests {
    private func box(_ width: Double, _ height: Double) -> Layer {
        let layer = Layer()
        layer.bounds = Rect(x: 0, y: 0, width: width, height: height)
        return layer
    }

    @Test("a column: fitting and fixed items keep their length, flexible ones share the rest 1:2, padding and spacing kept")
    func column() {
        let stack = StackLayout(axis: .vertical, size: Size(width: 400, height: 300), spacing: 5, alignment: .fill,
                                padding: EdgeInsets(all: 10))
        let a = box(100, 50), b = box(10, 10), c = box(10, 10), d = box(10, 10)
        stack.add(a)
        stack.add(b, size: .flexible(1))
        stack.add(c, size: .flexible(2))
        stack.add(d, size: .fixed(30))
        // Inner 380 x 280; 50 + 30 + 3 gaps of 5 = 95, leaving 185: 61.67 and 123.33.
        let left = 185.0
        #expect(a.frame == Rect(x: 10, y: 10, width: 380, height: 50))
        #expect(abs(b.frame.minY - 65) < 1e-9 && abs(b.frame.height - left / 3) < 1e-9)
        #expect(abs(c.frame.minY - (65 + left / 3 + 5)) < 1e-9 && abs(c.frame.height - left * 2 / 3) < 1e-9)
        #expect(abs(d.frame.minY - 260) < 1e-9 && d.frame.height == 30 && abs(d.frame.maxY - 290) < 1e-9)
        stack.size = Size(width: 400, height: 400)                                // taller: the flexible ones grow
        #expect(abs(c.frame.height - 285.0 * 2 / 3) < 1e-9 && abs(d.frame.maxY - 390) < 1e-9)
    }

    @Test("a row aligns across the axis (start, centre, end) and distributes a group with no flexible items")
    func rowAlignmentAndDistribution() {
        let stack = StackLayout(axis: .horizontal, size: Size(width: 300, height: 100), spacing: 10, alignment: .center)
        let a = box(50, 20), b = box(70, 60)
        stack.add(a)
        stack.add(b)
        #expect(a.frame == Rect(x: 0, y: 40, width: 50, height: 20) && b.frame == Rect(x: 60, y: 20, width: 70, height: 60))
        stack.alignment = .end
        #expect(a.frame.maxY == 100 && b.frame.maxY == 100)
        stack.distribution = .center                                              // 130 used of 300
        #expect(a.frame.minX == 85 && b.frame.maxX == 215)
        stack.distribution = .end
        #expect(b.frame.maxX == 300 && a.frame.minX == 170)
        stack.distribution = .spaceBetween
        #expect(a.frame.minX == 0 && b.frame.maxX == 300)
        a.isHidden = true                                                         // hidden items take no room
        stack.distribution = .start
        #expect(b.frame.minX == 0)
    }

    @Test("stacks nest: the inner one is laid out for the size the outer gives it")
    func nested() {
        let outer = StackLayout(axis: .vertical, size: Size(width: 200, height: 200), alignment: .fill)
        let inner = StackLayout(axis: .horizontal, alignment: .fill)
        let x = box(10, 10), y = box(10, 10)
        inner.add(x, size: .flexible(1))
        inner.add(y, size: .flexible(1))
        outer.add(box(10, 50))
        outer.add(inner, size: .flexible(1))
        #expect(inner.layer.frame == Rect(x: 0, y: 50, width: 200, height: 150))
        #expect(x.frame == Rect(x: 0, y: 0, width: 100, height: 150) && y.frame == Rect(x: 100, y: 0, width: 100, height: 150))
    }

    @Test("an item keeps its own size across a stack that is not filling, even laid out before the stack had a size (a nested row built first)")
    func itemsKeepTheirSizeAcross() {
        let row = StackLayout(axis: .horizontal, alignment: .center)           // zero-sized, as a scene file builds it
        let label = box(100, 40), control = box(200, 48)
        row.add(label)
        row.add(control)
        let column = StackLayout(axis: .vertical, size: Size(width: 400, height: 300), alignment: .fill)
        column.add(row, size: .fixed(64))
        #expect(label.frame == Rect(x: 0, y: 12, width: 100, height: 40))
        #expect(control.frame == Rect(x: 100, y: 8, width: 200, height: 48))
        // Larger than the stack: it overflows, centred, at its own size.
        let tall = box(10, 100)
        row.add(tall)
        #expect(tall.frame == Rect(x: 300, y: -18, width: 10, height: 100))
    }

    @Test("a grid: equal columns with spacing, rows as tall as their tallest item or a fixed height, cells filled or centred")
    func grid() {
        let grid = GridLayout(columns: 3, size: Size(width: 320, height: 400), spacing: Size(width: 10, height: 20),
                              padding: EdgeInsets(all: 10))
        let items = (0..<5).map { box(20, $0 == 1 ? 80 : 40) }
        for item in items { grid.add(item) }
        // Inner width 300: three columns of (300 − 20) / 3.
        let w = 280.0 / 3
        #expect(abs(items[0].frame.width - w) < 1e-9 && items[0].frame.minX == 10 && items[0].frame.height == 80)
        #expect(abs(items[2].frame.minX - (10 + 2 * (w + 10))) < 1e-9)
        #expect(items[3].frame.minY == 10 + 80 + 20 && items[3].frame.height == 40)
        // Not filling: items keep their own size, centred in cells of a fixed row height.
        let centred = GridLayout(columns: 3, size: Size(width: 320, height: 400), spacing: Size(width: 10, height: 20),
                                 rowHeight: 50, fillsCells: false, padding: EdgeInsets(all: 10))
        let small = (0..<5).map { _ in box(20, 40) }
        for item in small { centred.add(item) }
        #expect(small[4].frame.size == Size(width: 20, height: 40))
        #expect(abs(small[4].frame.midX - (10 + w + 10 + w / 2)) < 1e-9 && small[4].frame.midY == 10 + 50 + 20 + 25)
    }
}
