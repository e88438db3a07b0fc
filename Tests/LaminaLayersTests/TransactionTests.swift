import Testing
@testable import LaminaAnimation
@testable import LaminaGeometry
@testable import LaminaLayers

/// A committed, rendered tree with one sublayer, at media time `time`.
private func renderedTree(time: Double = 0) -> (LayerTree, Layer) {
    let root = Layer()
    let child = Layer()
    child.bounds = Rect(x: 0, y: 0, width: 100, height: 50)
    root.addSublayer(child)
    let tree = LayerTree(root: root)
    tree.commit(at: time)
    tree.updatePresentation(at: time)
    return (tree, child)
}

/// Runs one frame: commit, presentation, then the callbacks, as the frame loop does.
private func frame(_ tree: LayerTree, at time: Double) {
    tree.commit(at: time)
    for callback in tree.updatePresentation(at: time) { callback() }
}

@Suite("Transactions (rules 36–39)")
struct TransactionTests {
    @Test("with none open: 0.25 s, actions enabled, no curve; arbitrary keys round-trip; commit alone is a no-op (rule 36)")
    func defaults() {
        #expect(Transaction.animationDuration == 0.25)
        #expect(Transaction.disableActions == false)
        #expect(Transaction.animationTimingFunction == nil)
        #expect(Transaction.completionBlock == nil)
        #expect(Transaction.value(forKey: "animationDuration") as? Double == 0.25)
        Transaction.setValue("kiosk", forKey: "lamina.custom")
        #expect(Transaction.value(forKey: "lamina.custom") as? String == "kiosk")
        Transaction.commit()                                              // nothing open: no-op
        #expect(Transaction.value(forKey: "lamina.custom") as? String == "kiosk")
        Transaction.lock(); Transaction.lock(); Transaction.unlock(); Transaction.unlock(); Transaction.unlock()
        Transaction.flush()                                               // the implicit transaction commits
        #expect(Transaction.value(forKey: "lamina.custom") == nil)
    }

    @Test("a nested transaction starts from its parent's values; its changes vanish at its commit (rule 37)")
    func nesting() {
        Transaction.begin()
        Transaction.animationDuration = 2
        Transaction.animationTimingFunction = .easeIn
        Transaction.begin()
        #expect(Transaction.animationDuration == 2)
        #expect(Transaction.animationTimingFunction?.name == "easeIn")
        Transaction.animationDuration = 5
        Transaction.disableActions = true
        Transaction.commit()
        #expect(Transaction.animationDuration == 2)
        #expect(Transaction.disableActions == false)
        Transaction.commit()
        #expect(Transaction.animationDuration == 0.25)
        #expect(!Transaction.isExplicitlyOpen)
    }

    @Test("a completion block waits for the animations added after it, nested ones included; then each animation's own stop (rules 35, 39)")
    func completionWaitsForAnimations() {
        let (tree, child) = renderedTree()
        var log: [String] = []
        Transaction.begin()
        child.add(BasicAnimation(keyPath: "opacity", from: .scalar(0), to: .scalar(1), duration: 1), forKey: "before") {
            log.append("before \($0)")
        }
        Transaction.completionBlock = { log.append("block") }
        Transaction.begin()
        child.add(BasicAnimation(keyPath: "position.x", from: .scalar(0), to: .scalar(9), duration: 2), forKey: "nested") {
            log.append("nested \($0)")
        }
        Transaction.commit()
        Transaction.commit()
        #expect(log.isEmpty)                                              // never inside commit()
        frame(tree, at: 0)
        frame(tree, at: 1)
        #expect(log == ["before true"])                                   // added before the block: not waited on
        frame(tree, at: 2)
        #expect(log == ["before true", "block", "nested true"])           // block first, then the stop
    }

