import Foundation
import Testing
@testable import LaminaAnimation
@testable import LaminaGeometry
@testable import LaminaLayers
@testable import LaminaRaster

/// A rendered one-layer tree at time 0 and a way to read the layer's presentation at t.
private final class Stage {
    let tree: LayerTree
    let layer = Layer()

    init() {
        let root = Layer()
        root.addSublayer(layer)
        tree = LayerTree(root: root)
        tree.commit(at: 0)
        tree.updatePresentation(at: 0)
    }

    func add(_ animation: BasicAnimation) {
        layer.add(animation, forKey: "test")
        tree.commit(at: 0)
    }

    func presented(at t: Double) -> Layer {
        tree.updatePresentation(at: t)
        return layer.presentation()!
    }
}

private func close(_ a: Transform3D, _ b: Transform3D) -> Bool {
    zip(a.entries, b.entries).allSatisfy { abs($0 - $1) < 1e-9 }
}

@Suite("Cumulative animations and transform key paths (rules 17, 19)")
struct KeyPathTests {
    @Test("cumulative: iteration k adds k times the cycle's end value (rule 17)")
    func cumulative() {
        let stage = Stage()
        var a = BasicAnimation(keyPath: "position.x", from: .scalar(0), to: .scalar(10), duration: 1)
        a.timing.repeatCount = 3
        a.isCumulative = true
        stage.add(a)
        #expect(abs(stage.presented(at: 0.5).position.x - 5) < 1e-9)
        #expect(abs(stage.presented(at: 1.5).position.x - 15) < 1e-9)
        #expect(abs(stage.presented(at: 2.5).position.x - 25) < 1e-9)
    }

    @Test("cumulative with autoreverses builds on the start value; by-animations on the absolute end c + by (rule 17)")
    func cumulativeEnds() {
        let reversing = Stage()
        var a = BasicAnimation(keyPath: "position.x", from: .scalar(2), to: .scalar(10), duration: 1)
        a.timing.repeatCount = 2
        a.timing.autoreverses = true
        a.isCumulative = true
        reversing.add(a)
        #expect(abs(reversing.presented(at: 2.5).position.x - (2 + 6)) < 1e-9)    // iteration 1, u = 0.5 → 6

        let by = Stage()
        by.layer.setValue(.scalar(100), forKeyPath: "position.x")
        by.tree.commit(at: 0)
        by.tree.updatePresentation(at: 0)
        var b = BasicAnimation(keyPath: "position.x", by: .scalar(10), duration: 1)
        b.timing.repeatCount = 2
        b.isCumulative = true
        by.add(b)
        #expect(abs(by.presented(at: 1.5).position.x - (110 + 105)) < 1e-9)       // c + by, plus v(u)
    }

    @Test("transform.rotation.z animates the angle: 0 → 2π is a full turn through π/2 at a quarter (rule 19)")
    func rotationKeyPath() {
        let stage = Stage()
        stage.add(BasicAnimation(keyPath: "transform.rotation.z", from: .scalar(0), to: .scalar(2 * .pi), duration: 1))
        #expect(close(stage.presented(at: 0.25).transform, Transform3D(rotationAngle: .pi / 2, x: 0, y: 0, z: 1)))
        #expect(close(stage.presented(at: 0.5).transform, Transform3D(rotationAngle: .pi, x: 0, y: 0, z: 1)))
    }

    @Test("transform.scale is uniform, transform.translation.x moves only x; both keep the model's other parts")
    func scaleAndTranslation() {
        let stage = Stage()
        stage.layer.transform = Transform3D(rotationAngle: .pi / 6, x: 0, y: 0, z: 1)
        stage.tree.commit(at: 0)
        stage.tree.updatePresentation(at: 0)
        stage.layer.removeAllAnimations()
        stage.add(BasicAnimation(keyPath: "transform.scale", from: .scalar(1), to: .scalar(3), duration: 1))
        let expected = Transform3D(scaleX: 2, y: 2, z: 2).concatenating(Transform3D(rotationAngle: .pi / 6, x: 0, y: 0, z: 1))
        #expect(close(stage.presented(at: 0.5).transform, expected))
        let moving = Stage()
        moving.add(BasicAnimation(keyPath: "transform.translation.x", from: .scalar(0), to: .scalar(40), duration: 1))
        #expect(close(moving.presented(at: 0.25).transform, Transform3D(translationX: 10, y: 0, z: 0)))
    }

