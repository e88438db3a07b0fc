import Testing
@testable import LaminaAnimation
@testable import LaminaGeometry
@testable import LaminaLayers
@testable import LaminaRaster

/// Rules whose behaviour is spread over the engine, each pinned here by number.
@Suite("Defaults and cross-cutting rules (4, 13, 14, 47, 48, 60)")
struct RuleCoverageTests {
    @Test("animation defaults (rule 4)")
    func animationDefaults() {
        let a = BasicAnimation(keyPath: "opacity")
        #expect(a.timing.duration == 0 && a.timing.beginTime == 0 && a.timing.speed == 1 && a.timing.timeOffset == 0)
        #expect(a.timing.repeatCount == 0 && a.timing.repeatDuration == 0 && !a.timing.autoreverses)
        #expect(a.timing.fillMode == .removed && a.isRemovedOnCompletion && a.timingFunction == nil && a.delegate == nil)
        #expect(!a.isAdditive && !a.isCumulative && a.fromValue == nil && a.toValue == nil && a.byValue == nil)
    }

    @Test("an explicit animation without a curve is linear; implicit ones use default; block animations ease in-out (rule 13)")
    func defaultCurves() throws {
        let explicit = BasicAnimation(keyPath: "opacity", from: .scalar(0), to: .scalar(1), duration: 1)
        #expect(explicit.progress(for: MediaTiming.Phase(simpleTime: 0.3, fraction: 0.3, iteration: 0)) == 0.3)
        let root = Layer(), layer = Layer()
        root.addSublayer(layer)
        let tree = LayerTree(root: root)
        tree.commit(at: 0)
        tree.updatePresentation(at: 0)
        layer.opacity = 0.5
        #expect(layer.animation(forKey: "opacity")?.timingFunction?.name == "default")
        layer.removeAllAnimations()
        Layer.animate(withDuration: 1, animations: { layer.opacity = 0.2 })
        #expect(layer.animation(forKey: "opacity")?.timingFunction?.name == "easeInEaseOut")
        Transaction.flush()
    }

    @Test("with autoreverses the curve applies after the fold: the way back mirrors the way there (rule 14)")
    func curveAfterFold() {
        var a = BasicAnimation(keyPath: "opacity", from: .scalar(0), to: .scalar(1), duration: 1)
        a.timing.autoreverses = true
        a.timingFunction = .easeIn
        for t in [0.2, 0.4, 0.7] {
            let there = a.progress(for: a.timing.phase(at: t)!)
            let back = a.progress(for: a.timing.phase(at: 2 - t)!)
            #expect(abs(there - back) < 1e-12 && abs(there - TimingFunction.easeIn(t)) < 1e-12)
        }
    }

    @Test("one presentation object per layer per frame: kept while nothing in its subtree changes or animates, rewritten or rebuilt when something does, never changed once held (rule 47, decisions 128, 129)")
    func presentationIdentity() throws {
        let root = Layer(), layer = Layer(), still = Layer()
        root.addSublayer(layer)
        root.addSublayer(still)
        let tree = LayerTree(root: root)
        tree.commit(at: 0)
        tree.updatePresentation(at: 0)
        let first = try #require(layer.presentation())
        let stillFirst = try #require(still.presentation())
        #expect(layer.presentation() === first)
        #expect(first.superlayer === root.presentation())
        tree.updatePresentation(at: 1)
        #expect(layer.presentation() === first)                        // nothing changed: the same copy
        layer.opacity = 0.5                                           // implicit: animates until 1.25
        tree.commit(at: 1)
        tree.updatePresentation(at: 1.1)
        let animating = try #require(layer.presentation())
        #expect(animating !== first && abs(animating.opacity - 0.5) > 0.01 && abs(animating.opacity - 1) > 0.01)
        #expect(still.presentation() === stillFirst)                  // a sibling that did not change
        #expect(stillFirst.superlayer === root.presentation())
        #expect(first.opacity == 1)                                   // a copy held keeps its frame's values
        let shownAt1_1 = animating.opacity
        tree.updatePresentation(at: 1.2)
        #expect(layer.presentation() !== animating)                   // held: the next frame is a new copy
        #expect(animating.opacity == shownAt1_1 && layer.presentation()!.opacity != shownAt1_1)
        // Held by nothing but the layer, a plain layer's copy is rewritten in place (decision 129).
        weak var unheld = layer.presentation()
        let shownAt1_2 = layer.presentation()!.opacity
        tree.updatePresentation(at: 1.22)
        #expect(unheld != nil && layer.presentation() === unheld && unheld!.opacity < shownAt1_2)
        tree.updatePresentation(at: 2)                                 // the animation ends (and is removed) here
        tree.updatePresentation(at: 3)                                 // the model, without it
        let settled = try #require(layer.presentation())
        #expect(settled.opacity == 0.5)
        tree.updatePresentation(at: 4)
        #expect(layer.presentation() === settled)
    }

