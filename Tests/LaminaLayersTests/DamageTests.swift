import LaminaTestSupport
import Testing
@testable import LaminaAnimation
@testable import LaminaGeometry
@testable import LaminaLayers
@testable import LaminaRaster

/// Deterministic numbers for the random scenes.
private typealias Numbers = SeededNumbers

@Suite("Rendering only the damage (renderer with damage)")
struct DamageTests {
    /// A tree of a few layers of every kind, drawn into a 96×64 canvas.
    func makeScene() -> (LayerTree, [Layer]) {
        let root = Layer()
        root.bounds = Rect(x: 0, y: 0, width: 96, height: 64)
        root.anchorPoint = .zero
        var layers: [Layer] = []
        for i in 0..<6 {
            let layer: Layer = i % 2 == 0 ? ShapeLayer() : Layer()
            layer.bounds = Rect(x: 0, y: 0, width: 20, height: 14)
            layer.position = Point(x: 12 + Double(i) * 14, y: 20 + Double(i % 3) * 10)
            layer.backgroundColor = Color(red: 0.2 * Double(i % 5), green: 0.5, blue: 0.9, alpha: 0.8)
            if let shape = layer as? ShapeLayer {
                shape.path = Path(ovalIn: Rect(x: 2, y: 2, width: 16, height: 10))
                shape.fillColor = Color(red: 1, green: 0.8, blue: 0.1)
            }
            (i == 3 ? layers[0] : root).addSublayer(layer)
            layers.append(layer)
        }
        let tree = LayerTree(root: root)
        tree.commit(at: 0)
        tree.updatePresentation(at: 0)
        return (tree, layers)
    }

    @Test("random changes frame after frame: drawing only the damage gives exactly the full redraw", arguments: 0..<16)
    func damageEqualsFullRedraw(seed: UInt64) throws {
        let (tree, layers) = makeScene()
        var n = Numbers(state: seed &+ 3)
        let incremental = PixelBuffer(width: 96, height: 64)
        let damageRenderer = Renderer()
        let canvas = Canvas(target: incremental)
        Transaction.begin()
        Transaction.disableActions = true
        var lastDamage: PixelRect?
        for frame in 1...25 {
            let layer = layers[n.pick(layers.count)]
            switch n.pick(8) {
            case 7:
                // Perspective: turned about y, seen from 5 to 200 px away (near ones put
                // corners behind the eye, where the whole canvas is damage).
                var perspective = Transform3D.identity
                perspective.m34 = -1 / n.next(5, 200)
                layer.transform = Transform3D(rotationAngle: n.next(-1.4, 1.4), x: 0, y: 1, z: 0).concatenating(perspective)
            case 0: layer.position = Point(x: n.next(-10, 100), y: n.next(-10, 70))
            case 1: layer.opacity = n.next(0, 1)
            case 2: layer.backgroundColor = Color(red: n.next(0, 1), green: n.next(0, 1), blue: n.next(0, 1), alpha: n.next(0.2, 1))
            case 3: layer.transform = Transform3D(rotationAngle: n.next(0, 6), x: 0, y: 0, z: 1)
            case 4: layer.isHidden.toggle()
            case 5: layer.cornerRadius = n.next(0, 8); layer.borderWidth = n.next(0, 3)
            default: (layer as? ShapeLayer)?.strokeColor = .white; layer.zPosition = n.next(-1, 1)
            }
            tree.commit(at: Double(frame))
            tree.updatePresentation(at: Double(frame))
            let presentation = try #require(tree.root.presentation())
            lastDamage = damageRenderer.renderDamage(presentation, into: canvas, background: .black)
            let full = PixelBuffer(width: 96, height: 64)
            Renderer().render(presentation, into: Canvas(target: full), background: .black)
            let differing = Pixels.differing(incremental, full)
            if differing > 0 {
                var first = (0, 0)
                search: for y in 0..<64 { for x in 0..<96 where incremental[x, y] != full[x, y] { first = (x, y); break search } }
                Issue.record("frame \(frame): \(differing) differ, first at \(first), damage \(String(describing: lastDamage))")
            }
        }
        Transaction.commit()
    }

