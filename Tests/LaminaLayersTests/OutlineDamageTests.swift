import LaminaTestSupport
import Testing
@testable import LaminaAnimation
@testable import LaminaGeometry
@testable import LaminaLayers
@testable import LaminaRaster

/// A shape rebuilt every frame from moving control points (the elastic field's way) damages
/// only where its fill changed (`DrawRecord.Outline`, `Path.differingRegions`).
@Suite("Damage where a shape's fill changed")
struct OutlineDamageTests {
    /// A rounded box whose four edges bend through `controls` (top, right, bottom, left),
    /// built as the elastic field builds its outline.
    static func bentBox(_ size: Size, radius r: Double, controls: [Point]) -> Path {
        let w = size.width, h = size.height
        var p = Path()
        func edge(_ a: Point, _ c: Point, _ b: Point) {
            let handle = (b - a) * 0.25
            p.cubic(to: c, control1: a + handle, control2: c - handle)
            p.cubic(to: b, control1: c + handle, control2: b - handle)
        }
        p.move(to: Point(x: r, y: 0))
        edge(Point(x: r, y: 0), controls[0], Point(x: w - r, y: 0))
        p.quad(to: Point(x: w, y: r), control: Point(x: w, y: 0))
        edge(Point(x: w, y: r), controls[1], Point(x: w, y: h - r))
        p.quad(to: Point(x: w - r, y: h), control: Point(x: w, y: h))
        edge(Point(x: w - r, y: h), controls[2], Point(x: r, y: h))
        p.quad(to: Point(x: 0, y: h - r), control: Point(x: 0, y: h))
        edge(Point(x: 0, y: h - r), controls[3], Point(x: 0, y: r))
        p.quad(to: Point(x: r, y: 0), control: Point(x: 0, y: 0))
        p.close()
        return p
    }

    static let size = Size(width: 60, height: 30)
    static let rest = [Point(x: 30, y: 0), Point(x: 60, y: 15), Point(x: 30, y: 30), Point(x: 0, y: 15)]

    /// The field over a backdrop, under a translucent bar and with a text label inside; its
    /// mask owner (a layer masked by another bent box) beside it.
    static func makeScene() -> (tree: LayerTree, field: ShapeLayer, mask: ShapeLayer) {
        let root = Layer()
        root.bounds = Rect(x: 0, y: 0, width: 96, height: 64)
        root.anchorPoint = .zero
        let backdrop = Layer()
        backdrop.bounds = Rect(x: 0, y: 0, width: 50, height: 40)
        backdrop.position = Point(x: 30, y: 30)
        backdrop.backgroundColor = Color(red: 0.1, green: 0.6, blue: 0.3)
        let field = ShapeLayer()
        field.bounds = Rect(origin: .zero, size: size)
        field.position = Point(x: 44, y: 28)
        field.fillColor = Color(red: 0.23, green: 0.51, blue: 0.96, alpha: 0.9)
        field.path = bentBox(size, radius: 8, controls: rest)
        let label = TextLayer()
        label.string = "Hi"
        label.fontSize = 12
        label.bounds = Rect(x: 0, y: 0, width: 24, height: 16)
        label.position = Point(x: 30, y: 15)
        field.addSublayer(label)
        let bar = Layer()
        bar.bounds = Rect(x: 0, y: 0, width: 96, height: 8)
        bar.position = Point(x: 48, y: 14)
        bar.backgroundColor = Color(red: 1, green: 1, blue: 1, alpha: 0.4)
        let masked = Layer()
        masked.bounds = Rect(x: 0, y: 0, width: 30, height: 16)
        masked.position = Point(x: 74, y: 52)
        masked.backgroundColor = Color(red: 0.9, green: 0.3, blue: 0.2)
        let mask = ShapeLayer()
        mask.bounds = masked.bounds
        mask.position = Point(x: 15, y: 8)
        mask.path = bentBox(masked.bounds.size, radius: 4, controls: [Point(x: 15, y: 0), Point(x: 30, y: 8),
                                                                     Point(x: 15, y: 16), Point(x: 0, y: 8)])
        masked.mask = mask
        for layer in [backdrop, field, bar, masked] { root.addSublayer(layer) }
        let tree = LayerTree(root: root)
        tree.commit(at: 0)
        tree.updatePresentation(at: 0)
        return (tree, field, mask)
    }

