import Foundation
import Testing
@testable import LaminaGeometry
@testable import LaminaInput
@testable import LaminaLayers

/// Replays hand-written touch events through a dispatcher, letting recognizer timers run
/// between them (the run loop's `advance`).
struct TouchPlayer {
    let dispatcher: TouchDispatcher
    let button: Layer

    /// A 400x300 root with a 200x200 button centred at (200, 150).
    init() {
        let root = Layer()
        root.bounds = Rect(x: 0, y: 0, width: 400, height: 300)
        root.anchorPoint = .zero
        button = Layer()
        button.bounds = Rect(x: 0, y: 0, width: 200, height: 200)
        button.position = Point(x: 200, y: 150)
        root.addSublayer(button)
        let tree = LayerTree(root: root)
        tree.commit(at: 0)
        tree.updatePresentation(at: 0)
        dispatcher = TouchDispatcher(tree: tree)
    }

    /// Runs timers due up to `time`, then dispatches the event and closes its frame.
    func send(_ time: Double, _ kind: TouchEvent.Kind) {
        advance(to: time)
        dispatcher.dispatch(TouchEvent(time: time, kind: kind))
        dispatcher.dispatch(TouchEvent(time: time, kind: .frame))
    }

    func advance(to time: Double) {
        while let deadline = dispatcher.nextDeadline, deadline <= time { dispatcher.advance(to: deadline) }
    }

    func down(_ t: Double, _ slot: Int, _ x: Double, _ y: Double) { send(t, .down(slot: slot, position: Point(x: x, y: y))) }
    func move(_ t: Double, _ slot: Int, _ x: Double, _ y: Double) { send(t, .motion(slot: slot, position: Point(x: x, y: y))) }
    func up(_ t: Double, _ slot: Int) { send(t, .up(slot: slot)) }
    func tap(_ t: Double, _ x: Double = 200, _ y: Double = 150) {
        down(t, 0, x, y)
        up(t + 0.05, 0)
    }
}

/// Records a recognizer's states as its action sees them.
final class StateLog {
    var states: [GestureRecognizer.State] = []
    func record(_ r: GestureRecognizer) { states.append(r.state) }
}

/// A delegate answering from closures.
final class Delegate: GestureRecognizerDelegate {
    var shouldBegin = true
    var simultaneous = false
    var receives: (Touch) -> Bool = { _ in true }
    func gestureRecognizerShouldBegin(_ recognizer: GestureRecognizer) -> Bool { shouldBegin }
    func gestureRecognizer(_ recognizer: GestureRecognizer, shouldRecognizeSimultaneouslyWith other: GestureRecognizer) -> Bool { simultaneous }
    func gestureRecognizer(_ recognizer: GestureRecognizer, shouldReceive touch: Touch) -> Bool { receives(touch) }
}

@Suite("Gesture recognizers (rules 81–84)")
struct RecognizerTests {
    @Test("double tap: two taps within 0.3 s; the single tap that requires it to fail waits, and recognizes alone when the window closes")
    func doubleTap() {
        let p = TouchPlayer()
        let single = StateLog(), double = StateLog()
        let singleTap = TapGestureRecognizer(action: single.record)
        let doubleTap = TapGestureRecognizer(action: double.record)
        doubleTap.numberOfTapsRequired = 2
        singleTap.require(toFail: doubleTap)
        p.dispatcher.addGestureRecognizer(singleTap, to: p.button)
        p.dispatcher.addGestureRecognizer(doubleTap, to: p.button)
        p.tap(0)
        p.tap(0.25)                                             // 0.2 s after the first lift
        p.advance(to: 2)
        #expect(double.states == [.recognized] && single.states.isEmpty)
        p.tap(3)
        #expect(single.states.isEmpty)                          // still waiting for the double tap
        p.advance(to: 3.049 + 0.3)
        #expect(single.states.isEmpty)
        p.advance(to: 3.05 + 0.3)
        #expect(single.states == [.recognized] && double.states == [.recognized])
        p.tap(5)
        p.tap(5.5)                                              // 0.45 s after the lift: two single taps
        p.advance(to: 7)
        #expect(single.states == [.recognized, .recognized, .recognized])
    }

