import Foundation
import Testing
@testable import LaminaAnimation
@testable import LaminaGeometry
@testable import LaminaInput
@testable import LaminaLayers

@Suite("Gestures and dispatch")
struct GestureTests {
    /// A 400x300 root with a 100x100 button at (50, 50)–(150, 150), presented at time 0.
    func makeScene() -> (LayerTree, Layer, TouchDispatcher) {
        let root = Layer()
        root.bounds = Rect(x: 0, y: 0, width: 400, height: 300)
        root.anchorPoint = .zero
        let button = Layer()
        button.bounds = Rect(x: 0, y: 0, width: 100, height: 100)
        button.position = Point(x: 100, y: 100)
        root.addSublayer(button)
        let tree = LayerTree(root: root)
        tree.commit(at: 0)
        tree.updatePresentation(at: 0)
        return (tree, button, TouchDispatcher(tree: tree))
    }

    func touches(_ script: String) throws -> [TouchEvent] { try TouchScript(parsing: script).events() }

    @Test("a tap on a layer is recognized once; beside it, nothing (rule 83)")
    func tap() throws {
        let (_, button, dispatcher) = makeScene()
        var states: [GestureRecognizer.State] = []
        let tap = TapGestureRecognizer { states.append($0.state) }
        dispatcher.addGestureRecognizer(tap, to: button)
        for e in try touches("at 0 tap 100,100\nat 1 tap 300,250") { dispatcher.dispatch(e) }
        #expect(states == [.recognized])
        #expect(tap.state == .possible)                                     // reset after the sequence
    }

    @Test("the touch-down observer runs after the touch is delivered: what it removes (a handler, a recognizer) takes effect from the next event, never mid-delivery")
    func touchDownObserverAfterDelivery() throws {
        let (_, button, dispatcher) = makeScene()
        var order: [String] = []
        var tapped = 0
        let tap = TapGestureRecognizer { _ in tapped += 1 }
        dispatcher.addGestureRecognizer(tap, to: button)
        dispatcher.addTouchHandler(to: button) { touch in order.append("handler \(touch.phase)") }
        dispatcher.onTouchDown = { touch in
            order.append("observer")
            // As ending text editing does when the on-screen keyboard hides.
            dispatcher.removeTouchHandlers(of: button)
            dispatcher.removeGestureRecognizer(tap)
        }
        for e in try touches("at 0 tap 100,100") { dispatcher.dispatch(e) }
        // The down reached the handler before the observer ran. The touch keeps its handler
        // until it lifts; the removed recognizer never acts.
        #expect(order == ["handler began", "observer", "handler ended"])
        #expect(tapped == 0 && tap.state == .possible && tap.touches.isEmpty)
        #expect(!dispatcher.hasActiveTouches)
    }

    @Test("a tap that moves more than 10 pt fails")
    func tapSlop() throws {
        let (_, button, dispatcher) = makeScene()
        var fired = 0
        dispatcher.addGestureRecognizer(TapGestureRecognizer { _ in fired += 1 }, to: button)
        for e in try touches("at 0 drag 80,100 92,100 over 0.1") { dispatcher.dispatch(e) }
        #expect(fired == 0)
        for e in try touches("at 1 drag 80,100 89,100 over 0.1") { dispatcher.dispatch(e) }
        #expect(fired == 1)
    }

    @Test("a pan begins after 10 pt with the translation rebased there, and the tap fails (rules 82, 84)")
    func pan() throws {
        let (_, button, dispatcher) = makeScene()
        var log: [(GestureRecognizer.State, Point)] = []
        var tapped = 0
        let pan = PanGestureRecognizer { r in log.append((r.state, r.translation(in: nil))) }
        dispatcher.addGestureRecognizer(pan, to: button)
        dispatcher.addGestureRecognizer(TapGestureRecognizer { _ in tapped += 1 }, to: button.superlayer!)
        let events = try touches("at 0 drag 100,100 160,100 over 0.5")
        for e in events { dispatcher.dispatch(e) }
        #expect(tapped == 0)
        #expect(log.first?.0 == .began && log.first?.1 == .zero)
        #expect(log.last?.0 == .ended)
        // The gesture began at the first motion 10 pt or more from the touch-down point.
        let beganX = events.compactMap { e -> Double? in
            if case .motion(_, let p) = e.kind, p.x - 100 >= 10 { return p.x }
            return nil
        }.first!
        #expect(abs(log.last!.1.x - (160 - beganX)) < 1e-9)
        #expect(log.dropFirst().dropLast().allSatisfy { $0.0 == .changed })
    }