    @Test("the points moving frame after frame (with a stroke, a shadow, a turn or a mask now and then): damage alone draws what a full redraw draws",
          arguments: 0..<12)
    func damageEqualsFullRedraw(seed: UInt64) throws {
        let (tree, field, mask) = Self.makeScene()
        var n = SeededNumbers(state: seed &* 31 &+ 5)
        let incremental = PixelBuffer(width: 96, height: 64)
        let renderer = Renderer()
        let canvas = Canvas(target: incremental)
        var controls = Self.rest
        Transaction.begin()
        Transaction.disableActions = true
        for frame in 1...30 {
            for _ in 0..<(1 + n.pick(2)) {
                let k = n.pick(4)
                controls[k] = Point(x: controls[k].x + n.next(-4, 4), y: controls[k].y + n.next(-4, 4))
            }
            field.path = Self.bentBox(Self.size, radius: 8, controls: controls)
            switch n.pick(10) {
            case 0: field.strokeColor = field.strokeColor == nil ? .white : nil; field.lineWidth = n.next(0.5, 4)
            case 1: field.shadowOpacity = field.shadowOpacity > 0 ? 0 : 0.8; field.shadowRadius = n.next(0, 4)
            case 2: field.transform = Transform3D(rotationAngle: n.next(-0.3, 0.3), x: 0, y: 0, z: 1)
            case 3: field.opacity = n.next(0.4, 1)                     // with its label, a group
            case 4:
                var p = mask.path!.elements
                p[1] = .cubic(control1: Point(x: n.next(0, 8), y: n.next(-4, 4)), control2: Point(x: 9, y: 0), to: Point(x: 15, y: n.next(-3, 3)))
                mask.path = Path(elements: p)
            case 5: field.position = Point(x: 44 + n.next(-0.5, 0.5), y: 28 + n.next(-0.5, 0.5))
            default: break
            }
            tree.commit(at: Double(frame))
            tree.updatePresentation(at: Double(frame))
            let presentation = try #require(tree.root.presentation())
            let damage = renderer.renderDamage(presentation, into: canvas, background: .black)
            let full = PixelBuffer(width: 96, height: 64)
            Renderer().render(presentation, into: Canvas(target: full), background: .black)
            let differing = Pixels.differing(incremental, full)
            #expect(differing == 0, "frame \(frame): \(differing) pixels differ, damage \(String(describing: damage))")
        }
        Transaction.commit()
    }

    @Test("one edge bulging damages a band along that edge, not the shape's box")
    func oneEdgeDamagesItsBand() throws {
        let (tree, field, _) = Self.makeScene()
        let renderer = Renderer()
        let canvas = Canvas(target: PixelBuffer(width: 96, height: 64))
        renderer.renderDamage(try #require(tree.root.presentation()), into: canvas, background: .black)
        Transaction.begin()
        Transaction.disableActions = true
        var controls = Self.rest
        controls[0].y = -3                                             // the top edge bulges up by 3
        field.path = Self.bentBox(Self.size, radius: 8, controls: controls)
        Transaction.commit()
        tree.commit(at: 1)
        tree.updatePresentation(at: 1)
        let frame = renderer.findDamage(try #require(tree.root.presentation()), canvasSize: (96, 64), background: .black)
        // The field's top edge runs from x = 8 to 52 at y = 0, in a layer placed at (14, 13):
        // the band is x 22…66, y 10…13 (3 above the edge to the edge), grown by the
        // flattening's 0.13 px, rounded out, and grown by the box's pixel (the label and
        // the rest are untouched).
        #expect(frame.regions == [PixelRect(x0: 20, y0: 8, x1: 68, y1: 15)], "\(frame.regions)")
        // With a stroke the whole box is damage again (a join can reach beyond the fill).
        Transaction.begin()
        Transaction.disableActions = true
        field.strokeColor = .white
        Transaction.commit()
        tree.commit(at: 2)
        tree.updatePresentation(at: 2)
        renderer.paint(renderer.findDamage(try #require(tree.root.presentation()), canvasSize: (96, 64), background: .black),
                       into: canvas, background: .black)
        Transaction.begin()
        Transaction.disableActions = true
        controls[0].y = -1
        field.path = Self.bentBox(Self.size, radius: 8, controls: controls)
        Transaction.commit()
        tree.commit(at: 3)
        tree.updatePresentation(at: 3)
        let stroked = renderer.findDamage(try #require(tree.root.presentation()), canvasSize: (96, 64), background: .black)
        #expect(stroked.damage.map { $0.y1 >= 13 + 30 } ?? false, "\(String(describing: stroked.damage))")
    }
}
