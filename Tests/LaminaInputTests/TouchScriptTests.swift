import Testing
@testable import LaminaGeometry
@testable import LaminaInput

@Suite("Touch scripts")
struct TouchScriptTests {
    @Test("taps and drags parse; comments and blank lines are skipped")
    func parse() throws {
        let script = try TouchScript(parsing: """
            # demo
            at 0.5 tap 960,540

            at 2 drag 0,0 100,0 100,50 over 0.5   # L-shaped
            at 1.0 tap 10.5,20 hold 0.3
            """)
        #expect(script.steps.map(\.time) == [0.5, 1.0, 2])
        #expect(script.steps[0].action == .tap(at: Point(x: 960, y: 540), hold: TouchScript.defaultTapHold))
        #expect(script.steps[1].action == .tap(at: Point(x: 10.5, y: 20), hold: 0.3))
        #expect(script.steps[2].action == .drag(through: [Point(x: 0, y: 0), Point(x: 100, y: 0), Point(x: 100, y: 50)], duration: 0.5))
    }

    @Test("errors name the line and the reason", arguments: [
        ("at x tap 1,2", 1, "not a number"),
        ("\nat 1 tap 1;2", 2, "not a point"),
        ("at 1 swipe 1,2", 1, "unknown action"),
        ("at 1 drag 1,2 over 1", 1, "at least two points"),
        ("at 1 drag 1,2 3,4", 1, "over SECONDS"),
        ("tap 1,2", 1, "expected"),
        ("at -1 tap 1,2", 1, "time -1 is outside 0…10000000"),
        ("at 1 tap 1,2 hold 0", 1, "positive"),
        ("at 1e17 drag 1,2 3,4 over 1", 1, "time 1e17 is outside"),
        ("at 1 drag 1,2 3,4 over 1e17", 1, "duration 1e17 is outside 0…86400"),
        ("at 1 drag 1,2 9e18,4 over 1", 1, "point 9e18,4 is beyond ±16777216 px"),
        ("at 1 tap 1,2 hold nan", 1, "hold 'nan' is not a number"),
        ("at 1 tap 1,2\u{1B}[2J", 1, "'1,2\\u{1B}[2J' is not a point"),
        ("at 1 tap \(String(repeating: "9", count: 5000)),1", 1, "…' is not a point"),
    ])
    func errors(text: String, line: Int, fragment: String) {
        do {
            _ = try TouchScript(parsing: text)
            Issue.record("'\(text)' parsed")
        } catch {
            #expect(error.line == line)
            #expect(error.reason.contains(fragment), "\(error.reason)")
            #expect(!error.reason.contains("\n") && error.reason.count < 200, "one short line")
        }
    }

    @Test("a day-long drag is replayed event by event, never made all at once: the first second is its down and 120 motions")
    func longDragIsLazy() throws {
        let source = ScriptedTouchSource(script: try TouchScript(parsing: "at 0 drag 0,0 86400,0 over 86400"), start: 10)
        let first = source.events(upTo: 11)
        #expect(first.count == 2 + 2 * 120)
        #expect(first[0] == TouchEvent(time: 10, kind: .down(slot: 0, position: .zero)))
        #expect(first.last == TouchEvent(time: 11, kind: .frame))
        if case .motion(0, let p) = first[first.count - 2].kind { #expect(abs(p.x - 1) < 1e-9) } else { Issue.record("\(first)") }
        #expect(source.nextEventTime.map { abs($0 - (11 + 1.0 / 120)) < 1e-9 } == true)
        #expect(!source.isSettled)
    }

    @Test("a tap is down, frame, up after the hold, frame")
    func tapEvents() throws {
        let events = try TouchScript(parsing: "at 1 tap 5,6").events(start: 100)
        #expect(events == [
            TouchEvent(time: 101, kind: .down(slot: 0, position: Point(x: 5, y: 6))), TouchEvent(time: 101, kind: .frame),
            TouchEvent(time: 101.08, kind: .up(slot: 0)), TouchEvent(time: 101.08, kind: .frame),
        ])
    }

    @Test("a drag moves at constant speed along its points every 1/120 s and ends at the last point")
    func dragEvents() throws {
        let events = try TouchScript(parsing: "at 0 drag 0,0 100,0 100,100 over 1").events()
        let motions = events.compactMap { e -> (Double, Point)? in
            if case .motion(_, let p) = e.kind { return (e.time, p) }
            return nil
        }
        #expect(motions.count == 120)
        #expect(motions.last!.1 == Point(x: 100, y: 100))
        let half = motions[59]                                              // t = 0.5: the corner
        #expect(abs(half.0 - 0.5) < 1e-12 && abs(half.1.x - 100) < 1e-9 && abs(half.1.y) < 1e-9)
        #expect(events.map(\.time) == events.map(\.time).sorted())
    }

    @Test("touches that overlap in time get different slots")
    func slots() throws {
        let events = try TouchScript(parsing: "at 0 drag 0,0 10,0 over 1\nat 0.5 tap 3,3\nat 2 tap 4,4").events()
        let downs = events.compactMap { e -> Int? in
            if case .down(let slot, _) = e.kind { return slot }
            return nil
        }
        #expect(downs == [0, 1, 0])
    }

    @Test("the scripted source hands out events as the clock reaches them")
    func source() throws {
        let source = ScriptedTouchSource(script: try TouchScript(parsing: "at 1 tap 1,1"), start: 10)
        #expect(source.nextEventTime == 11)
        #expect(source.events(upTo: 10.5).isEmpty)
        #expect(source.events(upTo: 11).count == 2)
        #expect(source.nextEventTime == 11.08 && !source.isExhausted)
        #expect(source.events(upTo: 20).count == 2)
        #expect(source.isExhausted && source.nextEventTime == nil)
    }
}

@Suite("Touch script end")
struct TouchScriptEndTests {
    @Test("'at TIME end' sets when the run stops, makes no touches, and is allowed once")
    func end() throws {
        let script = try TouchScript(parsing: "at 0.5 tap 10,10\nat 6 end   # the demo stops\n")
        #expect(script.endTime == 6 && script.steps.count == 1)
        #expect(script.events() == (try TouchScript(parsing: "at 0.5 tap 10,10")).events())
        #expect(throws: TouchScriptError(line: 2, reason: "the script already has an end")) {
            try TouchScript(parsing: "at 1 end\nat 2 end")
        }
        #expect(throws: TouchScriptError.self) { try TouchScript(parsing: "at forever end") }
        #expect(try TouchScript(parsing: "at 1 tap 1,1").endTime == nil)
    }
}