    @Test("tapCount counts taps within 0.3 s and 10 pt of the last lift")
    func tapCount() {
        let p = TouchPlayer()
        var counts: [Int] = []
        p.dispatcher.addTouchHandler(to: p.button) { touch in if touch.phase == .began { counts.append(touch.tapCount) } }
        p.tap(0); p.tap(0.2); p.tap(0.4); p.tap(1.0); p.tap(1.2, 250, 150)
        #expect(counts == [1, 2, 3, 1, 1])
    }

    @Test("a two-finger tap needs both fingers down together; one finger fails it")
    func twoFingerTap() {
        let p = TouchPlayer()
        let log = StateLog()
        let tap = TapGestureRecognizer(action: log.record)
        tap.numberOfTouchesRequired = 2
        p.dispatcher.addGestureRecognizer(tap, to: p.button)
        p.tap(0)
        #expect(log.states.isEmpty)
        p.down(1, 0, 180, 150); p.down(1.02, 1, 220, 150); p.up(1.08, 0); p.up(1.1, 1)
        #expect(log.states == [.recognized])
    }

    @Test("long press: began after 0.5 s held still, changed on movement, ended on lift; earlier lift or movement fails it")
    func longPress() {
        let p = TouchPlayer()
        let log = StateLog()
        let press = LongPressGestureRecognizer(action: log.record)
        p.dispatcher.addGestureRecognizer(press, to: p.button)
        p.down(0, 0, 200, 150)
        p.advance(to: 0.499)
        #expect(log.states.isEmpty)
        p.move(0.6, 0, 230, 150)                                // the timer ran out at 0.5 first
        p.up(0.7, 0)
        #expect(log.states == [.began, .changed, .ended])
        log.states.removeAll()
        p.down(1, 0, 200, 150); p.up(1.3, 0)                    // too short
        p.down(2, 0, 200, 150); p.move(2.2, 0, 215, 150); p.advance(to: 3); p.up(3, 0)   // moved 15 pt
        #expect(log.states.isEmpty)
    }

    @Test("a tap lifting before 0.5 s wins over a long press; a held press makes the tap fail")
    func tapVersusLongPress() {
        let p = TouchPlayer()
        let tapLog = StateLog(), pressLog = StateLog()
        p.dispatcher.addGestureRecognizer(TapGestureRecognizer(action: tapLog.record), to: p.button)
        p.dispatcher.addGestureRecognizer(LongPressGestureRecognizer(action: pressLog.record), to: p.button)
        p.tap(0)
        #expect(tapLog.states == [.recognized] && pressLog.states.isEmpty)
        p.down(1, 0, 200, 150); p.advance(to: 1.6); p.up(1.7, 0)
        #expect(tapLog.states == [.recognized] && pressLog.states == [.began, .ended])
    }

    @Test("pinch: scale is the distance over the distance at began, velocity in scale per second")
    func pinch() throws {
        let p = TouchPlayer()
        var scales: [Double] = [], velocities: [Double] = []
        let pinch = PinchGestureRecognizer { r in
            let pinch = r
            scales.append(pinch.scale)
            velocities.append(pinch.velocity)
        }
        p.dispatcher.addGestureRecognizer(pinch, to: p.button)
        // Fingers 100 pt apart spreading at 200 pt/s (each moves 100 pt/s), a report per 8 ms.
        p.down(0, 0, 150, 150); p.down(0, 1, 250, 150)
        var t = 0.0
        while t < 0.2 - 1e-9 {
            t += 0.008
            p.move(t, 0, 150 - 100 * t, 150); p.move(t, 1, 250 + 100 * t, 150)
        }
        p.up(0.2, 0)
        #expect(pinch.state == .ended && scales.count > 5)
        // Began at the first report 10 pt or more apart: at 0.056 s, when the first finger
        // has moved and the second not yet (100 + 200·0.048 + 100·0.008 = 110.4).
        let began = 100 + 200 * 0.048 + 100 * 0.008
        #expect(abs(scales.first! - 1) < 1e-9)
        #expect(abs(scales[scales.count - 2] - (100 + 200 * 0.2) / began) < 1e-6)
        #expect(abs(velocities[velocities.count - 2] - 200 / began) < 1e-6)
    }

