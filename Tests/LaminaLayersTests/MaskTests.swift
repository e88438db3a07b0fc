import LaminaTestSupport
import Testing
@testable import LaminaAnimation
@testable import LaminaGeometry
@testable import LaminaLayers
@testable import LaminaRaster

@Suite("Layer masks")
struct MaskTests {
    func scene() -> (LayerTree, Layer, ShapeLayer) {
        let root = Layer()
        root.bounds = Rect(x: 0, y: 0, width: 40, height: 40)
        root.anchorPoint = .zero
        let card = Layer()
        card.bounds = Rect(x: 0, y: 0, width: 40, height: 40)
        card.anchorPoint = .zero
        card.backgroundColor = .white
        let dot = Layer()
        dot.bounds = Rect(x: 0, y: 0, width: 10, height: 10)
        dot.position = Point(x: 30, y: 30)
        dot.backgroundColor = Color(red: 1, green: 0, blue: 0)
        card.addSublayer(dot)
        let circle = ShapeLayer()
        circle.bounds = Rect(x: 0, y: 0, width: 40, height: 40)
        circle.anchorPoint = .zero
        circle.path = Path(ovalIn: Rect(x: 0, y: 0, width: 20, height: 20))
        card.mask = circle
        root.addSublayer(card)
        let tree = LayerTree(root: root)
        tree.commit(at: 0)
        tree.updatePresentation(at: 0)
        return (tree, card, circle)
    }

    @Test("the mask's alpha clips the layer and its sublayers: only the disc shows, with its exact area")
    func clips() throws {
        let (tree, _, _) = scene()
        let buffer = PixelBuffer(width: 40, height: 40)
        Renderer().render(try #require(tree.root.presentation()), into: Canvas(target: buffer), background: .black)
        var white = 0.0
        for y in 0..<40 { for x in 0..<40 { white += Double(buffer[x, y] & 0xFF) / 255 } }
        #expect(abs(white - 100 * Double.pi) < 0.6)                       // the disc of radius 10 only
        #expect(buffer[30, 30] == 0xFF00_0000)                            // the red sublayer is masked away
        #expect(buffer[10, 10] == 0xFFFF_FFFF)
    }

    @Test("an animated mask animates the reveal, and damage tracking redraws it")
    func animatedMask() throws {
        let (tree, _, circle) = scene()
        circle.add(BasicAnimation(keyPath: "position", from: .point(.zero), to: .point(Point(x: 20, y: 20)), duration: 1),
                   forKey: "slide")
        let renderer = Renderer()
        let buffer = PixelBuffer(width: 40, height: 40)
        let canvas = Canvas(target: buffer)
        for t in [0.0, 0.5, 1.0] {
            tree.commit(at: t)
            tree.updatePresentation(at: t)
            renderer.renderDamage(try #require(tree.root.presentation()), into: canvas, background: .black)
            let full = PixelBuffer(width: 40, height: 40)
            Renderer().render(try #require(tree.root.presentation()), into: Canvas(target: full), background: .black)
            #expect(Pixels.differing(buffer, full) == 0, "t = \(t)")
        }
        #expect(buffer[30, 30] != 0xFF00_0000)                              // the disc moved over the red dot
    }
}

@Suite("Hit testing through masks (rule 57)")
struct MaskHitTests {
    @Test("points outside a layer's mask do not hit it or its sublayers")
    func outsideMask() {
        let root = Layer()
        root.bounds = Rect(x: 0, y: 0, width: 100, height: 100)
        root.anchorPoint = .zero
        let card = Layer()
        card.bounds = Rect(x: 0, y: 0, width: 100, height: 100)
        card.anchorPoint = .zero
        let window = Layer()
        window.bounds = Rect(x: 0, y: 0, width: 30, height: 30)
        window.anchorPoint = .zero
        window.position = Point(x: 10, y: 10)
        card.mask = window
        root.addSublayer(card)
        #expect(root.hitTest(Point(x: 20, y: 20)) === card)
        #expect(root.hitTest(Point(x: 60, y: 60)) === root)
    }
}