    @Test("reading the key paths decomposes the model transform; whole transforms interpolate by decomposition (rules 19, 20)")
    func readingAndWholeTransform() throws {
        let layer = Layer()
        layer.transform = Transform3D(scaleX: 2, y: 4, z: 1).concatenating(Transform3D(rotationAngle: 0.5, x: 0, y: 0, z: 1))
            .concatenating(Transform3D(translationX: 7, y: -3, z: 0))
        func scalar(_ keyPath: String) -> Double? {
            if case .scalar(let v)? = layer.value(forKeyPath: keyPath) { return v }
            return nil
        }
        #expect(abs(try #require(scalar("transform.rotation.z")) - 0.5) < 1e-12)
        #expect(abs(try #require(scalar("transform.scale.x")) - 2) < 1e-12)
        #expect(abs(try #require(scalar("transform.scale.y")) - 4) < 1e-12)
        #expect(try #require(scalar("transform.translation.y")) == -3)
        let stage = Stage()
        stage.add(BasicAnimation(keyPath: "transform", from: .transform(.identity),
                                 to: .transform(Transform3D(rotationAngle: .pi / 2, x: 0, y: 0, z: 1)), duration: 1))
        #expect(close(stage.presented(at: 0.5).transform, Transform3D(rotationAngle: .pi / 4, x: 0, y: 0, z: 1)))
    }
}

@Suite("Keyframe animations on layers (rules 17, 23)")
struct LayerKeyframeTests {
    @Test("a keyframe animation drives the presentation; one value leaves the model showing; cumulative builds on the last value")
    func onLayer() throws {
        let stage = Stage()
        stage.add(BasicAnimation(keyPath: "position.x", keyframes: Keyframes(values: [.scalar(0), .scalar(10), .scalar(30)]), duration: 1))
        #expect(abs(stage.presented(at: 0.75).position.x - 20) < 1e-9)
        let single = Stage()
        single.layer.position = Point(x: 4, y: 0)
        single.tree.commit(at: 0)
        single.tree.updatePresentation(at: 0)
        single.layer.removeAllAnimations()
        single.add(BasicAnimation(keyPath: "position.x", keyframes: Keyframes(values: [.scalar(99)]), duration: 1))
        #expect(single.presented(at: 0.5).position.x == 4)
        let repeating = Stage()
        var a = BasicAnimation(keyPath: "position.x", keyframes: Keyframes(values: [.scalar(0), .scalar(10), .scalar(30)]), duration: 1)
        a.timing.repeatCount = 2
        a.isCumulative = true
        repeating.add(a)
        #expect(abs(repeating.presented(at: 1.25).position.x - (30 + 5)) < 1e-9)
    }
}

@Suite("Path keyframes and rotation modes (rule 26)")
struct PathKeyframeTests {
    /// Right 100, then down 300: element end points (100, 0) and (100, 300).
    static let corner: KeyframePath = {
        var p = Path()
        p.move(to: Point(x: 0, y: 0))
        p.line(to: Point(x: 100, y: 0))
        p.line(to: Point(x: 100, y: 300))
        return KeyframePath(p)
    }()

    @Test("linear: equal time per element; rotation auto follows the tangent, autoReverse adds π")
    func linearAndRotation() throws {
        let k = Keyframes(path: Self.corner, rotationMode: .auto)
        #expect(k.value(at: 0.25) == .point(Point(x: 50, y: 0)))
        #expect(k.value(at: 0.75) == .point(Point(x: 100, y: 150)))
        #expect(try #require(k.rotation(at: 0.25)) == 0)
        #expect(abs(try #require(k.rotation(at: 0.75)) - .pi / 2) < 1e-12)
        let reversed = Keyframes(path: Self.corner, rotationMode: .autoReverse)
        #expect(abs(try #require(reversed.rotation(at: 0.25)) - .pi) < 1e-12)
    }