    @Test("with no animations the block runs after the commit, from the frame loop (rule 39)")
    func completionWithoutAnimations() {
        let (tree, _) = renderedTree()
        var ran = 0
        Transaction.begin()
        Transaction.completionBlock = { ran += 1 }
        Transaction.commit()
        #expect(ran == 0)
        #expect(tree.needsFrame)                                          // the frame loop must come round
        frame(tree, at: 0.1)
        #expect(ran == 1)
        frame(tree, at: 0.2)
        #expect(ran == 1)
    }

    @Test("a replaced block still runs when the animations it waited on end; a removed animation counts as ended (rule 39)")
    func replacedBlock() {
        let (tree, child) = renderedTree()
        var log: [String] = []
        Transaction.begin()
        Transaction.completionBlock = { log.append("first") }
        child.add(BasicAnimation(keyPath: "opacity", from: .scalar(0), to: .scalar(1), duration: 1), forKey: "a")
        Transaction.completionBlock = { log.append("second") }
        child.add(BasicAnimation(keyPath: "position.y", from: .scalar(0), to: .scalar(1), duration: 3), forKey: "b")
        Transaction.commit()
        frame(tree, at: 0)
        frame(tree, at: 1)
        #expect(log == ["first"])
        child.removeAnimation(forKey: "b")
        frame(tree, at: 1.5)
        #expect(log == ["first", "second"])
    }
}

/// A delegate answering from a table; nil entries let the search continue.
private final class TableDelegate: LayerDelegate {
    var answers: [String: ActionAnswer] = [:]
    func action(for layer: Layer, forKey key: String) -> ActionAnswer? { answers[key] }
}

/// A subclass with its own class-level default action.
private final class BouncyLayer: Layer {
    override class func defaultAction(forKey key: String) -> (any LayerAction)? {
        key == "zPosition" ? BasicAnimation(keyPath: "zPosition", by: .scalar(1), duration: 9) : nil
    }
}

/// Records runs, to see which action the search found.
private struct Marker: LayerAction {
    let name: String
    let log: Log
    func run(forKey key: String, on layer: Layer) { log.entries.append("\(name):\(key)") }
}

private final class Log { var entries: [String] = [] }

@Suite("Implicit actions (rules 40–42)")
struct ImplicitActionTests {
    @Test("lookup order: delegate, actions, style (nested), defaultAction, stock; .none ends the search (rule 40)")
    func lookupOrder() {
        let (tree, child) = renderedTree()
        defer { withExtendedLifetime(tree) {} }                           // the layer stays in a rendered tree
        let log = Log()
        let delegate = TableDelegate()
        child.delegate = delegate
        child.style = LayerStyle(actions: ["anchorPoint": .action(Marker(name: "style", log: log))],
                                 style: LayerStyle(actions: ["zPosition": .action(Marker(name: "nested style", log: log))]))
        child.actions = ["position": .action(Marker(name: "actions", log: log)), "bounds": .none,
                         "anchorPoint": .action(Marker(name: "actions", log: log))]
        delegate.answers = ["position": .action(Marker(name: "delegate", log: log)), "opacity": .none]

        child.position = Point(x: 1, y: 1)                                // the delegate wins
        child.bounds = Rect(x: 0, y: 0, width: 5, height: 5)              // actions: .none → nothing
        child.anchorPoint = Point(x: 0, y: 0)                             // actions before style
        child.zPosition = 3                                               // the nested style
        child.opacity = 0.5                                               // the delegate's .none: no stock animation
        #expect(log.entries == ["delegate:position", "actions:anchorPoint", "nested style:zPosition"])
        #expect(child.animationKeys().isEmpty)

        delegate.answers = [:]
        child.actions = [:]
        child.style = nil
        child.opacity = 0.25                                              // nothing answers: the stock animation
        #expect(child.animationKeys() == ["opacity"])
        Transaction.flush()
    }

    @Test("a class's defaultAction(forKey:) comes before the stock animation (rule 40)")
    func classDefault() {
        let root = Layer(), layer = BouncyLayer()
        root.addSublayer(layer)
        let tree = LayerTree(root: root)
        frame(tree, at: 0)
        layer.zPosition = 4
        #expect(layer.animation(forKey: "zPosition")?.timing.duration == 9)
        Transaction.flush()
    }

