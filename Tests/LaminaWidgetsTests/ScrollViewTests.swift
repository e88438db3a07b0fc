import Foundation
import LaminaDisplay
import LaminaGeometry
import LaminaInput
import LaminaLayers
import LaminaRuntime
import LaminaTestSupport
import LaminaWidgets
import Testing

/// A 640x480 screen with a 400x300 vertical scroll view centred at (320, 240) (its top left
/// at (120, 90)) over 400x3000 of content; a 400x100 horizontal scroller (1600 wide) sits in
/// the content's top 100 pixels.
final class ScrollScene: Scene {
    static let name = "scroll"
    let outer: ScrollView
    let inner: ScrollView
    /// The outer offsets its `onScroll` saw, one per change.
    var offsets: [Double] = []
    /// The offsets it saw while moving on its own.
    var motionOffsets: [Double] = []

    init(context: SceneContext, settings: NoSettings) {
        outer = ScrollView(context: context, size: Size(width: 400, height: 300))
        outer.contentSize = Size(width: 400, height: 3_000)
        outer.layer.position = Point(x: 320, y: 240)
        for row in 0..<30 {
            let stripe = Layer()
            stripe.frame = Rect(x: 0, y: Double(row) * 100, width: 400, height: 100)
            stripe.backgroundColor = row % 2 == 0 ? Color(red8: 0x33, green8: 0x44, blue8: 0x55) : Color(red8: 0x55, green8: 0x44, blue8: 0x33)
            outer.contentLayer.addSublayer(stripe)
        }
        inner = ScrollView(context: context, size: Size(width: 400, height: 100))
        inner.contentSize = Size(width: 1_600, height: 100)
        inner.layer.position = Point(x: 200, y: 50)
        outer.contentLayer.addSublayer(inner.layer)
        context.rootLayer.addSublayer(outer.layer)
        outer.onScroll = { [unowned self] view in
            self.offsets.append(view.contentOffset.y)
            if view.isDecelerating { self.motionOffsets.append(view.contentOffset.y) }
        }
    }
}

@Suite("Scroll views (rules 93–96)", .serialized)
struct ScrollViewTests {
    private func makeScene() throws -> (DummyDisplayRig, Runtime, ScrollScene) {
        let rig = try DummyDisplayRig(width: 640, height: 480, refresh: 60, start: 0)
        let runtime = rig.makeRuntime()
        let scene = try runtime.install(ScrollScene.self, settings: NoSettings())
        #expect(runtime.run(untilSettled: true) == .settled)
        return (rig, runtime, scene)
    }