    @Test("rotation: radians since began, clockwise positive, through ±π; velocity in radians per second")
    func rotation() {
        let p = TouchPlayer()
        var angles: [Double] = [], velocities: [Double] = []
        let rotation = RotationGestureRecognizer { r in
            let rotation = r
            angles.append(rotation.rotation)
            velocities.append(rotation.velocity)
        }
        p.dispatcher.addGestureRecognizer(rotation, to: p.button)
        // Two fingers 80 pt from the centre, turning at 4 rad/s for 1 s (past half a turn).
        let c = Point(x: 200, y: 150), r = 80.0, w = 4.0
        func at(_ a: Double) -> (Point, Point) {
            (c + Point(x: -r * cos(a), y: -r * sin(a)), c + Point(x: r * cos(a), y: r * sin(a)))
        }
        var (a, b) = at(0)
        p.down(0, 0, a.x, a.y); p.down(0, 1, b.x, b.y)
        var t = 0.0
        while t < 1 - 1e-9 {
            t += 0.008
            (a, b) = at(w * t)
            p.move(t, 0, a.x, a.y); p.move(t, 1, b.x, b.y)
        }
        p.up(1, 0)
        // Began at 0.032 s with only the first finger moved: the line's angle is the mean
        // of the fingers' angles, w·(0.032 + 0.024)/2 = 0.112 ≥ 0.1 rad.
        let beganAngle = w * (0.032 + 0.024) / 2
        #expect(abs(angles[angles.count - 2] - (w * 1 - beganAngle)) < 1e-6)
        #expect(abs(velocities[velocities.count - 2] - w) < 1e-6)
    }

    @Test("swipe: 50 pt along an allowed direction within 0.5 s; slow, sideways or wrong-way strokes fail")
    func swipe() {
        let p = TouchPlayer()
        var seen: [SwipeGestureRecognizer.Direction] = []
        let swipe = SwipeGestureRecognizer { r in
            if let d = r.recognizedDirection { seen.append(d) }
        }
        swipe.direction = [.right, .up]
        p.dispatcher.addGestureRecognizer(swipe, to: p.button)
        func stroke(_ t0: Double, _ dx: Double, _ dy: Double, over duration: Double) {
            p.down(t0, 0, 150, 180)
            for i in 1...10 { p.move(t0 + duration * Double(i) / 10, 0, 150 + dx * Double(i) / 10, 180 + dy * Double(i) / 10) }
            p.up(t0 + duration + 0.01, 0)
        }
        stroke(0, 80, 5, over: 0.1)                              // right
        stroke(1, 5, -80, over: 0.1)                             // up
        stroke(2, -80, 0, over: 0.1)                             // left: not allowed
        stroke(3, 80, 0, over: 0.8)                              // too slow
        stroke(4, 60, 45, over: 0.1)                             // too far sideways
        #expect(seen == [.right, .up])
    }

