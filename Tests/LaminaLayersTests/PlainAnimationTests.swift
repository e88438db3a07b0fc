import LaminaTestSupport
import Testing
@testable import LaminaAnimation
@testable import LaminaGeometry
@testable import LaminaLayers

/// A layer kind of an app's own: animations reach its copies through `applyAnimatedValue`,
/// the general path, never as lanes.
private final class OwnLayer: Layer {
    override func makePresentationCopy() -> Layer {
        let copy = OwnLayer()
        copy.properties = properties
        return copy
    }
}

@Suite("Plain animations as lanes (decision 129)")
struct PlainAnimationTests {
    static let keyPaths = ["position", "position.x", "position.y", "bounds", "bounds.size", "anchorPoint", "opacity",
                           "zPosition", "backgroundColor", "borderColor", "cornerRadius", "shadowOffset", "shadowOpacity",
                           "transform", "transform.scale", "transform.rotation.z", "transform.translation",
                           "transform.translation.y", "transform.scale.x"]

    func value(like current: AnimatableValue, _ n: inout SeededNumbers) -> AnimatableValue {
        switch current {
        case .scalar: .scalar(n.next(-50, 50))
        case .point: .point(Point(x: n.next(-500, 500), y: n.next(-500, 500)))
        case .size: .size(Size(width: n.next(0, 300), height: n.next(0, 300)))
        case .rect: .rect(Rect(x: n.next(-9, 9), y: n.next(-9, 9), width: n.next(0, 400), height: n.next(0, 400)))
        case .color: .color(Color(red: n.next(0, 1), green: n.next(0, 1), blue: n.next(0, 1), alpha: n.next(0, 1)))
        case .transform: .transform(Transform3D(AffineTransform.identity.translatedBy(x: n.next(-90, 90), y: n.next(-90, 90))
            .rotated(by: n.next(-4, 4)).scaledBy(x: n.next(0.2, 3), y: n.next(0.2, 3))))
        default: current
        }
    }

    @Test("a number, point, size, rectangle or colour animated as lanes, or an affine transform or one of its components written in place, shows exactly what the general path shows", arguments: 0..<4)
    func lanesEqualGeneralPath(seed: UInt64) throws {
        var n = SeededNumbers(state: seed &* 7919 &+ 17)
        let curves: [TimingFunction?] = [nil, .easeIn, .easeOut, .easeInEaseOut, .default,
                                         TimingFunction(controlPoints: 0.3, -0.4, 0.6, 1.6)]
        let plainRoot = Layer(), ownRoot = Layer()
        let plainTree = LayerTree(root: plainRoot), ownTree = LayerTree(root: ownRoot)
        var pairs: [(Layer, Layer)] = []
        for _ in 0..<24 {
            let plain = Layer(), own = OwnLayer()
            plainRoot.addSublayer(plain)
            ownRoot.addSublayer(own)
            pairs.append((plain, own))
            for (k, keyPath) in Self.keyPaths.enumerated() where n.next(0, 1) < 0.5 {
                let current = try #require(plain.value(forKeyPath: keyPath))
                var animation: BasicAnimation
                if n.next(0, 1) < 0.3 {
                    animation = BasicAnimation(keyPath: keyPath, to: value(like: current, &n),
                                               spring: Spring(mass: 1, stiffness: n.next(20, 300), damping: n.next(1, 30)),
                                               duration: 4)
                } else {
                    animation = BasicAnimation(keyPath: keyPath, to: value(like: current, &n), duration: n.next(0.2, 2))
                    animation.timingFunction = curves[n.pick(curves.count)]
                    animation.timing.repeatCount = n.next(0, 1) < 0.3 ? 2.5 : 0
                    animation.timing.autoreverses = n.next(0, 1) < 0.3
                    animation.timing.fillMode = n.next(0, 1) < 0.5 ? .forwards : .removed
                    animation.isRemovedOnCompletion = n.next(0, 1) < 0.5
                }
                if n.next(0, 1) < 0.5 { animation.fromValue = value(like: current, &n) }
                plain.add(animation, forKey: "\(k)")
                own.add(animation, forKey: "\(k)")
            }
        }
        plainTree.commit(at: 0)
        ownTree.commit(at: 0)
        // The lane, transform or component path is taken for every animation of a layer of Lamina's own
        // kind but those from or to no colour (which switch, not interpolate): else this
        // compares nothing.
        let entries = pairs.flatMap { $0.0.animations.entries }
        let general = entries.filter { $0.plain == nil && $0.plainTransform == nil && $0.plainComponent == nil }
        #expect(entries.count - general.count > 100)
        #expect(entries.filter { $0.plainTransform != nil }.count > 5)
        #expect(entries.filter { $0.plainComponent != nil }.count > 20)
        #expect(general.allSatisfy { entry in entry.ends.map { [$0.from, $0.to].contains(.color(nil)) } ?? false })
        for frame in 0..<200 {
            let t = Double(frame) / 60
            plainTree.updatePresentation(at: t)
            ownTree.updatePresentation(at: t)
            for (plain, own) in pairs {
                let a = try #require(plain.presentation()), b = try #require(own.presentation())
                #expect(!b.writesLayerPropertiesInPlace)
                for keyPath in Self.keyPaths where a.value(forKeyPath: keyPath) != b.value(forKeyPath: keyPath) {
                    Issue.record("\(keyPath) at \(t): \(String(describing: a.value(forKeyPath: keyPath))) as lanes, \(String(describing: b.value(forKeyPath: keyPath))) in general")
                }
            }
        }
    }

    @Test("kinds that do not interpolate lane by lane have no lanes")
    func noLanes() {
        #expect(PlainLanes(.transform(.identity)) == nil)
        #expect(PlainLanes(.bool(true)) == nil)
        #expect(PlainLanes(.color(nil)) == nil)
        #expect(PlainLanes(.rect(Rect(x: 1, y: 2, width: 3, height: 4)))?.values == SIMD4(1, 2, 3, 4))
    }
}
