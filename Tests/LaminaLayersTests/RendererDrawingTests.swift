import Testing
@testable import LaminaAnimation
@testable import LaminaGeometry
@testable import LaminaLayers
@testable import LaminaRaster

/// Renders `root` (committed and presented at time 0) into a `width × height` buffer over
/// opaque black, with actions off so the model shows at once.
private func render(_ root: Layer, width: Int, height: Int) throws -> PixelBuffer {
    let tree = LayerTree(root: root)
    tree.commit(at: 0)
    tree.updatePresentation(at: 0)
    let buffer = PixelBuffer(width: width, height: height)
    Renderer().render(try #require(root.presentation()), into: Canvas(target: buffer), background: .black)
    return buffer
}

/// A layer with its bounds at the origin and its anchor at the top-left, at `origin`.
private func placed<L: Layer>(_ layer: L, _ rect: Rect) -> L {
    layer.bounds = Rect(x: 0, y: 0, width: rect.width, height: rect.height)
    layer.anchorPoint = .zero
    layer.position = rect.origin
    return layer
}

/// A group at half opacity holding a red layer (0…20) overlapped by a blue one (10…30),
/// added to `root`; returns the blue one.
private func halfOpaqueRedBlueGroup(in root: Layer) -> Layer {
    let group = placed(Layer(), Rect(x: 0, y: 0, width: 30, height: 10))
    group.opacity = 0.5
    let back = placed(Layer(), Rect(x: 0, y: 0, width: 20, height: 10))
    back.backgroundColor = Color(red: 1, green: 0, blue: 0)
    let front = placed(Layer(), Rect(x: 10, y: 0, width: 20, height: 10))
    front.backgroundColor = Color(red: 0, green: 0, blue: 1)
    group.addSublayer(back)
    group.addSublayer(front)
    root.addSublayer(group)
    return front
}

/// Sum over the buffer of one channel, in units of full pixels (255 = 1).
private func coverage(_ buffer: PixelBuffer, channel shift: UInt32) -> Double {
    var sum = 0.0
    for y in 0..<buffer.height {
        for x in 0..<buffer.width { sum += Double((buffer[x, y] >> shift) & 0xFF) / 255 }
    }
    return sum
}

@Suite("Layer drawing: corners, borders, masks, group opacity, strokes (rules 48, 54, 61, 62)")
struct RendererDrawingTests {
    @Test("cornerRadius rounds the background: a 20×20 layer with radius 10 paints a disc of area 100π")
    func roundedBackground() throws {
        let root = placed(Layer(), Rect(x: 0, y: 0, width: 30, height: 30))
        let disc = placed(Layer(), Rect(x: 5, y: 5, width: 20, height: 20))
        disc.backgroundColor = .white
        disc.cornerRadius = 10
        root.addSublayer(disc)
        let buffer = try render(root, width: 30, height: 30)
        // Within the cubic circle's excess (+0.088) and the balanced flattening's residual
        // (under 0.05 % of the area, 0.16: FlatteningTests).
        #expect(abs(coverage(buffer, channel: 16) - 100 * Double.pi) < 0.5)
        #expect(buffer[5, 5] == 0xFF00_0000 && buffer[15, 15] == 0xFFFF_FFFF)
    }

    @Test("a border is drawn inside the bounds, above the sublayers: a 10×10 layer with width 2 has a ring of area 64")
    func border() throws {
        let root = placed(Layer(), Rect(x: 0, y: 0, width: 20, height: 20))
        let framed = placed(Layer(), Rect(x: 5, y: 5, width: 10, height: 10))
        framed.borderWidth = 2
        framed.borderColor = Color(red: 1, green: 0, blue: 0)
        let filler = placed(Layer(), Rect(x: 0, y: 0, width: 10, height: 10))
        filler.backgroundColor = Color(red: 0, green: 0, blue: 1)
        framed.addSublayer(filler)
        root.addSublayer(framed)
        let buffer = try render(root, width: 20, height: 20)
        #expect(abs(coverage(buffer, channel: 16) - 64) < 1e-9)          // red ring: 100 − 36
        #expect(abs(coverage(buffer, channel: 0) - 36) < 1e-9)           // blue shows only inside it
        #expect(buffer[5, 5] == 0xFFFF_0000 && buffer[10, 10] == 0xFF00_00FF)
    }

    @Test("masksToBounds clips sublayers (and rounds them with cornerRadius); without it they spill out (rule 57's twin)")
    func masksToBounds() throws {
        for masks in [false, true] {
            let root = placed(Layer(), Rect(x: 0, y: 0, width: 40, height: 40))
            let clipper = placed(Layer(), Rect(x: 10, y: 10, width: 20, height: 20))
            clipper.masksToBounds = masks
            clipper.cornerRadius = 10
            let big = placed(Layer(), Rect(x: -10, y: -10, width: 40, height: 40))
            big.backgroundColor = .white
            clipper.addSublayer(big)
            root.addSublayer(clipper)
            let buffer = try render(root, width: 40, height: 40)
            let painted = coverage(buffer, channel: 8)
            if masks {
                #expect(abs(painted - 100 * Double.pi) < 0.5)            // the rounded bounds (bound as above)
                #expect(buffer[10, 10] == 0xFF00_0000 && buffer[20, 20] == 0xFFFF_FFFF)
            } else {
                #expect(painted == 1600)                                 // the whole 40×40 sublayer
            }
        }
    }

    @Test("group opacity: two overlapping opaque sublayers at parent opacity 0.5 show the front one at 50 %, never a mix")
    func groupOpacity() throws {
        let root = placed(Layer(), Rect(x: 0, y: 0, width: 30, height: 10))
        _ = halfOpaqueRedBlueGroup(in: root)
        let buffer = try render(root, width: 30, height: 10)
        #expect(buffer[5, 5] == 0xFF80_0000)                             // red alone, half
        #expect(buffer[15, 5] == 0xFF00_0080)                            // overlap: blue alone, half
        #expect(buffer[25, 5] == 0xFF00_0080)
    }

    @Test("a translucent group whose size changes every frame keeps at most 8 offscreens pooled (decision 86), and still draws right")
    func offscreenPoolBounded() throws {
        let root = placed(Layer(), Rect(x: 0, y: 0, width: 200, height: 20))
        let front = halfOpaqueRedBlueGroup(in: root)
        let tree = LayerTree(root: root)
        let renderer = Renderer()
        let buffer = PixelBuffer(width: 200, height: 20)
        for width in 20...120 {
            Transaction.begin()
            Transaction.disableActions = true
            front.bounds = Rect(x: 0, y: 0, width: Double(width), height: 10)
            Transaction.commit()
            tree.commit(at: 0)
            tree.updatePresentation(at: 0)
            renderer.render(try #require(root.presentation()), into: Canvas(target: buffer), background: .black)
            #expect(renderer.pooledOffscreenCount <= Renderer.maximumPooledOffscreens)
        }
        #expect(buffer[5, 5] == 0xFF80_0000 && buffer[100, 5] == 0xFF00_0080)
    }

    @Test("a replicator's instance count is clamped to 4096 (decision 86)")
    func replicatorCountClamped() {
        let replicator = ReplicatorLayer()
        replicator.instanceCount = .max
        #expect(replicator.instanceCount == ReplicatorLayer.maximumInstanceCount)
        replicator.instanceCount = -5
        #expect(replicator.instanceCount == 0)
    }

    @Test("a shape layer strokes centred on its path over its fill; strokeEnd 0.5 strokes half the length (rules 61, 62)")
    func shapeStroke() throws {
        for end in [1.0, 0.5] {
            let root = placed(Layer(), Rect(x: 0, y: 0, width: 30, height: 30))
            let shape = placed(ShapeLayer(), Rect(x: 5, y: 5, width: 20, height: 20))
            shape.path = Path(rect: Rect(x: 0, y: 0, width: 20, height: 20))
            shape.fillColor = Color(red: 0, green: 0, blue: 1)
            shape.strokeColor = Color(red: 1, green: 0, blue: 0)
            shape.lineWidth = 2
            shape.strokeEnd = end
            root.addSublayer(shape)
            let buffer = try render(root, width: 30, height: 30)
            let red = coverage(buffer, channel: 16)
            if end == 1 {
                #expect(abs(red - (22 * 22 - 18 * 18)) < 1e-6)          // a 2-wide ring centred on the square, miter corners
                #expect(buffer[15, 15] == 0xFF00_00FF)
            } else {
                // Half the 80-long outline, butt ends: two 20 × 2 sides, less their 1 × 1
                // overlap inside the corner, plus the 1 × 1 outer miter.
                #expect(abs(red - (40 + 40 - 1 + 1)) < 1e-6)
            }
        }
    }

    @Test("the new drawing keys animate implicitly and interpolate: cornerRadius, borderWidth, borderColor, strokeEnd, lineWidth")
    func drawingKeysAnimate() throws {
        let root = Layer()
        let shape = ShapeLayer()
        root.addSublayer(shape)
        let tree = LayerTree(root: root)
        tree.commit(at: 0)
        tree.updatePresentation(at: 0)
        shape.cornerRadius = 8
        shape.borderWidth = 3
        shape.borderColor = .white
        shape.strokeEnd = 0.5
        shape.lineWidth = 4
        #expect(Set(shape.animationKeys()) == ["cornerRadius", "borderWidth", "borderColor", "strokeEnd", "lineWidth"])
        tree.commit(at: 0)
        tree.updatePresentation(at: 0.125)
        let p = try #require(shape.presentation() as? ShapeLayer)
        let eased = TimingFunction.default(0.5)
        #expect(abs(p.cornerRadius - 8 * eased) < 1e-9)
        #expect(abs(p.strokeEnd - (1 - 0.5 * eased)) < 1e-9)
        #expect(abs(p.lineWidth - (1 + 3 * eased)) < 1e-9)
    }
}