    @Test("disableActions keeps the search result and only stops the action running (rule 40)")
    func disableActions() {
        let (tree, child) = renderedTree()
        defer { withExtendedLifetime(tree) {} }                           // the layer stays in a rendered tree
        Transaction.begin()
        Transaction.disableActions = true
        child.opacity = 0.3
        #expect(child.animationKeys().isEmpty)
        #expect(child.action(forKey: "opacity", oldValue: .scalar(1)) != nil)
        Transaction.commit()
    }

    @Test("no stock action for a never-rendered layer, or one added and changed in the same transaction (rule 40)")
    func onlyRenderedLayers() {
        let loose = Layer()
        loose.opacity = 0.5
        #expect(loose.animationKeys().isEmpty)
        let (tree, child) = renderedTree()
        let newcomer = Layer()
        child.addSublayer(newcomer)
        newcomer.position = Point(x: 3, y: 4)
        #expect(newcomer.animationKeys().isEmpty)
        frame(tree, at: 1)
        newcomer.position = Point(x: 5, y: 6)                             // rendered now: animates
        #expect(newcomer.animationKeys() == ["position"])
        Transaction.flush()
    }

    @Test("which keys animate: geometry, opacity, colours from a colour; not position.x, speed, name or a colour from nil (rule 41)")
    func defaultTable() {
        let (tree, child) = renderedTree()
        defer { withExtendedLifetime(tree) {} }                           // the layer stays in a rendered tree
        let animated: [(String, AnimatableValue)] = [
            ("position", .point(Point(x: 9, y: 9))), ("bounds", .rect(Rect(x: 0, y: 0, width: 1, height: 1))),
            ("zPosition", .scalar(2)), ("anchorPoint", .point(.zero)), ("transform", .transform(Transform3D(scaleX: 2, y: 2, z: 1))),
            ("opacity", .scalar(0.5)),
        ]
        for (key, value) in animated {
            child.setValue(value, forKeyPath: key)
            #expect(child.animationKeys().contains(key), "\(key)")
        }
        child.removeAllAnimations()
        child.setValue(.scalar(4), forKeyPath: "position.x")
        child.speed = 2
        child.name = "renamed"
        child.backgroundColor = .white                                    // from nil: no animation
        #expect(child.animationKeys().isEmpty)
        child.backgroundColor = .black                                    // from white: animates
        #expect(child.animationKeys() == ["backgroundColor"])
        let shape = ShapeLayer()
        child.addSublayer(shape)
        frame(tree, at: 0)
        shape.fillColor = .white                                          // shape keys: Lamina choice, animate
        #expect(shape.animationKeys() == ["fillColor"])
        Transaction.flush()
    }

    @Test("the implicit animation object: key = property, from the previous value, no to, backwards fill, default curve, transaction duration (rule 42)")
    func implicitAnimationObject() throws {
        let (tree, child) = renderedTree()
        defer { withExtendedLifetime(tree) {} }                           // the layer stays in a rendered tree
        Transaction.begin()
        Transaction.animationDuration = 0.6
        child.opacity = 0.4
        Transaction.commit()
        let a = try #require(child.animation(forKey: "opacity"))
        #expect(a.keyPath == "opacity")
        #expect(a.fromValue == .scalar(1) && a.toValue == nil && a.byValue == nil)
        #expect(a.timing.duration == 0.6 && a.timing.fillMode == .backwards)
        #expect(a.timingFunction?.name == "default")
        #expect(a.isRemovedOnCompletion)
        Transaction.begin()
        Transaction.animationTimingFunction = .easeOut
        child.zPosition = 1
        Transaction.commit()
        #expect(child.animation(forKey: "zPosition")?.timingFunction?.name == "easeOut")
    }

