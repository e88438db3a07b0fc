import LaminaTestSupport
import Testing
@testable import LaminaAnimation
@testable import LaminaGeometry
@testable import LaminaLayers
@testable import LaminaRaster

/// Damage round an opaque layer's unchanged middle (`DrawRecord.interior`): a card that moves,
/// grows or scales redraws the bands round the part of its opaque background both frames
/// cover, and still draws exactly what a full redraw draws.
@Suite("Damage round an opaque interior")
struct InteriorDamageTests {
    static let width = 320, height = 200

    /// Cards with opaque or translucent backgrounds, rounded corners, borders and shadows,
    /// some drawing a shape, text or an image over their background, some holding a shape,
    /// text or a card of their own, two inside a clipping parent
    /// (one with square corners, one rounded), over a striped layer that shows through
    /// wherever the damage would leave an old card behind.
    func makeScene(_ n: inout SeededNumbers) -> (LayerTree, [Layer]) {
        let root = Layer()
        root.bounds = Rect(x: 0, y: 0, width: Double(Self.width), height: Double(Self.height))
        root.anchorPoint = .zero
        let stripes = ShapeLayer()
        stripes.bounds = root.bounds
        stripes.anchorPoint = .zero
        var bars = Path()
        for i in 0..<32 { for element in Path(rect: Rect(x: Double(i) * 10, y: 0, width: 4, height: 200)).elements { bars.append(element) } }
        stripes.path = bars
        stripes.fillColor = Color(red: 0.3, green: 0.3, blue: 0.35)
        root.addSublayer(stripes)
        let clipSquare = Layer(), clipRound = Layer()
        for (k, clip) in [clipSquare, clipRound].enumerated() {
            clip.bounds = Rect(x: 0, y: 0, width: 140, height: 90)
            clip.position = Point(x: 80 + Double(k) * 160, y: 140)
            clip.masksToBounds = true
            clip.cornerRadius = Double(k) * 9
            root.addSublayer(clip)
        }
        var cards: [Layer] = []
        let picture = PixelBuffer(width: 6, height: 4)
        for y in 0..<4 { for x in 0..<6 { picture[x, y] = 0xFF00_0000 | UInt32(x * 40) << 16 | UInt32(y * 60) } }
        for i in 0..<7 {
            // Plain cards mostly; now and then one that draws inside its background too.
            let card: Layer
            switch n.pick(8) {
            case 0:
                let shape = ShapeLayer()
                shape.path = Path(ovalIn: Rect(x: 4, y: 4, width: 20, height: 14))
                shape.fillColor = Color(red: 0.1, green: 0.1, blue: 0.9)
                card = shape
            case 1:
                let text = TextLayer()
                text.string = "Wg"
                text.fontSize = 14
                text.foregroundColor = Color(red: 0.9, green: 0.9, blue: 0.1)
                card = text
            case 2:
                card = Layer()
                card.contents = picture
            default: card = Layer()
            }
            card.bounds = Rect(x: 0, y: 0, width: n.next(40, 150), height: n.next(30, 100))
            card.position = Point(x: n.next(20, 300), y: n.next(20, 180))
            card.backgroundColor = Color(red: n.next(0, 1), green: n.next(0, 1), blue: n.next(0, 1), alpha: n.pick(4) == 0 ? 0.7 : 1)
            card.cornerRadius = n.pick(2) == 0 ? 0 : n.next(0, 12)
            if n.pick(3) == 0 {
                card.borderWidth = n.next(0.5, 4)
                card.borderColor = Color(red: 1, green: 1, blue: n.next(0, 1))
            }
            if n.pick(3) == 0 {
                card.shadowOpacity = 0.6
                card.shadowRadius = n.next(0, 4)
                card.shadowOffset = Size(width: n.next(-2, 2), height: n.next(0, 3))
            }
            switch n.pick(4) {
            case 0:
                let label = TextLayer()
                label.string = "Ag"
                label.fontSize = 9
                label.foregroundColor = .black
                label.bounds = Rect(x: 0, y: 0, width: 16, height: 12)
                label.position = Point(x: 9, y: 7)
                card.addSublayer(label)
            case 1:
                let dot = ShapeLayer()
                dot.path = Path(ovalIn: Rect(x: 0, y: 0, width: 8, height: 8))
                dot.fillColor = Color(red: 0.9, green: 0.1, blue: 0.2)
                dot.bounds = Rect(x: 0, y: 0, width: 8, height: 8)
                dot.position = Point(x: 6, y: 6)
                card.addSublayer(dot)
            case 2:
                let inner = Layer()
                inner.bounds = Rect(x: 0, y: 0, width: 8, height: 6)
                inner.position = Point(x: 8, y: 6)
                inner.backgroundColor = Color(red: 0.1, green: 0.8, blue: 0.3)
                card.addSublayer(inner)
            default: break
            }
            (i == 5 ? clipSquare : i == 6 ? clipRound : root).addSublayer(card)
            cards.append(card)
        }
        let tree = LayerTree(root: root)
        tree.commit(at: 0)
        tree.updatePresentation(at: 0)
        return (tree, cards)
    }

