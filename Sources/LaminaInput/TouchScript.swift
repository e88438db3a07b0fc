import LaminaGeometry

/// A bad line in a touch script.
public struct TouchScriptError: Error, Equatable, CustomStringConvertible {
    /// 1-based line number.
    public var line: Int
    /// What is wrong with the line.
    public var reason: String

    public var description: String { "line \(line): \(Escaped(reason, limit: 600))" }
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
///     at 6.0 end                              # the run stops here
///
/// A drag moves at constant speed along its polyline, reporting a motion every 1/120 s (a
/// typical touch controller rate), and lifts at its last point. Touches that overlap in time
/// get different slots (multi-touch).
public struct TouchScript: Sendable {
    /// What a script line does.
    public enum Action: Hashable, Sendable {
        /// A finger down at a point, held for `hold` seconds, then lifted.
        case tap(at: Point, hold: Double)
        /// A finger down at the first point, moved through the others over `duration` seconds, then lifted.
        case drag(through: [Point], duration: Double)
    }

    /// One line of the script: an action at a time.
    public struct Step: Hashable, Sendable {
        /// Seconds from the start of the run.
        public var time: Double
        /// What happens then.
        public var action: Action

        /// A step from its parts.
        public init(time: Double, action: Action) {
            self.time = time
            self.action = action
        }
    }

    /// How long a tap holds when its line gives no hold (seconds).
    public static let defaultTapHold = 0.08
    /// Seconds between motion events of a drag (120 Hz, a touchscreen's rate).
    public static let motionInterval = 1.0 / 120
    /// Start times a script may use: up to 10⁷ s (about 116 days) from the start of the run.
    public static let times = 0.0...1e7
    /// Holds and drag durations: up to a day.
    public static let durations = 0.0...86_400.0
    /// Positions: within the geometry limit (decision 86), far beyond any panel.
    public static let coordinates = -GeometryLimits.coordinate...GeometryLimits.coordinate
    /// Points in one drag.
    public static let maximumDragPoints = 10_000

    /// The steps, in time order.
    public var steps: [Step]
    /// When the script ends the run (`at TIME end`): for a demo of a scene that never
    /// settles (an animation repeating forever); nil lets the run end as it would.
    public var endTime: Double?

    /// A script of `steps`, ending the run at `endTime` when given.
    public init(steps: [Step], endTime: Double? = nil) {
        self.steps = steps
        self.endTime = endTime
    }

    /// Parses the text of a script.
    public init(parsing text: String) throws(TouchScriptError) {
        var steps: [Step] = []
        var endTime: Double?
        for (index, rawLine) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let line = rawLine.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" }).map(String.init)
            if words.isEmpty { continue }
            if words.count == 3, words[0] == "at", words[2] == "end" {
                guard endTime == nil else { throw TouchScriptError(line: index + 1, reason: "the script already has an end") }
                guard let time = Double(words[1]), Self.times.contains(time) else {
                    throw TouchScriptError(line: index + 1, reason: "end time '\(Escaped(words[1]))' is not a number in \(Escaped.number(Self.times.lowerBound))…\(Escaped.number(Self.times.upperBound))")
                }
                endTime = time
                continue
            }
            steps.append(try Self.parseStep(words, line: index + 1))
        }
        self.init(steps: steps.sorted { $0.time < $1.time }, endTime: endTime)
    }

