import Foundation
import LaminaTestSupport
import Testing
@testable import LaminaAnimation
@testable import LaminaGeometry
@testable import LaminaLayers
@testable import LaminaRaster

@Suite("Layer model and presentation")
struct LayerTests {
    /// A tree with one sublayer, committed and presented once at `time`.
    func makeTree(time: Double = 10) -> (LayerTree, Layer) {
        let root = Layer()
        root.bounds = Rect(x: 0, y: 0, width: 400, height: 300)
        root.position = Point(x: 200, y: 150)
        let child = Layer()
        child.bounds = Rect(x: 0, y: 0, width: 100, height: 50)
        child.position = Point(x: 50, y: 25)
        root.addSublayer(child)
        let tree = LayerTree(root: root)
        tree.commit(at: time)
        tree.updatePresentation(at: time)
        return (tree, child)
    }

    @Test("defaults (rule 48)")
    func defaults() {
        let layer = Layer()
        #expect(layer.bounds == .zero && layer.position == .zero)
        #expect(layer.anchorPoint == Point(x: 0.5, y: 0.5) && layer.zPosition == 0)
        #expect(layer.transform == .identity && layer.opacity == 1 && !layer.isHidden)
        #expect(layer.backgroundColor == nil && layer.sublayers.isEmpty)
        let shape = ShapeLayer()
        #expect(shape.path == nil && shape.fillColor == .black && shape.fillRule == .nonZero)   // rule 60
    }

    @Test("presentation is nil until rendered; model() and presentation() relate (rule 45)")
    func presentationIdentity() throws {
        let layer = Layer()
        #expect(layer.presentation() == nil)
        let (_, child) = makeTree()
        let p = try #require(child.presentation())
        #expect(p !== child)
        #expect(p.model() === child)
        #expect(p.presentation() === p)
        #expect(child.model() === child)
        #expect(p.superlayer === child.superlayer?.presentation())
    }

    @Test("uncommitted model changes are invisible until the commit (rule 46)")
    func lastCommittedState() throws {
        let (tree, child) = makeTree()
        Transaction.begin()
        Transaction.disableActions = true
        child.position = Point(x: 300, y: 100)
        Transaction.commit()
        #expect(tree.needsFrame)
        #expect(try #require(child.presentation()).position == Point(x: 50, y: 25))
        tree.commit(at: 11)
        tree.updatePresentation(at: 11)
        #expect(try #require(child.presentation()).position == Point(x: 300, y: 100))
        #expect(!tree.needsFrame)
    }

    @Test("frame is derived from bounds, anchor, position and transform (rule 49)")
    func frame() {
        let layer = Layer()
        layer.bounds = Rect(x: 7, y: 9, width: 100, height: 50)
        layer.position = Point(x: 200, y: 100)
        #expect(layer.frame == Rect(x: 150, y: 75, width: 100, height: 50))   // bounds.origin does not move it
        layer.anchorPoint = Point(x: 0, y: 0)
        #expect(layer.frame == Rect(x: 200, y: 100, width: 100, height: 50))
        layer.anchorPoint = Point(x: 0.5, y: 0.5)
        layer.transform = Transform3D(rotationAngle: .pi / 2, x: 0, y: 0, z: 1)
        let f = layer.frame
        #expect(abs(f.minX - 175) < 1e-9 && abs(f.minY - 50) < 1e-9 && abs(f.width - 50) < 1e-9 && abs(f.height - 100) < 1e-9)
    }

    @Test("an animation drives the presentation, never the model, and is removed at its end (rule 10)")
    func animationLifecycle() throws {
        let (tree, child) = makeTree(time: 10)
        var finished: [Bool] = []
        child.add(BasicAnimation(keyPath: "opacity", from: .scalar(0), to: .scalar(1), duration: 1), forKey: "fade") {
            finished.append($0)
        }
        #expect(child.animationKeys() == ["fade"])
        tree.commit(at: 10)
        #expect(child.animation(forKey: "fade")?.timing.beginTime == 10)   // beginTime 0 → commit time (rule 5)
        var callbacks = tree.updatePresentation(at: 10.25)
        #expect(abs(try #require(child.presentation()).opacity - 0.25) < 1e-12)
        #expect(child.opacity == 1)
        #expect(callbacks.isEmpty && tree.hasRunningAnimations)
        callbacks = tree.updatePresentation(at: 11)                        // end instant: terminal value
        #expect(try #require(child.presentation()).opacity == 1)
        #expect(child.animationKeys().isEmpty)
        #expect(finished.isEmpty)                                          // delivered after the frame
        for c in callbacks { c() }
        #expect(finished == [true])
        #expect(!tree.hasRunningAnimations)
    }

