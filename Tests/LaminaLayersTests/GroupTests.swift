import Testing
@testable import LaminaAnimation
@testable import LaminaGeometry
@testable import LaminaLayers

private func frame(_ tree: LayerTree, _ t: Double) {
    tree.commit(at: t)
    for callback in tree.updatePresentation(at: t) { callback() }
}

private final class StopLog: AnimationDelegate {
    var stops: [Bool] = []
    func animationDidStop(_ animation: BasicAnimation, finished: Bool) { stops.append(finished) }
}

@Suite("Animation groups (rule 33)")
struct GroupTests {
    func stage() -> (LayerTree, Layer) {
        let root = Layer(), layer = Layer()
        root.addSublayer(layer)
        let tree = LayerTree(root: root)
        frame(tree, 0)
        return (tree, layer)
    }

    @Test("children run in the group's time: begin times relative to it, duration 0 takes the group's")
    func localTime() throws {
        let (tree, layer) = stage()
        let move = BasicAnimation(keyPath: "position.x", from: .scalar(0), to: .scalar(10), duration: 1)
        var fade = BasicAnimation(keyPath: "opacity", from: .scalar(1), to: .scalar(0))           // duration 0 → 2
        fade.timing.beginTime = 0.5
        fade.timing.fillMode = .backwards
        layer.add(AnimationGroup(animations: [move, fade], duration: 2), forKey: "group")
        frame(tree, 10)
        frame(tree, 10.5)
        var shown = try #require(layer.presentation())
        #expect(abs(shown.position.x - 5) < 1e-9 && shown.opacity == 1)
        frame(tree, 11.5)
        shown = try #require(layer.presentation())
        #expect(shown.position.x == 0)                                      // move ended at group time 1: the model
        #expect(abs(shown.opacity - 0.5) < 1e-9)                            // fade: 1 s of its 2
    }

    @Test("children are clipped to the group's active interval; the group's delegate hears the end, the children's do not")
    func clipping() throws {
        let (tree, layer) = stage()
        let groupLog = StopLog(), childLog = StopLog()
        var long = BasicAnimation(keyPath: "position.x", from: .scalar(0), to: .scalar(30), duration: 3)
        long.delegate = childLog
        long.isRemovedOnCompletion = false
        var group = AnimationGroup(animations: [long], duration: 1)
        group.delegate = groupLog
        layer.add(group, forKey: "g")
        frame(tree, 0)
        frame(tree, 0.9)
        #expect(abs(try #require(layer.presentation()).position.x - 9) < 1e-9)
        frame(tree, 1.5)
        #expect(try #require(layer.presentation()).position.x == 0)
        #expect(layer.animationKeys().isEmpty)
        #expect(groupLog.stops == [true] && childLog.stops.isEmpty)
    }

    @Test("the group's timing applies to its children: speed 2 and a group curve")
    func groupTiming() throws {
        let (tree, layer) = stage()
        var group = AnimationGroup(animations: [BasicAnimation(keyPath: "position.x", from: .scalar(0), to: .scalar(100))],
                                   duration: 1)
        group.timing.speed = 2
        group.timingFunction = .easeIn
        layer.add(group, forKey: "g")
        frame(tree, 0)
        frame(tree, 0.25)                                                    // group time 0.5
        #expect(abs(try #require(layer.presentation()).position.x - 100 * TimingFunction.easeIn(0.5)) < 1e-9)
    }
}