    @Test("a layer turning in perspective damages its projected box, not the screen, and draws what a full redraw draws", arguments: 0..<6)
    func perspectiveDamage(seed: UInt64) throws {
        let (tree, layers) = makeScene()
        var n = Numbers(state: seed &+ 5)
        let incremental = PixelBuffer(width: 96, height: 64)
        let renderer = Renderer()
        let canvas = Canvas(target: incremental)
        let turning = layers[2]
        Transaction.begin()
        Transaction.disableActions = true
        var partial = 0
        for frame in 1...30 {
            var perspective = Transform3D.identity
            perspective.m34 = -1 / n.next(15, 120)
            turning.transform = Transform3D(rotationAngle: n.next(-1.3, 1.3), x: 0, y: 1, z: 0).concatenating(perspective)
            #expect(!turning.transformToSuperlayerPlane().isAffine)
            tree.commit(at: Double(frame))
            tree.updatePresentation(at: Double(frame))
            let presentation = try #require(tree.root.presentation())
            let damage = try #require(renderer.renderDamage(presentation, into: canvas, background: .black))
            if damage != PixelRect(width: 96, height: 64) { partial += 1 }
            let full = PixelBuffer(width: 96, height: 64)
            Renderer().render(presentation, into: Canvas(target: full), background: .black)
            #expect(Pixels.differing(incremental, full) == 0, "frame \(frame): damage \(damage)")
        }
        Transaction.commit()
        #expect(partial >= 25)                                    // all but the first, in front of the eye
    }

