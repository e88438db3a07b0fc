import Testing
@testable import LaminaAnimation
@testable import LaminaGeometry
@testable import LaminaLayers
@testable import LaminaRaster

private func render(_ root: Layer, width: Int, height: Int) throws -> PixelBuffer {
    let tree = LayerTree(root: root)
    tree.commit(at: 0)
    tree.updatePresentation(at: 0)
    let buffer = PixelBuffer(width: width, height: height)
    Renderer().render(try #require(root.presentation()), into: Canvas(target: buffer), background: .black)
    return buffer
}

private func placed<L: Layer>(_ layer: L, _ rect: Rect) -> L {
    layer.bounds = Rect(x: 0, y: 0, width: rect.width, height: rect.height)
    layer.anchorPoint = .zero
    layer.position = rect.origin
    return layer
}

/// The columns and rows holding any pixel brighter than black.
private func inkBox(_ b: PixelBuffer) -> PixelRect? {
    var box: (Int, Int, Int, Int)?
    for y in 0..<b.height {
        for x in 0..<b.width where b[x, y] & 0x00FF_FFFF != 0 {
            box = box.map { (min($0.0, x), min($0.1, y), max($0.2, x + 1), max($0.3, y + 1)) } ?? (x, y, x + 1, y + 1)
        }
    }
    return box.map { PixelRect(x0: $0.0, y0: $0.1, x1: $0.2, y1: $0.3) }
}

@Suite("Contents, gradient and text layers")
struct ContentLayerTests {
    @Test("contentsGravity places the image: resize fills, aspect fits and fills, edges and corners pin")
    func gravity() {
        let bounds = Rect(x: 0, y: 0, width: 100, height: 100), size = Size(width: 200, height: 100)
        #expect(ContentsGravity.resize.rect(for: size, in: bounds) == bounds)
        #expect(ContentsGravity.resizeAspect.rect(for: size, in: bounds) == Rect(x: 0, y: 25, width: 100, height: 50))
        #expect(ContentsGravity.resizeAspectFill.rect(for: size, in: bounds) == Rect(x: -50, y: 0, width: 200, height: 100))
        let small = Size(width: 20, height: 10)
        #expect(ContentsGravity.center.rect(for: small, in: bounds) == Rect(x: 40, y: 45, width: 20, height: 10))
        #expect(ContentsGravity.topLeft.rect(for: small, in: bounds) == Rect(x: 0, y: 0, width: 20, height: 10))
        #expect(ContentsGravity.bottomRight.rect(for: small, in: bounds) == Rect(x: 80, y: 90, width: 20, height: 10))
        #expect(ContentsGravity.top.rect(for: small, in: bounds).minY == 0)          // y grows down
    }

    @Test("contents draw over the background; contentsScale 2 shows a 2x image at half size")
    func contents() throws {
        let image = PixelBuffer(width: 8, height: 8)
        image.fill(pixel: 0xFFFF_FFFF)
        let root = placed(Layer(), Rect(x: 0, y: 0, width: 40, height: 40))
        let layer = placed(Layer(), Rect(x: 0, y: 0, width: 40, height: 40))
        layer.backgroundColor = Color(red: 0, green: 0, blue: 1)
        layer.contents = image
        layer.contentsGravity = .center
        layer.contentsScale = 2                                            // 8 px image = 4 points
        root.addSublayer(layer)
        let buffer = try render(root, width: 40, height: 40)
        #expect(buffer[19, 19] == 0xFFFF_FFFF && buffer[20, 20] == 0xFFFF_FFFF)
        #expect(buffer[17, 20] == 0xFF00_00FF && buffer[22, 20] == 0xFF00_00FF)     // 4 wide: 18 ..< 22
    }

    @Test("a gradient layer fills its bounds from startPoint to endPoint with its colours")
    func gradient() throws {
        let root = placed(Layer(), Rect(x: 0, y: 0, width: 10, height: 100))
        let layer = placed(GradientLayer(), Rect(x: 0, y: 0, width: 10, height: 100))
        layer.colors = [Color(red: 1, green: 0, blue: 0), Color(red: 0, green: 0, blue: 1)]
        root.addSublayer(layer)
        let buffer = try render(root, width: 10, height: 100)
        for y in [0, 25, 50, 99] {
            let t = (Double(y) + 0.5) / 100
            let p = buffer[5, y]
            #expect(abs(Double(p >> 16 & 0xFF) - 255 * (1 - t)) <= 2 && abs(Double(p & 0xFF) - 255 * t) <= 2, "row \(y)")
        }
    }

    @Test("a text layer sets its line's top at the bounds' top, aligns it, and cuts it with an ellipsis when asked")
    func text() throws {
        let font = try Font()
        let root = placed(Layer(), Rect(x: 0, y: 0, width: 200, height: 60))
        let label = placed(TextLayer(), Rect(x: 0, y: 0, width: 200, height: 60))
        label.string = "H"
        label.fontSize = 40
        label.alignmentMode = .center
        root.addSublayer(label)
        let buffer = try render(root, width: 200, height: 60)
        let ink = try #require(inkBox(buffer))
        let ascender = font.lineMetrics(size: 40).ascender
        #expect(ink.y1 <= Int(ascender.rounded(.up)) + 1)                  // the baseline sits at the ascender
        #expect(abs(Double(ink.x0 + ink.x1) / 2 - 100) <= 2)              // centred
        let long = placed(TextLayer(), Rect(x: 0, y: 0, width: 120, height: 60))
        long.string = "A line far too long to fit in the layer"
        long.fontSize = 20
        long.truncatesEnd = true
        let root2 = placed(Layer(), Rect(x: 0, y: 0, width: 200, height: 60))
        root2.addSublayer(long)
        let cut = try #require(inkBox(try render(root2, width: 200, height: 60)))
        #expect(cut.x1 <= 121)
    }

    @Test("text under a scale draws its outlines through the transform: twice the size, twice the ink")
    func scaledText() throws {
        func inkWidth(scale: Double) throws -> Int {
            let root = placed(Layer(), Rect(x: 0, y: 0, width: 200, height: 100))
            let label = placed(TextLayer(), Rect(x: 0, y: 0, width: 100, height: 50))
            label.string = "HH"
            label.fontSize = 20
            label.transform = Transform3D(scaleX: scale, y: scale, z: 1)
            label.anchorPoint = .zero
            root.addSublayer(label)
            let box = try #require(inkBox(try render(root, width: 200, height: 100)))
            return box.x1 - box.x0
        }
        let one = try inkWidth(scale: 1), two = try inkWidth(scale: 2)
        #expect(abs(Double(two) - 2 * Double(one)) <= 2)
    }
}

@Suite("Text layer lines")
struct TextLinesTests {
    @Test("explicit breaks make lines; wrapping breaks at spaces to fit; lines stack by ascender + descender")
    func lines() throws {
        let font = try Font()
        let label = TextLayer()
        label.bounds = Rect(x: 0, y: 0, width: 120, height: 200)
        label.fontSize = 20
        label.string = "one\ntwo"
        var lines = Renderer.textLines(of: label, font: font)
        #expect(lines.count == 2)
        let m = font.lineMetrics(size: 20)
        #expect(abs(lines[1].baseline - lines[0].baseline - (m.ascender + m.descender)) < 1e-12)
        label.string = "the quick brown fox jumps over the lazy dog"
        #expect(Renderer.textLines(of: label, font: font).count == 1)     // unwrapped: one long line
        label.isWrapped = true
        lines = Renderer.textLines(of: label, font: font)
        #expect(lines.count > 2)
        #expect(lines.allSatisfy { $0.line.width <= 120 })
        // Every character is laid out once, except the spaces the lines broke at.
        #expect(lines.reduce(0) { $0 + $1.line.glyphs.count } == label.string.count - (lines.count - 1))
    }
}
