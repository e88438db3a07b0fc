import Lamina
@testable import LaminaSceneFiles
@testable import LaminaRuntime
import LaminaDisplay
import LaminaGeometry
import LaminaInput
import LaminaLayers
import LaminaScenes
import LaminaTestSupport
import Testing

/// Touch events at fixed times, for a runtime on a virtual clock.
final class EventListSource: TouchSource {
    private var events: [TouchEvent]
    init(_ events: [TouchEvent]) { self.events = events }
    var eventDescriptor: Int32? { nil }
    var nextEventTime: Double? { events.first?.time }
    var isSettled: Bool { events.isEmpty }
    func events(upTo time: Double) -> [TouchEvent] {
        let due = events.prefix { $0.time <= time }
        events.removeFirst(due.count)
        return Array(due)
    }

    /// A finger down at `from`, moving to `to` over `duration` with a report every 1/120 s,
    /// lifting `hold` seconds after the last report.
    static func drag(from: Point, to: Point, at start: Double, over duration: Double, hold: Double) -> EventListSource {
        var list = [TouchEvent(time: start, kind: .down(slot: 0, position: from)), TouchEvent(time: start, kind: .frame)]
        let steps = Int((duration * 120).rounded())
        for i in 1...steps {
            let t = start + duration * Double(i) / Double(steps)
            list.append(TouchEvent(time: t, kind: .motion(slot: 0, position: from + (to - from) * (Double(i) / Double(steps)))))
            list.append(TouchEvent(time: t, kind: .frame))
        }
        list.append(TouchEvent(time: start + duration + hold, kind: .up(slot: 0)))
        list.append(TouchEvent(time: start + duration + hold, kind: .frame))
        return EventListSource(list)
    }
}

@Suite("Elastic field under a finger")
struct ElasticDragTests {
    /// A 400x300 screen with a 200x100 field in the middle (field x = screen x − 100).
    private func makeField() throws -> (DummyDisplayRig, Runtime, ElasticField) {
        let rig = try DummyDisplayRig(width: 400, height: 300, refresh: 60, start: 0)
        let runtime = rig.makeRuntime()
        var settings = ElasticField.Settings()
        settings.size = Size(width: 200, height: 100)
        let scene = try runtime.install(ElasticField.self, settings: settings)
        #expect(runtime.run(untilSettled: true) == .settled)
        return (rig, runtime, scene)
    }

    @Test("dragging near the right edge pulls its control point with the finger, across the edge only")
    func dragFollowsFinger() throws {
        let (rig, runtime, scene) = try makeField()
        runtime.addTouchSource(EventListSource.drag(from: Point(x: 295, y: 150), to: Point(x: 355, y: 170), at: rig.clock.now + 0.1,
                                                    over: 0.2, hold: 0.5))
        runtime.run(exitAfter: 0.35, untilSettled: false)                 // the finger rests at the end
        #expect(scene.draggedEdge == 1)
        #expect(scene.controlPoints[1].position == Point(x: 255, y: 50))  // finger x in field space, edge's own y
        #expect(scene.taps == 0)
    }

    @Test("a fling releases the spring with the finger's velocity over the distance back; a finger at rest releases it with none; both settle at rest")
    func releaseVelocity() throws {
        for hold in [0.0, 0.05] {
            let (rig, runtime, scene) = try makeField()
            let rest = rig.display.shadow.copy()
            runtime.addTouchSource(EventListSource.drag(from: Point(x: 295, y: 150), to: Point(x: 355, y: 150), at: rig.clock.now + 0.1,
                                                        over: 0.2, hold: hold))
            runtime.run(exitAfter: 0.31 + hold, untilSettled: false)
            let release = try #require(scene.lastReleaseVelocity)
            if hold == 0 {
                // 300 pt/s outward, 55 pt from rest: −300/55 per second (away from the target).
                let expected: Double = -300.0 / 55
                #expect(abs(release - expected) < 0.01 * abs(expected), "\(release)")
            } else {
                #expect(release == 0)
            }
            #expect(runtime.run(untilSettled: true) == .settled)
            #expect(scene.controlPoints[1].position == ElasticField.restPositions(Size(width: 200, height: 100))[1])
            #expect(Pixels.differing(rig.display.shadow, rest) == 0)
        }
    }