    @Test("things changing far apart are redrawn as separate disjoint regions, and draw what a full redraw draws", arguments: 0..<8)
    func separateRegions(seed: UInt64) throws {
        let root = Layer()
        root.bounds = Rect(x: 0, y: 0, width: 480, height: 160)
        root.anchorPoint = .zero
        var layers: [Layer] = []
        for i in 0..<8 {
            let layer = Layer()
            layer.bounds = Rect(x: 0, y: 0, width: 24, height: 18)
            layer.position = Point(x: 30 + Double(i % 4) * 140, y: 30 + Double(i / 4) * 100)
            layer.backgroundColor = Color(red: 0.9, green: 0.3, blue: 0.2, alpha: 0.5)   // translucent: a pixel drawn twice shows
            root.addSublayer(layer)
            layers.append(layer)
        }
        let tree = LayerTree(root: root)
        var n = Numbers(state: seed &+ 17)
        let incremental = PixelBuffer(width: 480, height: 160)
        let renderer = Renderer()
        let canvas = Canvas(target: incremental)
        Transaction.begin()
        Transaction.disableActions = true
        var mostRegions = 0
        for frame in 0..<30 {
            for layer in layers where n.pick(3) == 0 {
                layer.position = Point(x: layer.position.x + n.next(-20, 20), y: layer.position.y + n.next(-15, 15))
                layer.opacity = n.next(0.4, 1)
            }
            tree.commit(at: Double(frame))
            tree.updatePresentation(at: Double(frame))
            let presentation = try #require(root.presentation())
            let found = renderer.findDamage(presentation, canvasSize: (480, 160), background: .black)
            for (i, a) in found.regions.enumerated() {
                for b in found.regions.dropFirst(i + 1) { #expect(a.intersection(b).isEmpty, "\(a) and \(b) overlap") }
                #expect(found.damage.map { a.intersection($0) == a } ?? false)
            }
            #expect(found.regions.count <= DamageRegions.maximumCount)
            mostRegions = max(mostRegions, found.regions.count)
            renderer.paint(found, into: canvas, background: .black)
            let full = PixelBuffer(width: 480, height: 160)
            Renderer().render(presentation, into: Canvas(target: full), background: .black)
            #expect(Pixels.differing(incremental, full) == 0, "frame \(frame)")
        }
        Transaction.commit()
        #expect(mostRegions >= 2)
    }

    @Test("a small change damages only its old and new boxes; no change damages nothing")
    func damageIsLocal() throws {
        let (tree, layers) = makeScene()
        let renderer = Renderer()
        let canvas = Canvas(target: PixelBuffer(width: 96, height: 64))
        let initial = try #require(tree.root.presentation())
        let first = renderer.renderDamage(initial, into: canvas, background: .black)
        #expect(first == PixelRect(width: 96, height: 64))                  // the first frame is all damage
        #expect(renderer.renderDamage(initial, into: canvas, background: .black) == nil)
        Transaction.begin()
        Transaction.disableActions = true
        layers[5].backgroundColor = .white
        Transaction.commit()
        tree.commit(at: 1)
        tree.updatePresentation(at: 1)
        let presented = try #require(tree.root.presentation())
        let d = try #require(renderer.renderDamage(presented, into: canvas, background: .black))
        #expect(d.x0 == 71 && d.y0 == 32 && d.x1 == 93 && d.y1 == 48, "\(d)")     // 20×14 about (82, 40), 1 px margin                                        // its box, one pixel of margin
    }

    /// `makeScene`'s tree with more kinds: a replicator of a small square, a masked layer, a
    /// group (translucent, with a border and a sublayer), a text layer.
    func makeRicherScene() -> (LayerTree, [Layer]) {
        let (tree, layers) = makeScene()
        let replicator = ReplicatorLayer()
        replicator.bounds = Rect(x: 0, y: 0, width: 40, height: 12)
        replicator.position = Point(x: 60, y: 54)
        replicator.instanceCount = 3
        replicator.instanceTransform = Transform3D(translationX: 12, y: 0, z: 0)
        let square = Layer()
        square.bounds = Rect(x: 0, y: 0, width: 8, height: 8)
        square.position = Point(x: 5, y: 6)
        square.backgroundColor = .white
        replicator.addSublayer(square)
        let masked = Layer()
        masked.bounds = Rect(x: 0, y: 0, width: 24, height: 24)
        masked.position = Point(x: 20, y: 48)
        masked.backgroundColor = Color(red: 0.9, green: 0.2, blue: 0.3)
        let mask = ShapeLayer()
        mask.bounds = masked.bounds
        mask.position = Point(x: 12, y: 12)
        mask.path = Path(ovalIn: Rect(x: 0, y: 0, width: 24, height: 24))
        masked.mask = mask
        let group = Layer()
        group.bounds = Rect(x: 0, y: 0, width: 30, height: 20)
        group.position = Point(x: 70, y: 12)
        group.backgroundColor = .white
        group.borderWidth = 2
        group.opacity = 0.6
        let inner = Layer()
        inner.bounds = Rect(x: 0, y: 0, width: 10, height: 10)
        inner.position = Point(x: 15, y: 10)
        inner.backgroundColor = Color(red: 0, green: 0.4, blue: 1)
        group.addSublayer(inner)
        let text = TextLayer()
        text.string = "Ab"
        text.fontSize = 12
        text.bounds = Rect(x: 0, y: 0, width: 30, height: 16)
        text.position = Point(x: 40, y: 8)
        for extra in [replicator, masked, group, text] { tree.root.addSublayer(extra) }
        return (tree, layers + [replicator, square, masked, mask, group, inner, text])
    }

    /// Now and then (one frame in three) a random change to one of `layers`: a property,
    /// with or without its implicit animation, an explicit animation of whole frames (so
    /// frames land on its end), hiding, moving the layer to the root's front.
    private func randomChange(_ tree: LayerTree, _ layers: [Layer], _ n: inout Numbers) {
        guard n.pick(3) == 0 else { return }
        let layer = layers[n.pick(layers.count)]
        Transaction.begin()
        Transaction.disableActions = n.pick(2) == 0
        switch n.pick(6) {
        case 0: layer.position = Point(x: n.next(0, 96), y: n.next(0, 64))
        case 1: layer.opacity = n.next(0.3, 1)
        case 2: layer.backgroundColor = Color(red: n.next(0, 1), green: n.next(0, 1), blue: 0.5, alpha: 1)
        case 3:
            var animation = BasicAnimation(keyPath: "position.x", to: .scalar(n.next(0, 96)), duration: Double(1 + n.pick(3)))
            animation.timing.autoreverses = n.pick(2) == 0
            layer.add(animation, forKey: "move")
        case 4: layer.isHidden.toggle()
        default:
            if layer.maskOwner == nil, layer.superlayer != nil {
                layer.removeFromSuperlayer()
                tree.root.addSublayer(layer)
            }
        }
        Transaction.commit()
    }

    @Test("kept presentation copies and kept display lists draw exactly what a tree copied afresh every frame draws", arguments: 0..<12)
    func keptDrawingEqualsFreshDrawing(seed: UInt64) throws {
        // Two identical trees driven by the same changes: one keeps what it can, the other
        // copies every layer every frame and is drawn in full.
        let (kept, keptLayers) = makeRicherScene()
        let (fresh, freshLayers) = makeRicherScene()
        var n1 = Numbers(state: seed &+ 11), n2 = Numbers(state: seed &+ 11)
        let incremental = PixelBuffer(width: 96, height: 64)
        let renderer = Renderer()
        let canvas = Canvas(target: incremental)
        for frame in 1...40 {
            let time = Double(frame) / 2
            randomChange(kept, keptLayers, &n1)
            randomChange(fresh, freshLayers, &n2)
            kept.commit(at: time)
            kept.updatePresentation(at: time)
            renderer.renderDamage(try #require(kept.root.presentation()), into: canvas, background: .black)
            fresh.commit(at: time)
            fresh.forgetKeptPresentations()
            fresh.updatePresentation(at: time)
            let full = PixelBuffer(width: 96, height: 64)
            Renderer().render(try #require(fresh.root.presentation()), into: Canvas(target: full), background: .black)
            let differing = Pixels.differing(incremental, full)
            #expect(differing == 0, "frame \(frame): \(differing) pixels differ")
        }
    }

    @Test("one layer moving beside kept rows: only the records outside the replayed rows are compared, and the frames drawn by damage end as a full redraw")
    func replayedSubtreesAreNotCompared() throws {
        Transaction.begin()
        Transaction.disableActions = true
        let root = Layer()
        root.bounds = Rect(x: 0, y: 0, width: 96, height: 64)
        root.anchorPoint = .zero
        for r in 0..<4 {
            let row = Layer()
            row.bounds = Rect(x: 0, y: 0, width: 96, height: 12)
            row.position = Point(x: 48, y: 8 + Double(r) * 14)
            for t in 0..<5 {
                let tile = Layer()
                tile.bounds = Rect(x: 0, y: 0, width: 14, height: 10)
                tile.position = Point(x: 10 + Double(t) * 18, y: 6)
                tile.cornerRadius = 3
                tile.backgroundColor = Color(red: 0.2 * Double(t), green: 0.3 + 0.1 * Double(r), blue: 0.8)
                row.addSublayer(tile)
            }
            root.addSublayer(row)
        }
        let mover = Layer()
        mover.bounds = Rect(x: 0, y: 0, width: 8, height: 8)
        mover.position = Point(x: 4, y: 60)
        mover.backgroundColor = .white
        root.addSublayer(mover)
        let tree = LayerTree(root: root)
        var move = BasicAnimation(keyPath: "position.x", from: .scalar(4), to: .scalar(92), duration: 2)
        move.timing.repeatCount = .infinity
        mover.add(move, forKey: "move")                   // in a tree: an animation outside one stops at once
        Transaction.commit()
        let renderer = Renderer()
        let incremental = PixelBuffer(width: 96, height: 64)
        let canvas = Canvas(target: incremental)
        for frame in 0..<8 {
            let time = Double(frame) / 10
            tree.commit(at: time)
            tree.updatePresentation(at: time)
            let presentation = try #require(tree.root.presentation())
            let damage = renderer.renderDamage(presentation, into: canvas, background: .black)
            // 26 records: the root, four rows of one and five tiles, the mover. From the third
            // frame both frames replay the same four rows: the root and the mover are compared.
            #expect(renderer.previous?.count == 26)
            if frame >= 2 {
                #expect(renderer.recordsCompared == 2, "frame \(frame)")
                // The mover's old and new boxes, 4.4 px apart (12.4 px together), rounded out
                // to whole pixels and a pixel more each side for anti-aliasing: at most 16 px
                // wide, and nothing of the rows (the last row's tiles end at y = 55).
                let box = try #require(damage)
                #expect(box.y0 >= 55 && box.y1 <= 64 && box.width <= 16, "frame \(frame): \(box)")
            }
        }
        // Drawn in full only at the end: another walk of the same copies without damage
        // records keeps its own drawings in their place.
        let full = PixelBuffer(width: 96, height: 64)
        Renderer().render(try #require(tree.root.presentation()), into: Canvas(target: full), background: .black)
        #expect(Pixels.differing(incremental, full) == 0)
    }

    @Test("records replayed from the same drawing in the same place are skipped and any other replay compared: the damage is what comparing every record gives", arguments: 0..<32)
    func skippingReplaysKeepsTheDamage(seed: UInt64) {
        var n = Numbers(state: seed &+ 5)
        let count = 12
        func record(_ i: Int, variant: Int) -> (key: DrawKey, record: DrawRecord) {
            (DrawKey(layer: ObjectIdentifier(DamageTests.self), occurrence: i),
             DrawRecord(box: PixelRect(x0: i * 8, y0: variant * 4, x1: i * 8 + 6, y1: variant * 4 + 10), digest: variant))
        }
        let before = (0..<count).map { record($0, variant: n.pick(3)) }
        var after = (0..<count).map { record($0, variant: n.pick(3)) }
        let key = SubtreeDrawing.Key(toTarget: .identity, toDevice: nil, alpha: 1, shownAlpha: 1, targetWidth: 96, targetHeight: 64,
                                     recordsDamage: true, canvasWidth: 96, canvasHeight: 64, order: 0)
        func drawing(_ records: ArraySlice<(key: DrawKey, record: DrawRecord)>) -> SubtreeDrawing {
            SubtreeDrawing(key: key, operations: [], records: Array(records), outlines: [], layersDrawn: records.count)
        }
        // One stretch replayed in both frames: from the same drawing (the same records in
        // both), or from another one in the second frame (its records, which may differ).
        let start = n.pick(count - 2), length = 1 + n.pick(count - start - 1)
        let stretch = start..<(start + length)
        let old = drawing(before[stretch])
        let same = n.pick(2) == 0
        if same { after.replaceSubrange(stretch, with: before[stretch]) }
        let new = same ? old : drawing(after[stretch])
        func records(_ entries: [(key: DrawKey, record: DrawRecord)], replaying drawing: SubtreeDrawing?) -> DrawRecords {
            var records = DrawRecords()
            for i in entries.indices where drawing == nil || !stretch.contains(i) {
                if i == stretch.upperBound, let drawing { records.appendReplay(of: drawing) }
                records.append(entries[i])
            }
            if stretch.upperBound == count, let drawing { records.appendReplay(of: drawing) }
            return records
        }
        let canvas = PixelRect(width: 96, height: 64)
        var compared = 0
        let skipping = Renderer.damage(from: records(before, replaying: old), to: records(after, replaying: new), in: canvas,
                                       outlines: ([:], [:]), tolerance: Path.defaultFlatteningTolerance, compared: &compared)
        #expect(records(after, replaying: new).all.map(\.record) == after.map(\.record))
        let everyRecord = Renderer.damage(from: records(before, replaying: nil), to: records(after, replaying: nil), in: canvas)
        #expect(skipping.drawn == everyRecord.drawn, "stretch \(stretch), same drawing: \(same)")
        #expect(compared == (same ? count - length : count))
    }
}
