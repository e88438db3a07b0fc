import Testing
@testable import LaminaAnimation

/// The measured tables of behaviour.md rules 8 and 9, evaluated through the pure evaluator:
/// opacity 0 → 1 linear over 1 s on a model value of 0.5.
@Suite("Media timing (rules 6–9)")
struct MediaTimingTests {
    static let times = [0, 0.2, 0.5, 0.9, 1.2, 1.5, 1.9, 2.1, 3.0, 4.5]

    /// The presentation value at layer time t: the animated fraction, or the model (0.5).
    static func sample(_ timing: MediaTiming, at t: Double) -> Double {
        timing.phase(at: t)?.fraction ?? 0.5
    }

    static func base() -> MediaTiming {
        var timing = MediaTiming()
        timing.duration = 1
        return timing
    }

    static let rows: [(String, @Sendable (inout MediaTiming) -> Void, [Double])] = [
        ("autoreverses", { $0.autoreverses = true }, [0, 0.2, 0.5, 0.9, 0.8, 0.5, 0.1, 0.5, 0.5, 0.5]),
        ("repeatCount 2.5", { $0.repeatCount = 2.5 }, [0, 0.2, 0.5, 0.9, 0.2, 0.5, 0.9, 0.1, 0.5, 0.5]),
        ("repeatDuration 1.7", { $0.repeatDuration = 1.7 }, [0, 0.2, 0.5, 0.9, 0.2, 0.5, 0.5, 0.5, 0.5, 0.5]),
        ("speed 2 (end inclusive)", { $0.speed = 2 }, [0, 0.4, 1.0, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5]),
        ("timeOffset 0.3 (wraps)", { $0.timeOffset = 0.3 }, [0.3, 0.5, 0.8, 0.2, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5]),
        ("speed −1", { $0.speed = -1 }, [0, 0.8, 0.5, 0.1, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5]),
        ("duration 0 (⇒ 0.25 s)", { $0.duration = 0.25 }, [0, 0.8, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5]),
    ]

    @Test("rule 8 measured rows", arguments: 0..<7)
    func rule8(row: Int) {
        let (name, configure, expected) = Self.rows[row]
        var timing = Self.base()
        configure(&timing)
        for (t, value) in zip(Self.times, expected) {
            #expect(abs(Self.sample(timing, at: t) - value) < 1e-9, "\(name) at t = \(t)")
        }
    }

    @Test("rule 9 fill modes", arguments: [
        (FillMode.removed, [0.5, 0.5, 0.0, 0.5, 0.5]),
        (FillMode.forwards, [0.5, 0.5, 0.0, 0.5, 1.0]),
        (FillMode.backwards, [0.0, 0.0, 0.0, 0.5, 0.5]),
        (FillMode.both, [0.0, 0.0, 0.0, 0.5, 1.0]),
    ])
    func rule9(fill: FillMode, expected: [Double]) {
        var timing = Self.base()
        timing.beginTime = 1
        timing.fillMode = fill
        for (t, value) in zip([0, 0.5, 1, 1.5, 2.5], expected) {
            #expect(abs(Self.sample(timing, at: t) - value) < 1e-9, "\(fill) at t = \(t)")
        }
    }

    @Test("active duration (rule 6): repeatDuration wins and is not doubled by autoreverses")
    func activeDuration() {
        var timing = Self.base()
        timing.autoreverses = true
        #expect(timing.activeDuration == 2)
        timing.repeatCount = 3
        #expect(timing.activeDuration == 6)
        timing.repeatDuration = 1.5
        #expect(timing.activeDuration == 1.5)
        timing.repeatDuration = 0
        timing.repeatCount = .infinity
        #expect(timing.activeDuration == .infinity)
        #expect(timing.phase(at: 1e6 + 0.25)?.fraction == 0.25)
    }

    @Test("iteration counts cycles (rule 7)")
    func iteration() {
        var timing = Self.base()
        timing.repeatCount = 3
        #expect(timing.phase(at: 0.5)?.iteration == 0)
        #expect(timing.phase(at: 2.5)?.iteration == 2)
        #expect(timing.phase(at: 3)?.iteration == 2)      // end instant: last cycle, u = duration
        #expect(timing.phase(at: 3)?.fraction == 1)
    }

    @Test("speed 0 freezes at timeOffset forever")
    func speedZero() {
        var timing = Self.base()
        timing.speed = 0
        timing.timeOffset = 0.4
        #expect(timing.phase(at: -100)?.fraction == 0.4)
        #expect(timing.phase(at: 100)?.fraction == 0.4)
    }
}
