import Foundation
import Testing
@testable import LaminaAnimation
@testable import LaminaGeometry
@testable import LaminaLayers
@testable import LaminaRaster

private func frame(_ tree: LayerTree, _ t: Double) {
    tree.commit(at: t)
    for callback in tree.updatePresentation(at: t) { callback() }
}

@Suite("Replicator layers and the activity indicator (rule 70)")
struct ReplicatorTests {
    @Test("instances: the transform applied i times about the centre, the alpha offset, and the delay in time")
    func instances() throws {
        let root = Layer()
        root.bounds = Rect(x: 0, y: 0, width: 100, height: 20)
        root.anchorPoint = .zero
        let replicator = ReplicatorLayer()
        replicator.bounds = Rect(x: 0, y: 0, width: 100, height: 20)
        replicator.anchorPoint = .zero
        replicator.instanceCount = 3
        replicator.instanceTransform = Transform3D(translationX: 30, y: 0, z: 0)
        replicator.instanceAlphaOffset = -0.25
        replicator.instanceDelay = 0.5
        let dot = Layer()
        dot.bounds = Rect(x: 0, y: 0, width: 10, height: 10)
        dot.position = Point(x: 10, y: 10)
        dot.backgroundColor = .white
        replicator.addSublayer(dot)
        root.addSublayer(replicator)
        let tree = LayerTree(root: root)
        frame(tree, 0)
        dot.add(BasicAnimation(keyPath: "position.y", from: .scalar(0), to: .scalar(10), duration: 1), forKey: "drop")
        frame(tree, 0)
        frame(tree, 0.75)
        let copy = try #require(replicator.presentation() as? ReplicatorLayer)
        #expect(copy.instances.count == 2)
        #expect(abs(try #require(dot.presentation()).position.y - 7.5) < 1e-9)
        #expect(abs(copy.instances[0][0].position.y - 2.5) < 1e-9)          // 0.5 s behind
        #expect(copy.instances[1][0].position.y == 10)                      // 1 s behind: before its start, the model
        let buffer = PixelBuffer(width: 100, height: 20)
        Renderer().render(try #require(root.presentation()), into: Canvas(target: buffer), background: .black)
        // Instance 2 sits 60 px right, at alpha 0.5, showing the model y = 10 (covering rows 5 ..< 15).
        #expect(buffer[70, 10] == 0xFF80_8080)
        #expect(buffer[40, 1] == 0xFFBF_BFBF)                               // instance 1: alpha 0.75, y 2.5 → rows 0 ..< 7
    }

    @Test("the activity indicator: hidden until started, spokes fading one period round, hidden again when stopped")
    func activityIndicator() throws {
        let root = Layer()
        let indicator = ActivityIndicatorLayer(style: .large)
        #expect(indicator.hidesWhenStopped && indicator.isHidden && !indicator.isAnimating)
        #expect(indicator.bounds.width == 37 && indicator.instanceCount == 8)
        root.addSublayer(indicator)
        let tree = LayerTree(root: root)
        frame(tree, 0)
        indicator.startAnimating()
        #expect(!indicator.isHidden && indicator.isAnimating)
        frame(tree, 0)
        frame(tree, 0.5)
        let copy = try #require(indicator.presentation() as? ReplicatorLayer)
        // Spoke i is i/8 of a period behind: opacity 1 − 0.75 · phase, phase = (0.5 − i/8) mod 1.
        for i in 1..<8 {
            let t = 0.5 - Double(i) / 8
            let expected = t < 0 ? 1 : 1 - 0.75 * t
            #expect(abs(copy.instances[i - 1][0].opacity - expected) < 1e-9, "spoke \(i)")
        }
        indicator.stopAnimating()
        #expect(indicator.isHidden && !indicator.isAnimating)
    }
}

@Suite("Replicator colours")
struct ReplicatorColourTests {
    @Test("instanceColor multiplies every instance's colours; the offsets add per instance")
    func colours() throws {
        let root = Layer()
        root.bounds = Rect(x: 0, y: 0, width: 60, height: 10)
        root.anchorPoint = .zero
        let replicator = ReplicatorLayer()
        replicator.bounds = Rect(x: 0, y: 0, width: 60, height: 10)
        replicator.anchorPoint = .zero
        replicator.instanceCount = 3
        replicator.instanceTransform = Transform3D(translationX: 20, y: 0, z: 0)
        replicator.instanceColor = Color(red: 1, green: 0.5, blue: 1)
        replicator.instanceRedOffset = -0.5
        replicator.instanceBlueOffset = -0.5
        let dot = Layer()
        dot.bounds = Rect(x: 0, y: 0, width: 10, height: 10)
        dot.anchorPoint = .zero
        dot.backgroundColor = .white
        replicator.addSublayer(dot)
        root.addSublayer(replicator)
        let tree = LayerTree(root: root)
        tree.commit(at: 0)
        tree.updatePresentation(at: 0)
        let buffer = PixelBuffer(width: 60, height: 10)
        Renderer().render(try #require(root.presentation()), into: Canvas(target: buffer), background: .black)
        #expect(buffer[5, 5] == 0xFFFF_80FF)                              // (1, 0.5, 1)
        #expect(buffer[25, 5] == 0xFF80_8080)                             // (0.5, 0.5, 0.5)
        #expect(buffer[45, 5] == 0xFF00_8000)                             // (0, 0.5, 0)
    }
}