    private func play(_ script: String, on runtime: Runtime, _ rig: DummyDisplayRig, for seconds: Double? = nil) throws {
        runtime.addTouchSource(ScriptedTouchSource(script: try TouchScript(parsing: script), start: rig.clock.now))
        if let seconds { runtime.run(exitAfter: seconds, untilSettled: false) } else { #expect(runtime.run(untilSettled: true) == .settled) }
    }

    @Test("a drag moves the content with the finger, one to one inside the content; the indicator shows while it moves and fades after")
    func dragFollowsFinger() throws {
        let (rig, runtime, scene) = try makeScene()
        try play("at 0.1 drag 320,380 320,180 over 0.4", on: runtime, rig, for: 0.35)   // mid-drag
        let pan = scene.outer.panGestureRecognizer
        #expect(scene.outer.isDragging)
        let translation = pan.translation(in: scene.outer.layer)
        #expect(translation.y < -50)
        #expect(abs(scene.outer.contentOffset.y + translation.y) < 1e-9 && scene.outer.contentOffset.x == 0)
        #expect(scene.outer.verticalIndicator.opacity == 1 && scene.outer.horizontalIndicator.opacity == 0)
        #expect(runtime.run(untilSettled: true) == .settled)
        #expect(!scene.outer.isDragging && !scene.outer.isDecelerating)
        #expect(scene.outer.verticalIndicator.opacity == 0)
    }

    @Test("pulled past the top it rubber-bands (offset·d·c/(d + c·offset)) and springs back to exactly 0 when released")
    func rubberBandAndSpringBack() throws {
        let (rig, runtime, scene) = try makeScene()
        try play("at 0.1 drag 320,150 320,450 over 0.6", on: runtime, rig, for: 0.5)
        let pulled = -scene.outer.panGestureRecognizer.translation(in: scene.outer.layer).y
        #expect(pulled < -100)
        let expected = pulled * 300 * 0.55 / (300 + 0.55 * abs(pulled))
        #expect(abs(scene.outer.contentOffset.y - expected) < 1e-9)
        #expect(runtime.run(untilSettled: true) == .settled)
        #expect(scene.outer.contentOffset.y == 0)
        #expect(scene.offsets.allSatisfy { $0 <= 1e-9 })              // back from above, never past the edge
    }

    @Test("a flick decelerates by 0.998 a millisecond: each frame's step is d^(1000/60) of the last, until it rests inside")
    func flickDecelerates() throws {
        let (rig, runtime, scene) = try makeScene()
        try play("at 0.1 drag 320,380 320,110 over 0.15", on: runtime, rig)
        // Between frames of the motion (1/60 s apart on the virtual clock), not the first
        // step from the finger's last position.
        let steps = zip(scene.motionOffsets, scene.motionOffsets.dropFirst()).map { $1 - $0 }
        let ratio = pow(0.998, 1000.0 / 60)
        let decaying = zip(steps, steps.dropFirst()).filter { $0.0 > 0.5 }
        #expect(decaying.count > 30)
        for (a, b) in decaying { #expect(abs(b / a - ratio) < 1e-6, "steps \(a) then \(b)") }
        let final = scene.outer.contentOffset.y
        #expect(final > 300 && final <= scene.outer.maximumOffset.y)
    }

    @Test("a finger on moving content stops it where it is")
    func touchStops() throws {
        let (rig, runtime, scene) = try makeScene()
        try play("at 0.1 drag 320,380 320,110 over 0.15\nat 0.45 tap 320,240 hold 0.3", on: runtime, rig, for: 0.5)
        #expect(!scene.outer.isDecelerating)
        let held = scene.outer.contentOffset.y
        #expect(held > 0)
        #expect(runtime.run(untilSettled: true) == .settled)
        #expect(scene.outer.contentOffset.y == held)
    }

    @Test("sideways drags move the inner scroller, vertical ones the outer, on the same spot")
    func nestedScrollers() throws {
        let (rig, runtime, scene) = try makeScene()
        try play("at 0.1 drag 400,140 200,150 over 0.5", on: runtime, rig)       // on the inner strip (top 100 px)
        #expect(scene.inner.contentOffset.x > 150 && scene.inner.contentOffset.y == 0)
        #expect(scene.outer.contentOffset.y == 0)
        try play("at 0.1 drag 320,180 330,130 over 0.5", on: runtime, rig)
        let innerX = scene.inner.contentOffset.x
        #expect(scene.outer.contentOffset.y > 20)
        #expect(scene.inner.contentOffset.x == innerX)
    }

    @Test("with paging, a drag settles on a whole page: back when short and slow, on when past half or flicked")
    func paging() throws {
        let (rig, runtime, scene) = try makeScene()
        scene.inner.isPagingEnabled = true
        try play("at 0.1 drag 300,140 230,140 over 1.0", on: runtime, rig)          // 60 px, slowly
        #expect(scene.inner.contentOffset.x == 0)
        try play("at 0.1 drag 450,140 190,140 over 1.0", on: runtime, rig)          // past half
        #expect(scene.inner.contentOffset.x == 400)
        try play("at 0.1 drag 300,140 250,140 over 0.05", on: runtime, rig)         // a short flick
        #expect(scene.inner.contentOffset.x == 800)
        try play("at 0.1 drag 130,140 510,140 over 0.05", on: runtime, rig)         // a hard flick back: one page only
        #expect(scene.inner.contentOffset.x == 400)
    }

    @Test("an animated offset change springs there and stops; a set offset stops any motion")
    func setOffset() throws {
        let (_, runtime, scene) = try makeScene()
        scene.outer.setContentOffset(Point(x: 0, y: 900), animated: true)
        #expect(scene.outer.isDecelerating)
        #expect(runtime.run(untilSettled: true) == .settled)
        #expect(scene.outer.contentOffset.y == 900)
        scene.outer.setContentOffset(Point(x: 0, y: 99_999), animated: true)     // clamped to the content
        #expect(runtime.run(untilSettled: true) == .settled)
        #expect(scene.outer.contentOffset.y == 2_700)
        scene.outer.contentOffset = Point(x: 0, y: 50)
        #expect(scene.outer.contentOffset.y == 50 && !scene.outer.isDecelerating)
    }
}
