import Lamina
import LaminaScenes
import LaminaTestSupport
import Testing

/// The playground's lessons that a contact sheet alone does not prove.
@Suite("Playground scene")
struct PlaygroundSceneTests {
    @Test("a tap where the moving tile is seen hits it (presentation hit test): it recolours and keeps going")
    func presentationHitTest() throws {
        let rig = try DummyDisplayRig(width: 1920, height: 1080, refresh: 60, start: 0)
        let runtime = rig.makeRuntime()
        let scene = try runtime.install(Playground.self, settings: NoSettings())
        runtime.run(exitAfter: 0.1, untilSettled: false)
        let start = scene.mover.position, target = Point(x: 1300, y: 560)
        scene.tapped(at: target)                                   // empty space: move over 4 s
        runtime.run(exitAfter: 1.5, untilSettled: false)
        let seen = try #require(scene.mover.presentation()).position
        #expect(seen.distance(to: start) > 100 && seen.distance(to: target) > 100, "on its way: \(seen)")
        let before = scene.mover.backgroundColor
        scene.tapped(at: seen)                                     // where it is seen, not where it is going
        #expect(scene.mover.backgroundColor != before)
        #expect(scene.mover.position == target)                    // still going there
        scene.tapped(at: Point(x: 100, y: 1000))                   // empty again: it moves there instead
        #expect(scene.mover.position == Point(x: 100, y: 1000))
    }

    @Test("the transaction's completion block runs once its 1 s animation ends, and starts another change")
    func transactionCompletion() throws {
        let rig = try DummyDisplayRig(width: 1920, height: 1080, refresh: 60, start: 0)
        let runtime = rig.makeRuntime()
        let scene = try runtime.install(Playground.self, settings: NoSettings())
        runtime.run(exitAfter: 0.1, untilSettled: false)
        let home = scene.transactionTile.position
        scene.tapped(at: home)
        #expect(scene.transactionTile.position.y == home.y + 140)
        runtime.run(exitAfter: 0.9, untilSettled: false)
        #expect(scene.completions == 0)
        runtime.run(exitAfter: 0.3, untilSettled: false)
        #expect(scene.completions == 1 && scene.transactionTile.position == home)
    }
}
