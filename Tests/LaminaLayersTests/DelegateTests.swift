import Testing
@testable import LaminaAnimation
@testable import LaminaGeometry
@testable import LaminaLayers
@testable import LaminaRaster

/// Records what an animation delegate hears, in order, into a shared log.
private final class Recorder: AnimationDelegate {
    let name: String
    let log: Log
    init(_ name: String, _ log: Log) { self.name = name; self.log = log }
    func animationDidStart(_ animation: BasicAnimation) { log.entries.append("\(name) start") }
    func animationDidStop(_ animation: BasicAnimation, finished: Bool) { log.entries.append("\(name) stop \(finished)") }
}

private final class Log { var entries: [String] = [] }

private func frame(_ tree: LayerTree, _ t: Double) {
    tree.commit(at: t)
    for callback in tree.updatePresentation(at: t) { callback() }
}

@Suite("Animation delegates and completion order (rule 35)")
struct DelegateTests {
    func makeTree() -> (LayerTree, Layer) {
        let root = Layer(), child = Layer()
        root.addSublayer(child)
        let tree = LayerTree(root: root)
        frame(tree, 0)
        return (tree, child)
    }

    @Test("start arrives after the commit; at the natural end the transaction block runs, then the stop")
    func naturalOrder() {
        let (tree, child) = makeTree()
        let log = Log()
        var a = BasicAnimation(keyPath: "opacity", from: .scalar(0), to: .scalar(1), duration: 1)
        a.delegate = Recorder("fade", log)
        Transaction.begin()
        Transaction.completionBlock = { log.entries.append("block") }
        child.add(a, forKey: "fade")
        Transaction.commit()
        tree.commit(at: 0)
        #expect(log.entries.isEmpty)                                       // never inside commit
        for callback in tree.updatePresentation(at: 0) { callback() }
        #expect(log.entries == ["fade start"])
        frame(tree, 1)
        #expect(log.entries == ["fade start", "block", "fade stop true"])
    }

    @Test("removeAnimation: the block, then the stop unfinished; replacing under a key stops the old one unfinished")
    func removalOrder() {
        let (tree, child) = makeTree()
        let log = Log()
        var a = BasicAnimation(keyPath: "opacity", from: .scalar(0), to: .scalar(1), duration: 1)
        a.delegate = Recorder("a", log)
        Transaction.begin()
        Transaction.completionBlock = { log.entries.append("block") }
        child.add(a, forKey: "k")
        Transaction.commit()
        frame(tree, 0)
        child.removeAnimation(forKey: "k")
        #expect(log.entries == ["a start"])                                // delivered later
        frame(tree, 0.1)
        #expect(log.entries == ["a start", "block", "a stop false"])
        var b = BasicAnimation(keyPath: "opacity", from: .scalar(0), to: .scalar(1), duration: 1)
        b.delegate = Recorder("b", log)
        child.add(b, forKey: "k")
        frame(tree, 0.2)
        var c = b
        c.delegate = Recorder("c", log)
        child.add(c, forKey: "k")
        frame(tree, 0.3)
        #expect(log.entries.suffix(3) == ["b start", "b stop false", "c start"])
    }

    @Test("a layer leaving the tree stops its subtree's animations unfinished; one in no tree starts and stops at once")
    func leavingTheTree() {
        let (tree, child) = makeTree()
        let grandchild = Layer()
        child.addSublayer(grandchild)
        let log = Log()
        var a = BasicAnimation(keyPath: "position.x", from: .scalar(0), to: .scalar(9), duration: 5)
        a.delegate = Recorder("deep", log)
        grandchild.add(a, forKey: "move")
        frame(tree, 0)
        child.removeFromSuperlayer()
        #expect(grandchild.animationKeys().isEmpty)
        frame(tree, 0.1)
        #expect(log.entries == ["deep start", "deep stop false"])
        let loose = Layer()
        var b = a
        b.delegate = Recorder("loose", log)
        loose.add(b, forKey: "move")
        #expect(loose.animationKeys().isEmpty)
        frame(tree, 0.2)
        #expect(log.entries.suffix(2) == ["loose start", "loose stop false"])
    }

    @Test("acceptance: a button's ripple grows and fades, then its delegate removes it from the tree")
    func ripple() throws {
        final class RippleRemover: AnimationDelegate {
            weak var ripple: Layer?
            func animationDidStop(_ animation: BasicAnimation, finished: Bool) { ripple?.removeFromSuperlayer() }
        }
        let root = Layer()
        root.bounds = Rect(x: 0, y: 0, width: 200, height: 80)
        root.anchorPoint = .zero
        let button = ShapeLayer()
        button.bounds = Rect(x: 0, y: 0, width: 200, height: 80)
        button.anchorPoint = .zero
        root.addSublayer(button)
        let tree = LayerTree(root: root)
        frame(tree, 0)
        let ripple = ShapeLayer()
        ripple.bounds = Rect(x: 0, y: 0, width: 40, height: 40)
        ripple.position = Point(x: 60, y: 40)
        ripple.path = Path(ovalIn: ripple.bounds)
        ripple.fillColor = .white
        button.addSublayer(ripple)
        let remover = RippleRemover()
        remover.ripple = ripple
        button.masksToBounds = true                                        // the fill is clipped to the button
        button.cornerRadius = 12
        button.path = Path(roundedRect: button.bounds, cornerRadius: 12)
        button.fillColor = nil
        button.strokeColor = .white                                         // the outline stays outside the ripple
        var grow = AnimationGroup(animations: [
            BasicAnimation(keyPath: "transform.scale", from: .scalar(0.2), to: .scalar(4)),
            BasicAnimation(keyPath: "opacity", from: .scalar(0.6), to: .scalar(0)),
        ], duration: 0.5)
        grow.delegate = remover
        ripple.add(grow, forKey: "ripple")
        frame(tree, 1)
        frame(tree, 1.25)
        let shown = try #require(ripple.presentation())
        #expect(abs(shown.opacity - 0.3) < 1e-9)
        if case .scalar(let scale)? = shown.value(forKeyPath: "transform.scale") { #expect(abs(scale - 2.1) < 1e-9) }
        #expect(button.sublayers.count == 1)
        let buffer = PixelBuffer(width: 200, height: 80)
        Renderer().render(try #require(root.presentation()), into: Canvas(target: buffer), background: .black)
        #expect(buffer[60, 40] >> 16 & 0xFF > 0)                            // the ripple shows inside the button
        frame(tree, 1.5)                                                    // the end: the delegate removes it
        #expect(button.sublayers.isEmpty && ripple.superlayer == nil)
        frame(tree, 1.6)
        #expect(try #require(button.presentation()).sublayers.isEmpty)
    }
}