    @Test("duration 0 becomes 0.25 s at commit; a replaced animation stops unfinished (rules 5, 18)")
    func replaceAndDefaultDuration() throws {
        let (tree, child) = makeTree(time: 5)
        var first: [Bool] = []
        child.add(BasicAnimation(keyPath: "position", to: .point(Point(x: 0, y: 0))), forKey: "move") { first.append($0) }
        tree.commit(at: 5)
        #expect(child.animation(forKey: "move")?.timing.duration == 0.25)
        child.add(BasicAnimation(keyPath: "opacity", to: .scalar(0), duration: 1), forKey: "move")
        for c in tree.updatePresentation(at: 5.1) { c() }
        #expect(first == [false])
        #expect(child.animationKeys() == ["move"])
        child.add(BasicAnimation(keyPath: "opacity", to: .scalar(0)), forKey: nil)
        #expect(child.animationKeys() == ["move"])                         // nil keys are not listed
    }

    @Test("to-only animations start from the presentation value at commit (rule 15, Lamina choice)")
    func fromPresentation() throws {
        let (tree, child) = makeTree(time: 0)
        child.add(BasicAnimation(keyPath: "position.x", from: .scalar(0), to: .scalar(100), duration: 1), forKey: "a")
        tree.commit(at: 0)
        tree.updatePresentation(at: 0.5)                                   // presentation x = 50
        child.position = Point(x: 300, y: 25)                              // model elsewhere
        child.add(BasicAnimation(keyPath: "position.x", to: .scalar(300), duration: 1), forKey: "a")
        tree.commit(at: 0.5)
        tree.updatePresentation(at: 0.5)
        #expect(abs(try #require(child.presentation()).position.x - 50) < 1e-9)
        tree.updatePresentation(at: 1.0)
        #expect(abs(try #require(child.presentation()).position.x - 175) < 1e-9)
    }

    @Test("a spring animation moves a point along the closed-form curve (rules 27, 28)")
    func springMovesPoint() throws {
        let (tree, child) = makeTree(time: 0)
        let spring = Spring(mass: 1, stiffness: 200, damping: 8, initialVelocity: 2)
        let from = Point(x: 50, y: 25), to = Point(x: 250, y: 125)
        child.position = to
        child.add(BasicAnimation(keyPath: "position", from: .point(from), to: .point(to), spring: spring, duration: 2),
                  forKey: "spring")
        tree.commit(at: 0)
        // Independent closed form: ω₀ = √200, ζ = 8 / (2√200), B = (v₀ − ζω₀)/ω_d.
        let w0 = 200.0.squareRoot(), zeta = 8 / (2 * w0), wd = w0 * (1 - zeta * zeta).squareRoot()
        let b = (2 - zeta * w0) / wd
        for t in [0.05, 0.2, 0.45, 1.3] {
            tree.updatePresentation(at: t)
            let y = exp(-zeta * w0 * t) * (-cos(wd * t) + b * sin(wd * t))
            let expected = from + (to - from) * (1 + y)
            let p = try #require(child.presentation()).position
            #expect(abs(p.x - expected.x) < 1e-9 && abs(p.y - expected.y) < 1e-9)
            #expect(child.presentationValue(forKeyPath: "position", at: t) == .point(p))
        }
        tree.updatePresentation(at: 2.5)                                   // cut at duration: the model shows
        #expect(try #require(child.presentation()).position == to)
    }

    @Test("additive animations add to the underlying value (rule 16)")
    func additive() throws {
        let (tree, child) = makeTree(time: 0)
        var a = BasicAnimation(keyPath: "position.y", from: .scalar(0), to: .scalar(10), duration: 1)
        a.isAdditive = true
        child.add(a, forKey: "bump")
        tree.commit(at: 0)
        tree.updatePresentation(at: 0.5)
        #expect(try #require(child.presentation()).position.y == 30)
    }

