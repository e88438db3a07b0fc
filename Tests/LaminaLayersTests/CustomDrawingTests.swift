import LaminaGeometry
import LaminaLayers
import LaminaRaster
import Testing

/// A layer that draws a filled square of its `side` at its top left, counting its draws.
private final class SquareLayer: Layer {
    var draws = 0
    var side = 4.0 { didSet { setNeedsDisplay() } }
    var color = Color.white

    override func draw(in canvas: Canvas) {
        draws += 1
        canvas.fill(Path(rect: Rect(x: 0, y: 0, width: side, height: side)), color: color)
    }
}

private final class Painter: LayerDrawingDelegate {
    func draw(_ layer: Layer, in canvas: Canvas) {
        canvas.fill(Path(rect: Rect(x: 1, y: 1, width: 2, height: 2)), color: Color(red: 1, green: 0, blue: 0))
    }
}

@Suite("Custom drawing: setNeedsDisplay, display, draw(in:)")
struct CustomDrawingTests {
    func tree(with layer: Layer) -> LayerTree {
        let root = Layer()
        root.bounds = Rect(x: 0, y: 0, width: 32, height: 32)
        root.position = Point(x: 16, y: 16)
        root.addSublayer(layer)
        return LayerTree(root: root)
    }

    func frame(_ tree: LayerTree, at time: Double) {
        tree.commit(at: time)
        tree.updatePresentation(at: time)
    }

    func shown(_ tree: LayerTree) throws -> Layer { try #require(tree.root.presentation()) }

    @Test("draw(in:) runs at the commit after setNeedsDisplay, once, into contents the size of the bounds")
    func drawsOncePerRequest() throws {
        let square = SquareLayer()
        square.bounds = Rect(x: 0, y: 0, width: 10, height: 6)
        square.position = Point(x: 5, y: 3)
        let tree = tree(with: square)
        frame(tree, at: 0)
        #expect(square.draws == 0 && square.contents == nil)      // never asked: no drawing (as in Core Animation)
        square.setNeedsDisplay()
        #expect(square.needsDisplay)
        frame(tree, at: 1)
        #expect(square.draws == 1 && !square.needsDisplay)
        let contents = try #require(square.contents)
        #expect(contents.width == 10 && contents.height == 6)
        #expect(contents.color(x: 3, y: 3).alpha == 1 && contents.color(x: 4, y: 4).alpha == 0)   // a 4x4 square, the rest clear
        frame(tree, at: 2)
        frame(tree, at: 3)
        #expect(square.draws == 1)                                // cached between requests
        square.side = 6
        frame(tree, at: 4)
        #expect(square.draws == 2 && square.contents?.color(x: 5, y: 5).alpha == 1)
    }

    @Test("with needsDisplayOnBoundsChange a new size redraws at that size; without it the old drawing stays")
    func boundsChange() throws {
        let square = SquareLayer()
        square.bounds = Rect(x: 0, y: 0, width: 8, height: 8)
        let tree = tree(with: square)
        square.setNeedsDisplay()
        frame(tree, at: 0)
        square.bounds = Rect(x: 0, y: 0, width: 12, height: 9)
        frame(tree, at: 1)
        #expect(square.draws == 1 && square.contents?.width == 8)
        square.needsDisplayOnBoundsChange = true
        square.bounds = Rect(x: 0, y: 0, width: 16, height: 10)
        frame(tree, at: 2)
        #expect(square.draws == 2 && square.contents?.width == 16 && square.contents?.height == 10)
        square.bounds = Rect(x: 5, y: 5, width: 16, height: 10)  // same size, new origin: no redraw
        frame(tree, at: 3)
        #expect(square.draws == 2)
    }

    @Test("a plain layer draws through its LayerDrawingDelegate")
    func delegateDraws() throws {
        let layer = Layer()
        let painter = Painter()
        layer.delegate = painter
        layer.bounds = Rect(x: 0, y: 0, width: 4, height: 4)
        let tree = tree(with: layer)
        layer.setNeedsDisplay()
        frame(tree, at: 0)
        let contents = try #require(layer.contents)
        #expect(contents.color(x: 1, y: 1).red == 1 && contents.color(x: 0, y: 0).alpha == 0)
    }

    @Test("the renderer shows the drawing, and a redraw damages the layer's box; no redraw damages nothing")
    func damage() throws {
        let square = SquareLayer()
        square.bounds = Rect(x: 0, y: 0, width: 8, height: 8)
        square.position = Point(x: 20, y: 12)                    // device box 16…24 x 8…16
        let tree = tree(with: square)
        square.setNeedsDisplay()
        frame(tree, at: 0)
        let renderer = Renderer()
        let canvas = Canvas(target: PixelBuffer(width: 32, height: 32))
        renderer.renderDamage(try shown(tree), into: canvas, background: .black)
        #expect(canvas.target.color(x: 17, y: 9) == .white && canvas.target.color(x: 22, y: 14) == .black)
        frame(tree, at: 1)
        #expect(renderer.renderDamage(try shown(tree), into: canvas, background: .black) == nil)
        square.color = Color(red: 0, green: 1, blue: 0)
        square.setNeedsDisplay()
        frame(tree, at: 2)
        let d = try #require(renderer.renderDamage(try shown(tree), into: canvas, background: .black))
        #expect(d.x0 == 15 && d.y0 == 7 && d.x1 == 25 && d.y1 == 17, "\(d)")
        #expect(canvas.target.color(x: 17, y: 9).green == 1)
    }
}