    @Test("the release's spring carries that velocity, from where the finger left the edge back to rest")
    func springCarriesVelocity() throws {
        let (rig, runtime, scene) = try makeField()
        runtime.addTouchSource(EventListSource.drag(from: Point(x: 295, y: 150), to: Point(x: 355, y: 150), at: rig.clock.now + 0.1,
                                                    over: 0.2, hold: 0))
        runtime.run(exitAfter: 0.301, untilSettled: false)
        let animation = try #require(scene.controlPoints[1].animation(forKey: "elastic"))
        let spring = try #require(animation.spring)
        #expect(spring.initialVelocity == scene.lastReleaseVelocity)
        #expect(abs(spring.dampingRatio - ElasticField.back.dampingRatio) < 1e-9)
        #expect(animation.toValue == .point(Point(x: 200, y: 50)))
    }
}

/// Key events at fixed times.
final class KeyListSource: TouchSource, KeySource {
    private var keys: [KeyEvent]
    init(_ keys: [KeyEvent]) { self.keys = keys }
    var eventDescriptor: Int32? { nil }
    var nextEventTime: Double? { keys.first?.time }
    var isSettled: Bool { keys.isEmpty }
    func events(upTo time: Double) -> [TouchEvent] { [] }
    func keyEvents(upTo time: Double) -> [KeyEvent] {
        let due = keys.prefix { $0.time <= time }
        keys.removeFirst(due.count)
        return Array(due)
    }

    /// Presses and releases of evdev keys: (time, key, pressed).
    static func keys(_ list: [(Double, UInt32, Bool)]) -> KeyListSource {
        KeyListSource(list.map { KeyEvent(time: $0.0, key: $0.1, isPressed: $0.2) })
    }
}

@Suite("Elastic field as a text field")
struct ElasticTextTests {
    @Test("keys type into the field only while it has focus (a tap gives it, Return takes it); backspace and key repeat edit")
    func typing() throws {
        let rig = try DummyDisplayRig(width: 400, height: 300, refresh: 60, start: 0)
        let runtime = rig.makeRuntime()
        runtime.keyboard = try Keyboard(layout: "us")
        var settings = ElasticField.Settings()
        settings.size = Size(width: 300, height: 100)
        let scene = try runtime.install(ElasticField.self, settings: settings)
        #expect(runtime.run(untilSettled: true) == .settled)
        let empty = rig.display.shadow.copy()
        let (h, i, a, shift, backspace, enter): (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32) = (35, 23, 30, 42, 14, 28)
        let t = rig.clock.now
        runtime.addTouchSource(KeyListSource.keys([
            (t + 0.1, a, true), (t + 0.15, a, false),                              // before focus: ignored
            (t + 1.0, shift, true), (t + 1.05, h, true), (t + 1.1, h, false), (t + 1.12, shift, false),
            (t + 1.2, i, true), (t + 1.25, i, false),
            (t + 1.3, backspace, true), (t + 1.35, backspace, false),
            (t + 1.5, a, true), (t + 2.15, a, false),                              // repeats at 2.1 and 2.14
            (t + 2.5, enter, true), (t + 2.55, enter, false),
            (t + 3.0, a, true), (t + 3.05, a, false),                              // after Return: ignored
        ]))
        runtime.addTouchSource(ScriptedTouchSource(script: try TouchScript(parsing: "at 0.5 tap 200,150"), start: t))
        runtime.run(exitAfter: 1.4, untilSettled: false)
        #expect(scene.isFocused && scene.text == "H")
        #expect(runtime.run(untilSettled: true) == .settled)
        #expect(scene.text == "Haaa" && !scene.isFocused)
        #expect(Pixels.differing(rig.display.shadow, empty) > 100)                // the text is drawn
    }
}
