import LaminaGeometry

/// A bad line in a touch script.
public struct TouchScriptError: Error, Equatable, CustomStringConvertible {
    /// 1-based line number.
    public var line: Int
    public var reason: String

    public var description: String { "line \(line): \(reason)" }
}

/// A scripted sequence of touches, replayed on the run's clock through the same path as
/// libinput touches.
///
/// One action per line; `#` starts a comment; times are seconds from the start of the run;
/// coordinates are panel pixels `x,y`:
///
///     at 0.5 tap 960,540                      # down, then up 0.08 s later
///     at 2.0 tap 960,540 hold 0.3             # a longer press
///     at 3.0 drag 400,540 1200,540 over 0.6   # down, moves along the points, up
///     at 4.0 drag 400,300 800,300 800,700 over 1.2
///
/// A drag moves at constant speed along its polyline, reporting a motion every 1/120 s (a
/// typical touch controller rate), and lifts at its last point. Touches that overlap in time
/// get different slots (multi-touch).
public struct TouchScript: Sendable {
    public enum Action: Hashable, Sendable {
        case tap(at: Point, hold: Double)
        case drag(through: [Point], duration: Double)
    }

    public struct Step: Hashable, Sendable {
        public var time: Double
        public var action: Action

        public init(time: Double, action: Action) {
            self.time = time
            self.action = action
        }
    }

    public static let defaultTapHold = 0.08
    public static let motionInterval = 1.0 / 120

    public var steps: [Step]

    public init(steps: [Step]) {
        self.steps = steps
    }

    /// Parses the text of a script.
    public init(parsing text: String) throws(TouchScriptError) {
        var steps: [Step] = []
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = rawLine.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" }).map(String.init)
            if words.isEmpty { continue }
            steps.append(try Self.parseStep(words, line: index + 1))
        }
        self.init(steps: steps.sorted { $0.time < $1.time })
    }

    private static func parseStep(_ words: [String], line: Int) throws(TouchScriptError) -> Step {
        func fail(_ reason: String) -> TouchScriptError { TouchScriptError(line: line, reason: reason) }
        func number(_ word: String, _ what: String) throws(TouchScriptError) -> Double {
            guard let v = Double(word), v.isFinite else { throw fail("\(what) '\(word)' is not a number") }
            return v
        }
        func point(_ word: String) throws(TouchScriptError) -> Point {
            let parts = word.split(separator: ",", omittingEmptySubsequences: false)
            guard parts.count == 2, let x = Double(parts[0]), let y = Double(parts[1]), x.isFinite, y.isFinite else {
                throw fail("'\(word)' is not a point; write x,y with no spaces, such as 960,540")
            }
            return Point(x: x, y: y)
        }
        guard words.count >= 3, words[0] == "at" else {
            throw fail("expected 'at TIME tap X,Y' or 'at TIME drag X,Y X,Y ... over SECONDS'")
        }
        let time = try number(words[1], "time")
        guard time >= 0 else { throw fail("time \(words[1]) is negative") }
        switch words[2] {
        case "tap":
            guard words.count == 4 || (words.count == 6 && words[4] == "hold") else {
                throw fail("a tap is 'at TIME tap X,Y' with an optional 'hold SECONDS'")
            }
            let hold = words.count == 6 ? try number(words[5], "hold") : defaultTapHold
            guard hold > 0 else { throw fail("hold must be positive") }
            return Step(time: time, action: .tap(at: try point(words[3]), hold: hold))
        case "drag":
            guard let overIndex = words.firstIndex(of: "over"), overIndex == words.count - 2 else {
                throw fail("a drag ends with 'over SECONDS'")
            }
            var points: [Point] = []
            for word in words[3..<overIndex] { points.append(try point(word)) }
            guard points.count >= 2 else { throw fail("a drag needs at least two points") }
            let duration = try number(words[overIndex + 1], "duration")
            guard duration > 0 else { throw fail("a drag's duration must be positive") }
            return Step(time: time, action: .drag(through: points, duration: duration))
        default:
            throw fail("unknown action '\(words[2])'; use tap or drag")
        }
    }

    /// The raw events of the script, with times offset by `start`, in time order.
    public func events(start: Double = 0) -> [TouchEvent] {
        var events: [(event: TouchEvent, order: Int)] = []
        var busyUntil: [Double] = []   // per slot: when its current touch lifts
        var order = 0
        func add(_ time: Double, _ kind: TouchEvent.Kind) {
            events.append((TouchEvent(time: start + time, kind: kind), order))
            order += 1
        }
        for step in steps {
            let end: Double
            switch step.action {
            case .tap(_, let hold): end = step.time + hold
            case .drag(_, let duration): end = step.time + duration
            }
            let slot = busyUntil.firstIndex { $0 < step.time } ?? busyUntil.count
            if slot == busyUntil.count { busyUntil.append(end) } else { busyUntil[slot] = end }
            switch step.action {
            case .tap(let p, _):
                add(step.time, .down(slot: slot, position: p)); add(step.time, .frame)
                add(end, .up(slot: slot)); add(end, .frame)
            case .drag(let points, let duration):
                add(step.time, .down(slot: slot, position: points[0])); add(step.time, .frame)
                let samples = max(1, Int((duration / Self.motionInterval).rounded(.up)))
                for i in 1...samples {
                    let fraction = Double(i) / Double(samples)
                    add(step.time + duration * fraction, .motion(slot: slot, position: Self.point(along: points, at: fraction)))
                    add(step.time + duration * fraction, .frame)
                }
                add(end, .up(slot: slot)); add(end, .frame)
            }
        }
        return events.sorted { ($0.event.time, $0.order) < ($1.event.time, $1.order) }.map(\.event)
    }

    /// The point at `fraction` of the polyline's length.
    static func point(along points: [Point], at fraction: Double) -> Point {
        let lengths = zip(points, points.dropFirst()).map { $0.distance(to: $1) }
        let total = lengths.reduce(0, +)
        guard total > 0 else { return points.last! }
        var remaining = fraction * total
        for (i, length) in lengths.enumerated() {
            if remaining <= length || i == lengths.count - 1 {
                return points[i].interpolated(to: points[i + 1], by: length > 0 ? min(remaining / length, 1) : 1)
            }
            remaining -= length
        }
        return points.last!
    }
}

/// Replays a touch script on the run's clock.
public final class ScriptedTouchSource: TouchSource {
    private var pending: [TouchEvent]
    private var index = 0

    /// The script's events, starting at `start` seconds on the run's clock.
    public init(script: TouchScript, start: Double) {
        pending = script.events(start: start)
    }

    public var eventDescriptor: Int32? { nil }
    public var nextEventTime: Double? { index < pending.count ? pending[index].time : nil }
    public var isExhausted: Bool { index >= pending.count }
    public var isSettled: Bool { isExhausted }

    public func events(upTo time: Double) -> [TouchEvent] {
        var due: [TouchEvent] = []
        while index < pending.count, pending[index].time <= time {
            due.append(pending[index])
            index += 1
        }
        return due
    }
}
