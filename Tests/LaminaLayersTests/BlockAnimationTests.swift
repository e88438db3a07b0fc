import Testing
@testable import LaminaAnimation
@testable import LaminaGeometry
@testable import LaminaLayers

private func frame(_ tree: LayerTree, _ t: Double) {
    tree.commit(at: t)
    for callback in tree.updatePresentation(at: t) { callback() }
}

/// A rendered tree with one 100×100 layer at (50, 50), opacity 1.
private func stage() -> (LayerTree, Layer) {
    let root = Layer(), view = Layer()
    view.bounds = Rect(x: 0, y: 0, width: 100, height: 100)
    view.position = Point(x: 50, y: 50)
    root.addSublayer(view)
    let tree = LayerTree(root: root)
    frame(tree, 0)
    return (tree, view)
}

@Suite("Block animations (rules 13, 67, 68)")
struct BlockAnimationTests {
    @Test("the model changes at once; one animation per property from its prior value; the delay shows the prior value; completion after delay + duration")
    func basics() throws {
        let (tree, view) = stage()
        var done: [Bool] = []
        Layer.animate(withDuration: 1, delay: 0.5, options: .curveLinear, animations: {
            view.opacity = 0.2
            view.opacity = 0                                              // one animation, first prior value
        }, completion: { done.append($0) })
        #expect(view.opacity == 0)
        #expect(view.animationKeys() == ["opacity"])
        let a = try #require(view.animation(forKey: "opacity"))
        #expect(a.fromValue == .scalar(1) && a.toValue == .scalar(0) && a.timing.fillMode == .backwards)
        frame(tree, 10)
        frame(tree, 10.25)
        #expect(try #require(view.presentation()).opacity == 1)           // delay: the prior value
        frame(tree, 11)
        #expect(abs(try #require(view.presentation()).opacity - 0.5) < 1e-9)
        #expect(done.isEmpty)
        frame(tree, 11.5)
        #expect(done == [true])
    }

    @Test("duration ≤ 0 or nothing changed: no animation, completion(true) on the next frame, never inside animate")
    func noAnimation() {
        let (tree, view) = stage()
        var done: [Bool] = []
        Layer.animate(withDuration: 0, animations: { view.opacity = 0.5 }, completion: { done.append($0) })
        Layer.animate(withDuration: 1, animations: {}, completion: { done.append($0) })
        #expect(view.animationKeys().isEmpty && view.opacity == 0.5 && done.isEmpty)
        frame(tree, 1)
        #expect(done == [true, true])
    }

    @Test("re-animating a property: the earlier call completes false, the later true (rule 67)")
    func reanimate() {
        let (tree, view) = stage()
        var log: [String] = []
        Layer.animate(withDuration: 1, animations: { view.opacity = 0 }, completion: { log.append("first \($0)") })
        frame(tree, 0)
        frame(tree, 0.5)
        Layer.animate(withDuration: 1, animations: { view.opacity = 1 }, completion: { log.append("second \($0)") })
        frame(tree, 0.5)
        frame(tree, 1.5)
        #expect(log == ["first false", "second true"])
    }

    @Test("geometry is additive: a second move in flight adds its delta and does not jump (rule 68)")
    func additive() throws {
        let (tree, view) = stage()
        Layer.animate(withDuration: 1, options: .curveLinear, animations: { view.position = Point(x: 150, y: 50) })
        frame(tree, 0)
        frame(tree, 0.5)
        let before = try #require(view.presentation()).position
        #expect(abs(before.x - 100) < 1e-9)
        Layer.animate(withDuration: 1, options: .curveLinear, animations: { view.position = Point(x: 150, y: 150) })
        frame(tree, 0.5)
        let after = try #require(view.presentation()).position
        #expect(abs(after.x - before.x) < 1e-9 && abs(after.y - before.y) < 1e-9)   // no jump
        frame(tree, 1)
        #expect(abs(try #require(view.presentation()).position.y - 100) < 1e-9)
        frame(tree, 1.5)
        #expect(try #require(view.presentation()).position == Point(x: 150, y: 150))
    }

    @Test("frame animates position and bounds; options map to curve, repeat and autoreverse (rules 13, 67, 68)")
    func frameAndOptions() throws {
        let (tree, view) = stage()
        Layer.animate(withDuration: 1, options: [.curveEaseIn, .repeat, .autoreverse],
                      animations: { view.frame = Rect(x: 0, y: 0, width: 50, height: 50) })
        let keys = view.animationKeys()
        #expect(keys.count == 2)
        let animations = keys.compactMap { view.animation(forKey: $0) }
        #expect(Set(animations.map(\.keyPath)) == ["position", "bounds"])
        for a in animations {
            #expect(a.isAdditive && a.timing.repeatCount == .infinity && a.timing.autoreverses)
            #expect(a.timingFunction?.name == "easeIn")
        }
        frame(tree, 0)
        #expect(AnimationOptions.curveLinear.rawValue == 3 << 16 && AnimationOptions.autoreverse.rawValue == 16)
    }
}

@Suite("Nested block animations (rule 68)")
struct NestedBlockTests {
    @Test("a nested block inherits the outer duration and curve unless it overrides them")
    func inheritance() throws {
        let root = Layer(), view = Layer()
        root.addSublayer(view)
        let tree = LayerTree(root: root)
        tree.commit(at: 0)
        tree.updatePresentation(at: 0)
        Layer.animate(withDuration: 2, options: .curveLinear, animations: {
            Layer.animate(withDuration: 0.3, options: .curveEaseIn, animations: { view.opacity = 0.5 })
            Layer.animate(withDuration: 0.3, options: [.curveEaseIn, .overrideInheritedDuration, .overrideInheritedCurve],
                          animations: { view.zPosition = 4 })
        })
        let inherited = try #require(view.animation(forKey: "opacity"))
        #expect(inherited.timing.duration == 2 && inherited.timingFunction?.name == "linear")
        let own = try #require(view.animation(forKey: "zPosition"))
        #expect(own.timing.duration == 0.3 && own.timingFunction?.name == "easeIn")
    }
}