    // Rule 59: position.x animating 0 → 300 over 1 s, touched at its on-screen position at
    // t = 0.5: the model misses, the presentation hits.
    @Test("hit testing model vs presentation (rules 57, 59)")
    func hitTestPair() throws {
        let (tree, child) = makeTree(time: 0)
        child.position = Point(x: 300, y: 25)
        child.add(BasicAnimation(keyPath: "position.x", from: .scalar(0), to: .scalar(300), duration: 1), forKey: "slide")
        tree.commit(at: 0)
        tree.updatePresentation(at: 0.5)
        let root = tree.root
        let onScreen = Point(x: 150, y: 25)                                 // where it shows at t = 0.5
        #expect(root.hitTest(onScreen) === root)                            // model: child is at 300
        let hit = try #require(root.presentation()?.hitTest(onScreen))
        #expect(hit.model() === child)
        child.isHidden = true
        tree.commit(at: 0.5)
        tree.updatePresentation(at: 0.5)
        #expect(root.presentation()?.hitTest(onScreen)?.model() === root)   // hidden is never hit
    }

    @Test("hit testing goes through transforms and tries the front-most sublayer first (rule 57)")
    func hitTestTransforms() {
        let root = Layer()
        root.bounds = Rect(x: 0, y: 0, width: 200, height: 200)
        root.anchorPoint = .zero
        let back = Layer(), front = Layer()
        for l in [back, front] {
            l.bounds = Rect(x: 0, y: 0, width: 100, height: 20)
            l.position = Point(x: 100, y: 100)
            root.addSublayer(l)
        }
        front.transform = Transform3D(rotationAngle: .pi / 2, x: 0, y: 0, z: 1)   // vertical bar
        #expect(root.hitTest(Point(x: 100, y: 60)) === front)
        #expect(root.hitTest(Point(x: 60, y: 100)) === back)
        #expect(root.hitTest(Point(x: 100, y: 100)) === front)
        back.zPosition = 1                                                    // now drawn last (rule 54)
        #expect(root.hitTest(Point(x: 100, y: 100)) === back)
        #expect(root.hitTest(Point(x: 10, y: 10)) === root)
        front.opacity = 0.005
        #expect(root.hitTest(Point(x: 100, y: 60)) === root)
    }
}