    @Test("a copy rewritten in place points at its superlayer's copy after the layer moves, and a mask's at none (decision 129)")
    func rewrittenCopySuperlayer() throws {
        let root = Layer(), a = Layer(), b = Layer(), moving = Layer()
        root.addSublayer(a)
        root.addSublayer(b)
        a.addSublayer(moving)
        let tree = LayerTree(root: root)
        moving.add(BasicAnimation(keyPath: "opacity", to: .scalar(0), duration: 10), forKey: "fade")
        tree.commit(at: 0)
        tree.updatePresentation(at: 0.1)
        weak var copy = moving.presentation()
        #expect(copy != nil && copy?.superlayer === a.presentation())
        b.addSublayer(moving)
        tree.commit(at: 0.2)
        tree.updatePresentation(at: 0.2)
        #expect(moving.presentation() === copy && copy?.superlayer === b.presentation())
        moving.removeFromSuperlayer()
        b.mask = moving
        tree.commit(at: 0.3)
        tree.updatePresentation(at: 0.3)
        #expect(moving.presentation() === copy && b.presentation()?.mask === copy)
        #expect(copy != nil && copy?.superlayer == nil)
    }

    @Test("layer and shape layer defaults (rules 48, 60)")
    func drawingDefaults() {
        let l = Layer()
        #expect(l.cornerRadius == 0 && l.borderWidth == 0 && l.borderColor == .black && !l.masksToBounds)
        #expect(l.shadowColor == .black && l.shadowOpacity == 0 && l.shadowOffset == Size(width: 0, height: -3) && l.shadowRadius == 3)
        #expect(l.anchorPointZ == 0 && l.sublayerTransform == .identity && l.isDoubleSided && !l.isGeometryFlipped)
        #expect(l.contentsScale == 1 && l.contentsGravity == .resize && l.contents == nil && l.mask == nil)
        #expect(l.beginTime == 0 && l.speed == 1 && l.timeOffset == 0)
        let s = ShapeLayer()
        #expect(s.strokeColor == nil && s.lineWidth == 1 && s.miterLimit == 10 && s.strokeStart == 0 && s.strokeEnd == 1)
        #expect(s.lineCap == .butt && s.lineJoin == .miter && s.lineDashPattern.isEmpty && s.lineDashPhase == 0)
        let t = TextLayer()
        #expect(t.fontSize == 36 && t.foregroundColor == .white && t.alignmentMode == .natural && !t.isWrapped)
    }
}

@Suite("Setting frame under a transform (rule 50) and control points (rule 11)")
struct FrameAndControlPointTests {
    @Test("frame = r under a scale divides the size by the scale factors and keeps bounds.origin")
    func frameUnderScale() {
        let layer = Layer()
        layer.bounds = Rect(x: 3, y: 4, width: 10, height: 10)
        layer.transform = Transform3D(scaleX: 2, y: 4, z: 1)
        layer.frame = Rect(x: 0, y: 0, width: 100, height: 80)
        #expect(layer.bounds == Rect(x: 3, y: 4, width: 50, height: 20))
        #expect(layer.position == Point(x: 50, y: 40))
        #expect(layer.frame == Rect(x: 0, y: 0, width: 100, height: 80))   // reads back
    }

    @Test("control points 0…3 of a named curve")
    func controlPoints() {
        let f = TimingFunction.easeInEaseOut
        #expect(f.controlPoint(at: 0) == (0, 0) && f.controlPoint(at: 1) == (0.42, 0))
        #expect(f.controlPoint(at: 2) == (0.58, 1) && f.controlPoint(at: 3) == (1, 1))
    }
}

@Suite("Value interpolation and custom actions (rules 1, 19, 40)")
struct InterpolationTests {
    @Test("colours interpolate componentwise with alpha, unpremultiplied; a nil colour shows nil; Booleans switch once t > 0 (rule 19)")
    func values() {
        let a = AnimatableValue.color(Color(red: 1, green: 0, blue: 0, alpha: 0))
        let b = AnimatableValue.color(Color(red: 0, green: 0, blue: 1, alpha: 1))
        #expect(a.interpolated(to: b, by: 0.25) == .color(Color(red: 0.75, green: 0, blue: 0.25, alpha: 0.25)))
        #expect(AnimatableValue.color(nil).interpolated(to: b, by: 0.5) == b)
        #expect(AnimatableValue.bool(false).interpolated(to: .bool(true), by: 0) == .bool(false))
        #expect(AnimatableValue.bool(false).interpolated(to: .bool(true), by: 1e-9) == .bool(true))
    }

    @Test("engine code never reads a clock: the same times give the same presentation, whenever they are evaluated (rule 1)")
    func injectedTime() throws {
        func sample() throws -> Double {
            let root = Layer(), layer = Layer()
            root.addSublayer(layer)
            let tree = LayerTree(root: root)
            tree.commit(at: 1000)
            tree.updatePresentation(at: 1000)
            layer.add(BasicAnimation(keyPath: "opacity", from: .scalar(0), to: .scalar(1), duration: 2), forKey: "f")
            tree.commit(at: 1000)
            tree.updatePresentation(at: 1000.5)
            return try #require(layer.presentation()).opacity
        }
        #expect(try sample() == 0.25 && sample() == 0.25)
    }

    @Test("a custom action can be a transition: actions[\"contents\"] = push (acceptance: custom push action)")
    func customPush() {
        let root = Layer(), layer = Layer()
        root.addSublayer(layer)
        let tree = LayerTree(root: root)
        tree.commit(at: 0)
        tree.updatePresentation(at: 0)
        layer.actions = ["backgroundColor": .action(Transition(kind: .push, subtype: .fromRight, duration: 0.3))]
        layer.backgroundColor = .white
        #expect(layer.animationKeys() == ["transition"])
        Transaction.flush()
    }
}