    @Test("the first to recognize makes the others fail; a delegate allowing simultaneity lets pinch and rotation both run")
    func simultaneous() {
        for allow in [false, true] {
            let p = TouchPlayer()
            let pinchLog = StateLog(), rotationLog = StateLog()
            let pinch = PinchGestureRecognizer(action: pinchLog.record)
            let rotation = RotationGestureRecognizer(action: rotationLog.record)
            let delegate = Delegate()
            delegate.simultaneous = allow
            pinch.delegate = delegate
            p.dispatcher.addGestureRecognizer(pinch, to: p.button)
            p.dispatcher.addGestureRecognizer(rotation, to: p.button)
            // Spread (pinch begins first at 10 pt), then turn.
            p.down(0, 0, 150, 150); p.down(0, 1, 250, 150)
            p.move(0.1, 0, 140, 150); p.move(0.1, 1, 260, 150)
            p.move(0.2, 0, 140, 170); p.move(0.2, 1, 260, 130)
            p.up(0.3, 0)
            #expect(pinchLog.states.first == .began)
            #expect(allow ? rotationLog.states.first == .began : rotationLog.states.isEmpty, "allow \(allow)")
        }
    }

    @Test("shouldBegin false fails without an action; shouldReceive false hides the touch")
    func delegateDecisions() {
        let p = TouchPlayer()
        let log = StateLog()
        let tap = TapGestureRecognizer(action: log.record)
        let delegate = Delegate()
        delegate.shouldBegin = false
        tap.delegate = delegate
        p.dispatcher.addGestureRecognizer(tap, to: p.button)
        p.tap(0)
        #expect(log.states.isEmpty && tap.state == .possible)
        delegate.shouldBegin = true
        delegate.receives = { $0.location.x < 200 }
        p.tap(1, 250, 150)
        #expect(log.states.isEmpty)
        p.tap(2, 150, 150)
        #expect(log.states == [.recognized])
    }

    @Test("touch handlers: a recognizing pan cancels the touch for the layer; with cancelsTouchesInView false it ends normally")
    func cancelsTouchesInView() {
        for cancels in [true, false] {
            let p = TouchPlayer()
            var phases: [Touch.Phase] = []
            p.dispatcher.addTouchHandler(to: p.button) { phases.append($0.phase) }
            let pan = PanGestureRecognizer { _ in }
            pan.cancelsTouchesInView = cancels
            p.dispatcher.addGestureRecognizer(pan, to: p.button)
            p.down(0, 0, 150, 150)
            p.move(0.01, 0, 155, 150)
            p.move(0.02, 0, 170, 150)                            // the pan begins
            p.move(0.03, 0, 180, 150)
            p.up(0.04, 0)
            #expect(phases == (cancels ? [.began, .moved, .cancelled] : [.began, .moved, .moved, .moved, .ended]))
        }
    }

    @Test("a lift reaches the handler only once an undecided double tap has decided (delaysTouchesEnded)")
    func delaysTouchesEnded() {
        let p = TouchPlayer()
        var phases: [Touch.Phase] = []
        p.dispatcher.addTouchHandler(to: p.button) { phases.append($0.phase) }
        let double = TapGestureRecognizer { _ in }
        double.numberOfTapsRequired = 2
        p.dispatcher.addGestureRecognizer(double, to: p.button)
        p.tap(0)
        #expect(phases == [.began])                              // the lift waits for the window
        p.advance(to: 0.36)
        #expect(phases == [.began, .ended])
        phases.removeAll()
        p.tap(1); p.tap(1.2)
        #expect(phases == [.began, .began, .cancelled, .cancelled])      // both taps taken by the double tap
    }

    @Test("a finger that did not move in a frame is stationary")
    func stationary() {
        let p = TouchPlayer()
        var last: [Int: Touch] = [:]
        p.dispatcher.addTouchHandler(to: p.button) { last[$0.slot] = $0 }
        p.down(0, 0, 150, 150); p.down(0.01, 1, 250, 150)
        p.move(0.02, 1, 255, 150)
        #expect(last[0]?.phase == .stationary && last[1]?.phase == .moved)
    }

    @Test("an illegal transition traps (rule 81)")
    func illegalTransitionTraps() async {
        await #expect(processExitsWith: .failure) {
            let tap = TapGestureRecognizer { _ in }
            tap.transition(to: .changed)
        }
    }
}