    @Test("inside a curve element the curve parameter is linear in time; paced moves at constant arc-length speed; discrete holds starts")
    func modes() {
        var q = Path()
        q.move(to: Point(x: 0, y: 0))
        q.quad(to: Point(x: 100, y: 0), control: Point(x: 50, y: 100))
        #expect(Keyframes(path: KeyframePath(q)).value(at: 0.5) == .point(Point(x: 50, y: 50)))
        let paced = Keyframes(path: Self.corner, calculationMode: .paced)
        if case .point(let p)? = paced.value(at: 0.5) {
            #expect(abs(p.x - 100) < 1e-6 && abs(p.y - 100) < 1e-3)         // 200 of 400 along
        } else { Issue.record("no point") }
        let discrete = Keyframes(path: Self.corner, calculationMode: .discrete)
        #expect(discrete.value(at: 0.25) == .point(Point(x: 0, y: 0)))
        #expect(discrete.value(at: 0.75) == .point(Point(x: 100, y: 0)))
    }

    @Test("on a layer: position follows the path and the layer turns with it")
    func onLayer() throws {
        let stage = Stage()
        var a = BasicAnimation(keyPath: "position", keyframes: Keyframes(path: Self.corner, rotationMode: .auto), duration: 2)
        a.timing.fillMode = .forwards
        stage.add(a)
        let shown = stage.presented(at: 1.5)
        #expect(shown.position == Point(x: 100, y: 150))
        #expect(zip(shown.transform.entries, Transform3D(rotationAngle: .pi / 2, x: 0, y: 0, z: 1).entries)
            .allSatisfy { abs($0 - $1) < 1e-12 })
    }
}

@Suite("Value functions and flipped geometry (rules 21, 56)")
struct ValueFunctionTests {
    @Test("a value function turns the animated number into the whole transform, replacing the model's (rule 21)")
    func valueFunction() {
        let stage = Stage()
        stage.layer.setValue(.transform(Transform3D(scaleX: 3, y: 3, z: 1)), forKeyPath: "transform")
        stage.tree.commit(at: 0)
        stage.tree.updatePresentation(at: 0)
        stage.layer.removeAllAnimations()
        var spin = BasicAnimation(keyPath: "transform", from: .scalar(0), to: .scalar(.pi), duration: 1)
        spin.valueFunction = .rotateZ
        stage.add(spin)
        let shown = stage.presented(at: 0.5).transform
        #expect(zip(shown.entries, Transform3D(rotationAngle: .pi / 2, x: 0, y: 0, z: 1).entries).allSatisfy { abs($0 - $1) < 1e-12 })
        var grow = BasicAnimation(keyPath: "transform", keyframes: Keyframes(values: [.scalar(1), .scalar(2), .scalar(4)]), duration: 1)
        grow.valueFunction = .scaleX
        let keyframed = Stage()
        keyframed.add(grow)
        #expect(keyframed.presented(at: 0.75).transform == Transform3D(scaleX: 3, y: 1, z: 1))
    }

    @Test("isGeometryFlipped mirrors the sublayers' y within the bounds, for drawing and hit testing (rule 56)")
    func flipped() throws {
        let parent = Layer()
        parent.bounds = Rect(x: 0, y: 0, width: 100, height: 100)
        let child = Layer()
        child.bounds = Rect(x: 0, y: 0, width: 10, height: 10)
        child.position = Point(x: 50, y: 15)
        parent.addSublayer(child)
        parent.isGeometryFlipped = true
        let centre = try #require(child.transformToSuperlayer().project(Point(x: 5, y: 5)))
        #expect(centre == Point(x: 50, y: 85))
        parent.anchorPoint = .zero
        #expect(parent.hitTest(Point(x: 50, y: 85)) === child)
        #expect(parent.hitTest(Point(x: 50, y: 15)) === parent)
    }
}
