import Foundation
import Testing
@testable import LaminaAnimation

/// WPT's simple-iteration-progress tests as data (Fixtures/wpt-simple-iteration-progress.json),
/// sampled where WPT's effect-tests.js samples: before the active boundary, at it, and after.
@Suite("Web Animations timing model (rule 88)")
struct WebAnimationTimingTests {
    struct Row: Decodable {
        var source: String
        var input: [String: Value]
        var before: Double?
        var activeBoundary: Double?
        var after: Double?
        var playbackRate: Double?
    }

    /// A number, "Infinity", or a fill name.
    enum Value: Decodable {
        case number(Double), text(String)
        init(from decoder: Decoder) throws {
            let c = try decoder.singleValueContainer()
            if let d = try? c.decode(Double.self) { self = .number(d) } else { self = .text(try c.decode(String.self)) }
        }
        var number: Double? {
            switch self {
            case .number(let d): return d
            case .text(let s): return s == "Infinity" ? .infinity : nil
            }
        }
    }

    static func timing(_ row: Row) -> WebAnimationTiming {
        var t = WebAnimationTiming()
        if let v = row.input["delay"]?.number { t.delay = v }
        if let v = row.input["endDelay"]?.number { t.endDelay = v }
        if let v = row.input["duration"]?.number { t.duration = v }
        if let v = row.input["iterations"]?.number { t.iterations = v }
        if let v = row.input["iterationStart"]?.number { t.iterationStart = v }
        if case .text(let fill)? = row.input["fill"] { t.fill = WebAnimationTiming.Fill(rawValue: fill) ?? .auto }
        t.playbackRate = row.playbackRate ?? 1
        return t
    }

    @Test("every ported row of simple-iteration-progress.html")
    func simpleIterationProgress() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Fixtures/wpt-simple-iteration-progress.json")
        struct File: Decodable { var rows: [Row] }
        let rows = try JSONDecoder().decode(File.self, from: Data(contentsOf: url)).rows
        #expect(rows.count == 49)
        for row in rows {
            let t = Self.timing(row)
            let forwards = t.playbackRate >= 0
            let before = forwards ? t.beforeActiveBoundary - 1 : t.beforeActiveBoundary
            #expect(t.simpleIterationProgress(at: before) == row.before, "\(row.source) \(row.input) before")
            if t.activeDuration > 0 {
                let boundary = forwards ? t.beforeActiveBoundary : t.activeAfterBoundary
                #expect(t.simpleIterationProgress(at: boundary) == row.activeBoundary, "\(row.source) \(row.input) active")
            }
            if t.activeDuration.isFinite {
                let after = forwards ? t.activeAfterBoundary : t.activeAfterBoundary + 1
                #expect(t.simpleIterationProgress(at: after) == row.after, "\(row.source) \(row.input) after")
            }
        }
    }

    struct IterationRow: Decodable {
        var source: String
        var input: [String: Value]
        var before: Value?
        var activeBoundary: Value?
        var after: Value?
        var playbackRate: Double?
        var row: Row { Row(source: source, input: input, before: nil, activeBoundary: nil, after: nil, playbackRate: playbackRate) }
    }

    @Test("every ported row of current-iteration.html")
    func currentIteration() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Fixtures/wpt-current-iteration.json")
        struct File: Decodable { var rows: [IterationRow] }
        let rows = try JSONDecoder().decode(File.self, from: Data(contentsOf: url)).rows
        #expect(rows.count == 50)
        for r in rows {
            let t = Self.timing(r.row)
            let forwards = t.playbackRate >= 0
            let before = forwards ? t.beforeActiveBoundary - 1 : t.beforeActiveBoundary
            #expect(t.currentIteration(at: before) == r.before?.number, "\(r.source) \(r.input) before")
            if t.activeDuration > 0 {
                let boundary = forwards ? t.beforeActiveBoundary : t.activeAfterBoundary
                #expect(t.currentIteration(at: boundary) == r.activeBoundary?.number, "\(r.source) \(r.input) active")
            }
            if t.activeDuration.isFinite {
                let after = forwards ? t.activeAfterBoundary : t.activeAfterBoundary + 1
                #expect(t.currentIteration(at: after) == r.after?.number, "\(r.source) \(r.input) after")
            }
        }
    }

    struct ActiveTimeRow: Decodable {
        var source: String
        var input: [String: Value]
        var localTime: Value
        var progress: Double?
        var currentIteration: Value?
    }

    @Test("every ported case of active-time.html (progress within 1e-6 as WPT's assert_time_equals_literal)")
    func activeTime() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Fixtures/wpt-active-time.json")
        struct File: Decodable { var rows: [ActiveTimeRow] }
        let rows = try JSONDecoder().decode(File.self, from: Data(contentsOf: url)).rows
        #expect(rows.count == 16)
        for r in rows {
            let t = Self.timing(Row(source: r.source, input: r.input, before: nil, activeBoundary: nil, after: nil, playbackRate: nil))
            let local: Double
            if case .text("end") = r.localTime { local = t.endTime } else { local = r.localTime.number ?? 0 }
            let progress = t.simpleIterationProgress(at: local)
            if let expected = r.progress {
                #expect(abs((progress ?? .nan) - expected) < 1e-6, "\(r.source): \(String(describing: progress))")
            } else {
                #expect(progress == nil, "\(r.source)")
            }
            if let iteration = r.currentIteration?.number {
                #expect(t.currentIteration(at: local) == iteration, "\(r.source)")
            }
        }
    }

    struct PhaseRow: Decodable {
        var source: String
        var input: [String: Value]
        var currentTime: Double
        var phase: String
        var playbackRate: Double?
    }

    @Test("every ported case of phases-and-states.html: the boundary belongs to the phase in the playing direction")
    func phases() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/wpt-phases.json")
        struct File: Decodable { var rows: [PhaseRow] }
        let rows = try JSONDecoder().decode(File.self, from: Data(contentsOf: url)).rows
        #expect(rows.count == 37)
        for r in rows {
            let t = Self.timing(Row(source: r.source, input: r.input, before: nil, activeBoundary: nil, after: nil,
                                    playbackRate: r.playbackRate))
            let phase: String
            switch t.phase(at: r.currentTime) {
            case .before: phase = "before"
            case .active: phase = "active"
            case .after: phase = "after"
            }
            #expect(phase == r.phase, "\(r.source) at \(r.currentTime)")
        }
    }

    @Test("crosswalk (rule 87): Core Animation's end-inclusive interval vs Web Animations' after phase at the end instant")
    func crosswalk() {
        var wa = WebAnimationTiming()
        wa.duration = 1
        wa.fill = .none
        var ca = MediaTiming()
        ca.duration = 1
        #expect(wa.phase(at: 1) == .after && wa.simpleIterationProgress(at: 1) == nil)   // no fill: no effect
        #expect(ca.phase(at: 1)?.fraction == 1)                                          // shows the end value
        wa.iterations = 2.3
        wa.fill = .both
        #expect(wa.currentIteration(at: 10) == 2 && abs(wa.simpleIterationProgress(at: 10)! - 0.3) < 1e-12)
    }
}