    @Test("touches hit-test the presentation tree (rule 58, Lamina choice)")
    func presentationHitTest() throws {
        let (tree, button, dispatcher) = makeScene()
        button.position = Point(x: 300, y: 100)
        button.add(BasicAnimation(keyPath: "position.x", from: .scalar(100), to: .scalar(300), duration: 1), forKey: "slide")
        tree.commit(at: 0)
        tree.updatePresentation(at: 0)                                      // on screen at x = 100
        var fired = 0
        dispatcher.addGestureRecognizer(TapGestureRecognizer { _ in fired += 1 }, to: button)
        for e in try touches("at 0 tap 100,100") { dispatcher.dispatch(e) }
        #expect(fired == 1)
    }

    @Test("malformed events are reported and dropped, dispatch goes on")
    func badEvents() throws {
        let (_, button, dispatcher) = makeScene()
        var reports: [String] = []
        dispatcher.report = { reports.append($0) }
        var fired = 0
        dispatcher.addGestureRecognizer(TapGestureRecognizer { _ in fired += 1 }, to: button)
        dispatcher.dispatch(TouchEvent(time: 0, kind: .motion(slot: 3, position: .zero)))
        dispatcher.dispatch(TouchEvent(time: 0, kind: .up(slot: 4)))
        dispatcher.dispatch(TouchEvent(time: 0, kind: .down(slot: 0, position: Point(x: 100, y: 100))))
        dispatcher.dispatch(TouchEvent(time: 0, kind: .down(slot: 0, position: Point(x: 100, y: 100))))
        dispatcher.dispatch(TouchEvent(time: 0.05, kind: .up(slot: 0)))
        #expect(dispatcher.droppedEvents == 3 && reports.count == 3)
        #expect(fired == 1)
    }
}

@Suite("Velocity tracker (rule 85)")
struct VelocityTrackerTests {
    @Test("constant velocity is exact; a parabola gives its derivative at the newest sample")
    func fits() {
        var linear = VelocityTracker()
        var parabola = VelocityTracker()
        for i in 0..<10 {
            let t = Double(i) * 0.008
            linear.add(Point(x: 3 + 250 * t, y: -400 * t), at: t)
            parabola.add(Point(x: 1000 * t * t, y: 0), at: t)
        }
        let now = 9 * 0.008
        let v = linear.velocity(at: now)
        #expect(abs(v.x - 250) < 1e-6 && abs(v.y + 400) < 1e-6)
        #expect(abs(parabola.velocity(at: now).x - 2000 * now) < 1e-6)
    }

    @Test("samples older than 100 ms or before a 40 ms gap are ignored; stale input gives 0")
    func windows() {
        var tracker = VelocityTracker()
        tracker.add(Point(x: 0, y: 0), at: 0)
        tracker.add(Point(x: 1000, y: 0), at: 0.001)                        // before the gap: ignored
        tracker.add(Point(x: 0, y: 0), at: 0.1)
        tracker.add(Point(x: 10, y: 0), at: 0.11)
        #expect(abs(tracker.velocity(at: 0.11).x - 1000) < 1e-9)            // two samples: the slope
        #expect(tracker.velocity(at: 0.2) == .zero)                         // newest is 90 ms old
    }
}

/// Flutter's recorded strokes and the velocities its tracker gives at each lift (rule 85's
/// oracle), regenerated by `Fixtures/make-flutter-velocity.py`.
@Suite("Velocity tracker against Flutter's recorded strokes")
struct FlutterVelocityTests {
    struct Row: Decodable {
        var pointer: Int
        var samples: [[Double]]
        var upMs: Double
        var expected: [Double]
        var relativeTolerance: Double
        var source: String
    }

    static let rows: [Row] = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/flutter-velocity.json")
        return (try? JSONDecoder().decode([Row].self, from: Data(contentsOf: url))) ?? []
    }()

    @Test("each stroke's velocity at the lift is Flutter's within 0.1 %", arguments: rows.map(\.pointer))
    func stroke(pointer: Int) throws {
        let row = try #require(Self.rows.first { $0.pointer == pointer })
        var tracker = VelocityTracker()
        for s in row.samples { tracker.add(Point(x: s[1], y: s[2]), at: s[0] / 1000) }
        let v = tracker.velocity(at: row.upMs / 1000)
        #expect(abs(v.x - row.expected[0]) <= row.relativeTolerance * abs(row.expected[0]), "\(row.source): vx \(v.x)")
        #expect(abs(v.y - row.expected[1]) <= row.relativeTolerance * abs(row.expected[1]), "\(row.source): vy \(v.y)")
    }

    @Test("the fixture has the six strokes")
    func fixtureLoaded() { #expect(Self.rows.count == 6) }
}
