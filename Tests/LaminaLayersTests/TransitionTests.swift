import Testing
@testable import LaminaAnimation
@testable import LaminaGeometry
@testable import LaminaLayers
@testable import LaminaRaster

private func frame(_ tree: LayerTree, _ t: Double) {
    tree.commit(at: t)
    for callback in tree.updatePresentation(at: t) { callback() }
}

@Suite("Transitions (rule 34)")
struct TransitionTests {
    /// A 20×10 layer at the left of a 40×10 canvas, red, then turned blue under `transition`.
    func run(_ transition: Transition, at t: Double) throws -> (PixelBuffer, Layer) {
        let root = Layer()
        root.bounds = Rect(x: 0, y: 0, width: 40, height: 10)
        root.anchorPoint = .zero
        let panel = Layer()
        panel.bounds = Rect(x: 0, y: 0, width: 20, height: 10)
        panel.anchorPoint = .zero
        panel.backgroundColor = Color(red: 1, green: 0, blue: 0)
        root.addSublayer(panel)
        let tree = LayerTree(root: root)
        frame(tree, 0)
        Transaction.begin()
        Transaction.disableActions = true
        panel.backgroundColor = Color(red: 0, green: 0, blue: 1)
        panel.add(transition)
        Transaction.commit()
        frame(tree, 0)
        frame(tree, t)
        let buffer = PixelBuffer(width: 40, height: 10)
        Renderer().render(try #require(root.presentation()), into: Canvas(target: buffer), background: .black)
        return (buffer, panel)
    }

    @Test("always under the key 'transition'; removed at its end, leaving the new look")
    func key() throws {
        let (_, panel) = try run(Transition(kind: .fade, duration: 1), at: 0.5)
        #expect(panel.animationKeys() == ["transition"])
        let (after, ended) = try run(Transition(kind: .fade, duration: 1), at: 1)
        #expect(ended.animationKeys().isEmpty)
        #expect(after[5, 5] == 0xFF00_00FF)
    }

    @Test("push from the right: halfway, the old picture's right half on the left, the new one's left half on the right")
    func push() throws {
        let (b, _) = try run(Transition(kind: .push, subtype: .fromRight, duration: 1), at: 0.5)
        #expect(b[2, 5] == 0xFFFF_0000 && b[9, 5] == 0xFFFF_0000)
        #expect(b[10, 5] == 0xFF00_00FF && b[29, 5] == 0xFF00_00FF)          // the new picture, 10 px right
        #expect(b[30, 5] == 0xFF00_0000)
    }

    @Test("fade: halfway, the old picture at half strength under the new at half")
    func fade() throws {
        let (b, _) = try run(Transition(kind: .fade, duration: 1), at: 0.5)
        let p = b[5, 5]
        #expect(abs(Int(p >> 16 & 0xFF) - 64) <= 1 && abs(Int(p & 0xFF) - 128) <= 1)
    }

    @Test("moveIn from the top slides the new picture down over the old; reveal slides the old away on top")
    func moveInAndReveal() throws {
        let (moving, _) = try run(Transition(kind: .moveIn, subtype: .fromTop, duration: 1), at: 0.5)
        #expect(moving[5, 2] == 0xFF00_00FF)                                // the new, 5 px up: rows −5 ..< 5
        #expect(moving[5, 7] == 0xFFFF_0000)                                // the old still below it
        let (revealing, _) = try run(Transition(kind: .reveal, subtype: .fromRight, duration: 1), at: 0.5)
        #expect(revealing[2, 5] == 0xFFFF_0000)                             // the old, moved 10 px left, on top
        #expect(revealing[15, 5] == 0xFF00_00FF)                            // the new, uncovered in place
    }
}