    private static func parseStep(_ words: [String], line: Int) throws(TouchScriptError) -> Step {
        func fail(_ reason: String) -> TouchScriptError { TouchScriptError(line: line, reason: reason) }
        func number(_ word: String, _ what: String, in range: ClosedRange<Double>) throws(TouchScriptError) -> Double {
            guard let v = Double(word), v.isFinite else { throw fail("\(what) '\(Escaped(word))' is not a number") }
            guard range.contains(v) else {
                throw fail("\(what) \(Escaped(word)) is outside \(Escaped.number(range.lowerBound))…\(Escaped.number(range.upperBound))")
            }
            return v
        }
        func point(_ word: String) throws(TouchScriptError) -> Point {
            let parts = word.split(separator: ",", omittingEmptySubsequences: false)
            guard parts.count == 2, let x = Double(parts[0]), let y = Double(parts[1]), x.isFinite, y.isFinite else {
                throw fail("'\(Escaped(word))' is not a point; write x,y with no spaces, such as 960,540")
            }
            guard coordinates.contains(x), coordinates.contains(y) else {
                throw fail("point \(Escaped(word)) is beyond ±\(Escaped.number(coordinates.upperBound)) px")
            }
            return Point(x: x, y: y)
        }
        guard words.count >= 3, words[0] == "at" else {
            throw fail("expected 'at TIME tap X,Y', 'at TIME drag X,Y X,Y ... over SECONDS' or 'at TIME end'")
        }
        let time = try number(words[1], "time", in: times)
        switch words[2] {
        case "tap":
            guard words.count == 4 || (words.count == 6 && words[4] == "hold") else {
                throw fail("a tap is 'at TIME tap X,Y' with an optional 'hold SECONDS'")
            }
            let hold = words.count == 6 ? try number(words[5], "hold", in: durations) : defaultTapHold
            guard hold > 0 else { throw fail("hold must be positive") }
            return Step(time: time, action: .tap(at: try point(words[3]), hold: hold))
        case "drag":
            guard let overIndex = words.firstIndex(of: "over"), overIndex == words.count - 2 else {
                throw fail("a drag ends with 'over SECONDS'")
            }
            guard overIndex - 3 <= maximumDragPoints else { throw fail("a drag has at most \(maximumDragPoints) points") }
            var points: [Point] = []
            for word in words[3..<overIndex] { points.append(try point(word)) }
            guard points.count >= 2 else { throw fail("a drag needs at least two points") }
            let duration = try number(words[overIndex + 1], "duration", in: durations)
            guard duration > 0 else { throw fail("a drag's duration must be positive") }
            return Step(time: time, action: .drag(through: points, duration: duration))
        default:
            throw fail("unknown action '\(Escaped(words[2]))'; use tap, drag or end")
        }
    }