    @Test("cards moving, growing, scaling, turning, fading and changing colour: drawing only the damage gives exactly the full redraw", arguments: 0..<16)
    func damageEqualsFullRedraw(seed: UInt64) throws {
        var n = SeededNumbers(state: seed &* 31 &+ 5)
        let (tree, cards) = makeScene(&n)
        let incremental = PixelBuffer(width: Self.width, height: Self.height)
        let renderer = Renderer(), canvas = Canvas(target: incremental)
        Transaction.begin()
        Transaction.disableActions = true
        var interiorsUsed = 0
        for frame in 1...30 {
            for _ in 0..<(n.pick(4) == 0 ? 2 : 1) {
                let card = cards[n.pick(cards.count)]
                switch n.pick(10) {
                case 0, 1, 2: card.position = Point(x: card.position.x + n.next(-12, 12), y: card.position.y + n.next(-8, 8))
                case 3: card.bounds.size = Size(width: max(2, card.bounds.width + n.next(-10, 10)),
                                                height: max(2, card.bounds.height + n.next(-8, 8)))
                case 4: card.transform = Transform3D(scaleX: n.next(0.6, 1.5), y: n.next(0.6, 1.5), z: 1)
                case 5: card.transform = n.pick(2) == 0 ? .identity : Transform3D(rotationAngle: n.next(-0.5, 0.5), x: 0, y: 0, z: 1)
                case 6: card.backgroundColor = n.pick(2) == 0 ? card.backgroundColor
                    : Color(red: n.next(0, 1), green: n.next(0, 1), blue: n.next(0, 1), alpha: n.pick(3) == 0 ? 0.8 : 1)
                    card.position.x += n.next(-4, 4)
                case 7: card.opacity = n.pick(2) == 0 ? 1 : n.next(0.3, 1)
                case 8: card.zPosition = n.next(-1, 1)
                default: card.sublayers.first?.position.x += n.next(-6, 6)
                }
            }
            tree.commit(at: Double(frame))
            tree.updatePresentation(at: Double(frame))
            let presentation = try #require(tree.root.presentation())
            let damage = renderer.renderDamage(presentation, into: canvas, background: .black)
            interiorsUsed += renderer.previous?.all.filter { $0.record.interior != nil }.count ?? 0
            let full = PixelBuffer(width: Self.width, height: Self.height)
            Renderer().render(presentation, into: Canvas(target: full), background: .black)
            let differing = Pixels.differing(incremental, full)
            #expect(differing == 0, "frame \(frame): \(differing) pixels differ; damage \(String(describing: damage))")
        }
        Transaction.commit()
        #expect(interiorsUsed > 10)     // else this compared nothing of the rule
    }

    @Test("an opaque card moving 3 px right redraws the bands at its sides, not its middle")
    func movingCardRedrawsItsSides() throws {
        let root = Layer()
        root.bounds = Rect(x: 0, y: 0, width: 200, height: 120)
        root.anchorPoint = .zero
        let card = Layer()
        card.bounds = Rect(x: 0, y: 0, width: 100, height: 60)
        card.anchorPoint = .zero
        card.position = Point(x: 40, y: 30)
        card.backgroundColor = Color(red: 1, green: 1, blue: 1)
        card.cornerRadius = 8
        root.addSublayer(card)
        let tree = LayerTree(root: root)
        let renderer = Renderer(), canvas = Canvas(target: PixelBuffer(width: 200, height: 120))
        Transaction.begin()
        Transaction.disableActions = true
        tree.commit(at: 0)
        tree.updatePresentation(at: 0)
        renderer.renderDamage(try #require(root.presentation()), into: canvas, background: .black)
        card.position = Point(x: 43, y: 30)
        tree.commit(at: 1)
        tree.updatePresentation(at: 1)
        let frame = renderer.findDamage(try #require(root.presentation()), canvasSize: (200, 120), background: .black)
        Transaction.commit()
        // Interior: the bounds inset by 8 · (1 − 1/√2) ≈ 2.34 and a pixel more, on whole pixels:
        // x 44…136 before and 47…139 after, y 34…86; both cover x 47…136.
        let interior = PixelRect(x0: 47, y0: 34, x1: 136, y1: 86)
        for region in frame.regions { #expect(region.intersection(interior).isEmpty, "\(region) redraws the middle") }
        // What is redrawn: the box of old and new (x 39…144, y 29…91 with a pixel's margin) but the middle.
        #expect(frame.regions.reduce(0) { $0 + $1.area } == PixelRect(x0: 39, y0: 29, x1: 144, y1: 91).area - interior.area)
    }
}