    @Test("setting frame runs the position action, then the bounds action (rule 42)")
    func frameKeys() {
        let (tree, child) = renderedTree()
        defer { withExtendedLifetime(tree) {} }                           // the layer stays in a rendered tree
        child.frame = Rect(x: 10, y: 20, width: 40, height: 30)
        #expect(child.animationKeys() == ["position", "bounds"])
        #expect(child.position == Point(x: 30, y: 35) && child.bounds.size == Size(width: 40, height: 30))
        Transaction.flush()
    }

    @Test("acceptance: an implicit colour change shows the old colour at once and eases to the new one in 0.25 s")
    func implicitColourChange() throws {
        let (tree, child) = renderedTree(time: 50)
        child.backgroundColor = .black
        frame(tree, at: 50)
        child.backgroundColor = Color(red: 1, green: 0, blue: 0)
        #expect(child.backgroundColor == Color(red: 1, green: 0, blue: 0))   // the model changes at once
        frame(tree, at: 50)
        #expect(try #require(child.presentation()).backgroundColor == .black)
        frame(tree, at: 50.125)
        let eased = TimingFunction.default(0.5)
        let presented = try #require(child.presentation())
        let shown = try #require(presented.backgroundColor)
        #expect(abs(shown.red - eased) < 1e-12 && shown.green == 0 && shown.blue == 0)
        frame(tree, at: 50.25)
        #expect(try #require(child.presentation()).backgroundColor == Color(red: 1, green: 0, blue: 0))
        #expect(child.animationKeys().isEmpty)
        #expect(!tree.needsFrame)
    }
}

/// Records which keys a layer's delegate is asked for.
private final class AskLog: LayerDelegate {
    var asked: [String] = []
    func action(for layer: Layer, forKey key: String) -> ActionAnswer? {
        asked.append("\(layer.name ?? "?"):\(key)")
        return nil
    }
}

@Suite("Tree events (rule 43)")
struct TreeEventTests {
    @Test("adding asks the superlayer for sublayers and the newcomer for onOrderIn; removing asks sublayers and onOrderOut; reordering only sublayers")
    func events() {
        let (tree, parent) = renderedTree()
        defer { withExtendedLifetime(tree) {} }
        let log = AskLog()
        parent.name = "parent"
        parent.delegate = log
        let child = Layer()
        child.name = "child"
        child.delegate = log
        parent.addSublayer(child)
        #expect(log.asked == ["parent:sublayers", "child:onOrderIn"])
        let other = Layer()
        other.name = "other"
        parent.addSublayer(other)
        log.asked.removeAll()
        parent.insertSublayer(other, at: 0)
        #expect(log.asked == ["parent:sublayers"])
        log.asked.removeAll()
        child.removeFromSuperlayer()
        #expect(log.asked == ["parent:sublayers", "child:onOrderOut"])
        Transaction.flush()
    }

    @Test("an actions[\"onOrderIn\"] animation runs under the key onOrderIn")
    func onOrderInAction() {
        let (tree, parent) = renderedTree()
        defer { withExtendedLifetime(tree) {} }
        let badge = Layer()
        badge.actions = ["onOrderIn": .action(BasicAnimation(keyPath: "opacity", from: .scalar(0), to: .scalar(1), duration: 0.3))]
        parent.addSublayer(badge)
        #expect(badge.animationKeys() == ["onOrderIn"])
        Transaction.flush()
    }
}

@Suite("View-backed layers (rule 44)")
struct ViewBackedTests {
    @Test("a view-backed layer never animates implicitly, but block animations animate it")
    func viewBacked() {
        let (tree, child) = renderedTree()
        defer { withExtendedLifetime(tree) {} }
        child.makeViewBacked()
        child.opacity = 0.5
        #expect(child.animationKeys().isEmpty)
        Layer.animate(withDuration: 0.3, animations: { child.opacity = 0.2 })
        #expect(child.animationKeys() == ["opacity"])
        Transaction.flush()
    }
}