    /// The raw events of the script, with times offset by `start`, in time order (all of
    /// them at once: for short scripts and tests; a run replays through
    /// `ScriptedTouchSource`, which makes them as they fall due).
    public func events(start: Double = 0) -> [TouchEvent] {
        var cursor = TouchScriptCursor(script: self, start: start)
        var events: [TouchEvent] = []
        while let event = cursor.next() { events.append(event) }
        return events
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

/// The events of a script in time order, made as they are asked for: a drag of a day is
/// ten million motions made one at a time, never a list of them (decision 86).
///
/// Steps start in time order; overlapping touches take the lowest free slot (rule 86).
/// Events at equal times keep the order of their steps, then each step's own order (down,
/// its frame, a motion and its frame per sample, up and its frame).
struct TouchScriptCursor {
    /// One step being played: its slot, how far through its own events it is, and its next
    /// event (made once: a motion measures the whole polyline).
    private struct Playing {
        let step: TouchScript.Step
        let order: Int
        let slot: Int
        let start: Double
        /// Motion samples (drags only).
        let samples: Int
        private var index = 0
        private(set) var upcoming: TouchEvent

        init(step: TouchScript.Step, order: Int, slot: Int, start: Double) {
            self.step = step
            self.order = order
            self.slot = slot
            self.start = start
            if case .drag(_, let duration) = step.action {
                // Steps made in code skip the parser's ranges: a NaN or endless duration still
                // gives a count (at most a day of samples), never a trap.
                let wanted = Int(saturating: (duration / TouchScript.motionInterval).rounded(.up))
                samples = min(max(1, wanted), Int(TouchScript.durations.upperBound / TouchScript.motionInterval))
            } else {
                samples = 0
            }
            upcoming = Self.event(of: step, at: 0, slot: slot, samples: samples, start: start)
        }

        var isDone: Bool { index >= 4 + 2 * samples }

        /// Moves to the step's next event.
        mutating func advance() {
            index += 1
            if !isDone { upcoming = Self.event(of: step, at: index, slot: slot, samples: samples, start: start) }
        }

        /// A step's event at `index`, its time offset by `start`.
        private static func event(of step: TouchScript.Step, at index: Int, slot: Int, samples: Int,
                                  start: Double) -> TouchEvent {
            let kind: TouchEvent.Kind
            var time = step.time
            if index == 0 {
                switch step.action {
                case .tap(let p, _): kind = .down(slot: slot, position: p)
                case .drag(let points, _): kind = .down(slot: slot, position: points[0])
                }
            } else if index == 1 {
                kind = .frame
            } else if index < 2 + 2 * samples, case .drag(let points, let duration) = step.action {
                let fraction = Double((index - 2) / 2 + 1) / Double(samples)
                time += duration * fraction
                kind = index % 2 == 0 ? .motion(slot: slot, position: TouchScript.point(along: points, at: fraction)) : .frame
            } else {
                time = step.end
                kind = index == 2 + 2 * samples ? .up(slot: slot) : .frame
            }
            return TouchEvent(time: start + time, kind: kind)
        }
    }

    private let steps: [TouchScript.Step]
    private let start: Double
    private var nextStep = 0
    private var playing: [Playing] = []
    /// Per slot: when its current touch lifts.
    private var busyUntil: [Double] = []

    init(script: TouchScript, start: Double) {
        steps = script.steps.sorted { $0.time < $1.time }
        self.start = start
    }

    mutating func next() -> TouchEvent? {
        admitSteps()
        guard let i = earliest() else { return nil }
        let event = playing[i].upcoming
        playing[i].advance()
        if playing[i].isDone { playing.remove(at: i) }
        return event
    }

    /// Starts every step that begins no later than the next event of the steps playing.
    private mutating func admitSteps() {
        while nextStep < steps.count {
            let step = steps[nextStep]
            if let i = earliest(), playing[i].upcoming.time < start + step.time { return }
            let slot = busyUntil.firstIndex { $0 < step.time } ?? busyUntil.count
            if slot == busyUntil.count { busyUntil.append(step.end) } else { busyUntil[slot] = step.end }
            playing.append(Playing(step: step, order: nextStep, slot: slot, start: start))
            nextStep += 1
        }
    }

    /// The playing step whose next event comes first (ties: the earlier step).
    private func earliest() -> Int? {
        var best: Int?
        var bestKey = (Double.infinity, Int.max)
        for (i, p) in playing.enumerated() {
            let key = (p.upcoming.time, p.order)
            if key < bestKey { best = i; bestKey = key }
        }
        return best
    }
}

extension TouchScript.Step {
    /// When the step's finger lifts.
    var end: Double {
        switch action {
        case .tap(_, let hold): time + hold
        case .drag(_, let duration): time + duration
        }
    }
}

/// Replays a touch script on the run's clock, making each event as it falls due.
public final class ScriptedTouchSource: TouchSource {
    private var cursor: TouchScriptCursor
    private var upcoming: TouchEvent?

    /// The script's events, starting at `start` seconds on the run's clock.
    public init(script: TouchScript, start: Double) {
        cursor = TouchScriptCursor(script: script, start: start)
        upcoming = nextFinite()
    }

    /// The cursor's next event with a finite time: steps made in code (not parsed) may hold
    /// NaN or infinite times, which would stall the run's clock; they are dropped.
    private func nextFinite() -> TouchEvent? {
        while let event = cursor.next() {
            if event.time.isFinite { return event }
        }
        return nil
    }

    public var eventDescriptor: Int32? { nil }
    public var nextEventTime: Double? { upcoming?.time }
    /// True once every scripted event has been delivered.
    public var isExhausted: Bool { upcoming == nil }
    public var isSettled: Bool { isExhausted }

    public func events(upTo time: Double) -> [TouchEvent] {
        var due: [TouchEvent] = []
        while let event = upcoming, event.time <= time {
            due.append(event)
            upcoming = nextFinite()
        }
        return due
    }
}