@Suite("Renderer")
struct RendererTests {
    @Test("draws backgrounds and shape fills at their layer positions, with opacity")
    func drawsTree() throws {
        let root = Layer()
        root.bounds = Rect(x: 0, y: 0, width: 40, height: 30)
        root.position = Point(x: 20, y: 15)
        let box = Layer()
        box.bounds = Rect(x: 0, y: 0, width: 10, height: 10)
        box.position = Point(x: 10, y: 10)                                    // covers 5..<15
        box.backgroundColor = Color(red: 1, green: 0, blue: 0)
        let shape = ShapeLayer()
        shape.bounds = Rect(x: 0, y: 0, width: 10, height: 10)
        shape.position = Point(x: 30, y: 20)                                  // covers 25..<35, 15..<25
        shape.path = Path(rect: Rect(x: 0, y: 0, width: 10, height: 5))
        shape.fillColor = Color(red: 0, green: 0, blue: 1)
        shape.opacity = 0.5
        root.addSublayer(box)
        root.addSublayer(shape)
        let tree = LayerTree(root: root)
        tree.commit(at: 0)
        tree.updatePresentation(at: 0)
        let buffer = PixelBuffer(width: 40, height: 30)
        Renderer().render(try #require(root.presentation()), into: Canvas(target: buffer), background: .black)
        #expect(buffer[5, 5] == 0xFFFF_0000 && buffer[14, 14] == 0xFFFF_0000)
        #expect(buffer[4, 5] == 0xFF00_0000 && buffer[15, 5] == 0xFF00_0000)
        #expect(buffer[25, 15] == 0xFF00_0080 && buffer[34, 19] == 0xFF00_0080)   // half-opaque blue
        #expect(buffer[25, 20] == 0xFF00_0000)                                     // path is 5 high
    }

    @Test("hidden layers and zero opacity draw nothing")
    func hidden() throws {
        let root = Layer()
        root.bounds = Rect(x: 0, y: 0, width: 4, height: 4)
        root.anchorPoint = .zero
        root.backgroundColor = .white
        let tree = LayerTree(root: root)
        root.isHidden = true
        tree.commit(at: 0)
        tree.updatePresentation(at: 0)
        let buffer = PixelBuffer(width: 4, height: 4)
        Renderer().render(try #require(root.presentation()), into: Canvas(target: buffer), background: .black)
        #expect(buffer[1, 1] == 0xFF00_0000)
    }
}

@Suite("Layer time (rules 2, 3, 5)")
struct LayerTimeTests {
    /// root ← parent ← child, committed at `time`.
    func makeTree(time: Double = 0) -> (LayerTree, Layer, Layer) {
        let root = Layer(), parent = Layer(), child = Layer()
        root.addSublayer(parent)
        parent.addSublayer(child)
        let tree = LayerTree(root: root)
        tree.commit(at: time)
        tree.updatePresentation(at: time)
        return (tree, parent, child)
    }

    @Test("t_L = (t_parent − beginTime) · speed + timeOffset, recursively; convertTime inverts it (rule 2)")
    func layerTimeChain() {
        let (_, parent, child) = makeTree()
        parent.beginTime = 2; parent.speed = 3; parent.timeOffset = 0.5
        child.beginTime = 1; child.speed = 0.5; child.timeOffset = -4
        // media 10 → parent (10 − 2)·3 + 0.5 = 24.5 → child (24.5 − 1)·0.5 − 4 = 7.75
        #expect(parent.convertTime(10, from: nil) == 24.5)
        #expect(child.convertTime(10, from: nil) == 7.75)
        #expect(child.convertTime(24.5, from: parent) == 7.75)
        #expect(child.convertTime(7.75, to: nil) == 10)
        #expect(child.convertTime(7.75, to: parent) == 24.5)
        #expect(parent.convertTime(24.5, to: child) == 7.75)
        let other = Layer()                                               // another tree: via media time
        other.speed = 2
        #expect(other.convertTime(7.75, from: child) == 20)
    }

    @Test("the inverse through speed 0 treats 1/0 as 0, so it stays finite (rule 2, Lamina choice)")
    func speedZeroInverse() {
        let (_, parent, child) = makeTree()
        parent.speed = 0; parent.timeOffset = 3; parent.beginTime = 1
        #expect(child.convertTime(100, from: nil) == 3)
        let back = child.convertTime(42, to: nil)
        #expect(back.isFinite && back == 1)                               // (42 − 3)·0 + 1
    }

    @Test("animations run in their layer's time: speed 2 halves the wall duration, beginTime is layer time (rule 5)")
    func animationInLayerTime() throws {
        let (tree, parent, child) = makeTree()
        parent.speed = 2
        tree.commit(at: 1)
        child.add(BasicAnimation(keyPath: "opacity", from: .scalar(0), to: .scalar(1), duration: 1), forKey: "fade")
        tree.commit(at: 1)
        let begin = try #require(child.animation(forKey: "fade")).timing.beginTime
        #expect(begin == 2)                                               // media 1 in the child's time
        tree.updatePresentation(at: 1.25)                                 // child time 2.5: half way
        #expect(abs(try #require(child.presentation()).opacity - 0.5) < 1e-12)
        for c in tree.updatePresentation(at: 1.5) { c() }                 // child time 3: the end
        #expect(child.animationKeys().isEmpty)
    }

    @Test("pause and resume (QA1673): frozen while paused, continuous across resume; speed 0 freezes descendants (rule 3)")
    func pauseResume() throws {
        let (tree, parent, child) = makeTree(time: 100)
        child.add(BasicAnimation(keyPath: "position.x", from: .scalar(0), to: .scalar(100), duration: 1), forKey: "move")
        tree.commit(at: 100)
        tree.updatePresentation(at: 100.3)
        #expect(abs(try #require(child.presentation()).position.x - 30) < 1e-9)

        // Pause at 100.3, on the parent: the child's animation freezes too.
        let pausedAt = parent.convertTime(100.3, from: nil)
        parent.speed = 0
        parent.timeOffset = pausedAt
        tree.commit(at: 100.3)
        for now in [100.3, 101, 107.5] {
            tree.updatePresentation(at: now)
            #expect(abs(try #require(child.presentation()).position.x - 30) < 1e-9, "paused, at \(now)")
        }
        #expect(!tree.hasRunningAnimations)                               // nothing to redraw while paused
        #expect(child.animationKeys() == ["move"])

        // Resume at 107.5: continues from 30 with no jump.
        let p = parent.timeOffset
        parent.speed = 1
        parent.timeOffset = 0
        parent.beginTime = 0
        parent.beginTime = parent.convertTime(107.5, from: nil) - p
        tree.commit(at: 107.5)
        tree.updatePresentation(at: 107.5)
        #expect(abs(try #require(child.presentation()).position.x - 30) < 1e-9)
        tree.updatePresentation(at: 107.9)
        #expect(abs(try #require(child.presentation()).position.x - 70) < 1e-9)
        #expect(tree.hasRunningAnimations)
    }
}
