@testable import Lamina
@testable import LaminaRuntime
import Testing

/// A timed source that counts its turns: due every `period` seconds from `start`.
private final class Ticker: LoopSource {
    let phase: LoopPhase
    let period: Double
    var due: Double
    var serviced: [Double] = []
    var log: (String) -> Void

    init(phase: LoopPhase, start: Double, period: Double, log: @escaping (String) -> Void = { _ in }) {
        self.phase = phase
        self.period = period
        due = start
        self.log = log
    }

    func nextDeadline(now: Double) -> Double? { due }

    func service(now: Double) -> Bool {
        guard now >= due else { return false }
        serviced.append(now)
        log("\(phase)")
        due += period
        return true
    }
}

/// A touch source whose touches, keys and pointer motion come in one batch read at the
/// first `events(upTo:)` of a turn, as libinput's do.
private final class BatchSource: TouchSource {
    var batchAt: Double
    var touches: [TouchEvent] = []
    var keys: [KeyEvent] = []
    var motion: (time: Double, position: Point)?
    private var read = false

    init(batchAt: Double, touches: [TouchEvent], keys: [KeyEvent], motion: (time: Double, position: Point)?) {
        self.batchAt = batchAt
        self.touches = touches
        self.keys = keys
        self.motion = motion
    }

    var eventDescriptor: Int32? { nil }
    var nextEventTime: Double? {
        if !read { return batchAt }
        // What was read and not taken yet is due at once.
        return [keys.first?.time, motion?.time].compactMap { $0 }.min()
    }
    var isSettled: Bool { read && keys.isEmpty && motion == nil }

    func events(upTo time: Double) -> [TouchEvent] {
        guard !read, time >= batchAt else { return [] }
        read = true
        defer { touches = [] }
        return touches
    }

    func keyEvents(upTo time: Double) -> [KeyEvent] {
        guard read else { return [] }
        defer { keys = [] }
        return keys
    }

    func takePointerMotion() -> (time: Double, position: Point)? {
        guard read else { return nil }
        defer { motion = nil }
        return motion
    }
}

@Suite("Loop sources")
struct LoopSourceTests {
    @Test("the registry: the earliest deadline, phases serviced apart in registration order, a keyed source replaced")
    func registry() {
        var order: [String] = []
        var sources = LoopSources()
        let late = Ticker(phase: .display, start: 5, period: 1) { order.append("late \($0)") }
        let early = Ticker(phase: .input, start: 2, period: 1) { order.append("early \($0)") }
        let second = Ticker(phase: .input, start: 2, period: 1) { order.append("second \($0)") }
        sources.register(late)
        sources.register(early)
        sources.register(early)                                     // once only
        sources.register(second)
        #expect(sources.registered.count == 3)
        #expect(sources.nextDeadline(now: 0) == 2)
        #expect(!sources.service(.input, now: 1))                   // nothing due yet
        #expect(sources.service(.input, now: 2))
        #expect(order == ["early input", "second input"])
        #expect(!sources.service(.display, now: 2) && late.serviced.isEmpty)
        #expect(sources.nextDeadline(now: 2) == 3)

        let watch = Ticker(phase: .woken, start: 0.5, period: 1)
        sources.set(watch, forKey: "watch")
        #expect(sources.nextDeadline(now: 0) == 0.5)
        let replacement = Ticker(phase: .woken, start: 0.75, period: 1)
        sources.set(replacement, forKey: "watch")
        #expect(sources.registered.count == 4 && sources.nextDeadline(now: 0) == 0.75)
        sources.set(nil, forKey: "watch")
        #expect(sources.registered.count == 3 && sources.nextDeadline(now: 0) == 3)
    }

    @Test("a registered source's deadline wakes the loop and it is serviced in its phase, on the virtual clock")
    func registeredSourceWakesTheLoop() throws {
        let runtime = try Runtime.headless()
        var phases: [String] = []
        let ticker = Ticker(phase: .end, start: 0.25, period: 0.5) { phases.append($0) }
        runtime.setLoopSource(ticker, forKey: "ticker")
        runtime.run(exitAfter: 1.6, untilSettled: false)
        #expect(ticker.serviced == [0.25, 0.75, 1.25])
        #expect(phases == ["end", "end", "end"])
        runtime.setLoopSource(nil, forKey: "ticker")
        runtime.run(exitAfter: 1, untilSettled: false)
        #expect(ticker.serviced.count == 3)                          // unregistered: no more turns
    }

    @Test("a touch, a key and pointer motion read in one batch are all delivered in the turn that read them")
    func batchDeliveredInOneTurn() throws {
        let runtime = try Runtime.headless()
        let box = Layer()
        box.bounds = Rect(x: 0, y: 0, width: 800, height: 480)
        box.position = Point(x: 400, y: 240)
        runtime.rootLayer.addSublayer(box)
        var touched: [Double] = [], keyed: [Double] = []
        runtime.dispatcher.addTouchHandler(to: box) { touch in
            if touch.phase == .began { touched.append(runtime.clock.now) }
        }
        runtime.keyHandler = { _ in keyed.append(runtime.clock.now) }
        runtime.setCursorMode(.auto)
        let source = BatchSource(batchAt: 0.5,
                                 touches: [TouchEvent(time: 0.5, kind: .down(slot: 0, position: Point(x: 100, y: 100))),
                                           TouchEvent(time: 0.5, kind: .frame)],
                                 keys: [KeyEvent(time: 0.5, key: 30, isPressed: true)],
                                 motion: (0.5, Point(x: 300, y: 200)))
        runtime.addTouchSource(source)
        runtime.run(exitAfter: 0.6, untilSettled: false)
        #expect(touched == [0.5])
        #expect(keyed == [0.5])
        #expect(runtime.cursor?.position == Point(x: 300, y: 200))
        #expect(source.isSettled)                                    // nothing left behind in the source
    }

    @Test("pointer motion is taken even when no pointer is drawn, so a mouse cannot keep the loop busy")
    func motionWithoutCursorIsTaken() throws {
        let runtime = try Runtime.headless()
        let source = BatchSource(batchAt: 0.5, touches: [], keys: [], motion: (0.5, Point(x: 10, y: 10)))
        runtime.addTouchSource(source)
        runtime.run(exitAfter: 0.6, untilSettled: false)
        #expect(runtime.cursor == nil && source.isSettled && source.nextEventTime == nil)
    }
}
