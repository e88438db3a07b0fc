/// A daily span of local time, `HH:MM-HH:MM` (it may pass midnight: `22:00-06:30`), when the
/// screen is off (`[power] schedule_off`).
public struct DailySchedule: Equatable, Sendable, CustomStringConvertible {
    /// Seconds after midnight the span starts.
    public var start: Double
    /// Seconds after midnight it ends.
    public var end: Double

    /// Parses `HH:MM-HH:MM`; nil for anything else (or an empty span).
    public init?(_ text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, let start = Self.time(parts[0]), let end = Self.time(parts[1]), start != end else { return nil }
        self.start = start
        self.end = end
    }

    private static func time(_ text: Substring) -> Double? {
        let hm = text.split(separator: ":", omittingEmptySubsequences: false)
        guard hm.count == 2, hm[0].count == 2, hm[1].count == 2, let h = Int(hm[0]), let m = Int(hm[1]),
              (0..<24).contains(h), (0..<60).contains(m) else { return nil }
        return Double(h * 3600 + m * 60)
    }

    /// Whether `timeOfDay` (seconds after midnight) is inside the span.
    public func contains(_ timeOfDay: Double) -> Bool {
        start < end ? (start..<end).contains(timeOfDay) : timeOfDay >= start || timeOfDay < end
    }

    /// Seconds from `timeOfDay` to the span's next boundary (its start or its end).
    public func secondsToNextBoundary(from timeOfDay: Double) -> Double {
        let next = contains(timeOfDay) ? end : start
        let delta = next - timeOfDay
        return delta > 0 ? delta : delta + 86_400
    }

    /// `HH:MM-HH:MM`.
    public var description: String {
        func hm(_ s: Double) -> String { String(cFormat: "%02d:%02d", Int(s) / 3600, Int(s) % 3600 / 60) }
        return "\(hm(start))-\(hm(end))"
    }
}

/// How the panel's light follows the user (`[power]`): a brightness, a dimmer level after
/// idle, and a daily span with the screen off.
public struct PowerSettings: Equatable, Sendable {
    /// The backlight's level while in use, 0.05…1.
    public var brightness = 1.0
    /// Seconds without a touch before the light dims; nil never dims.
    public var dimAfter: Double?
    /// The level while dimmed, 0…1.
    public var dimLevel = 0.2
    /// When the screen is off each day; nil never.
    public var scheduleOff: DailySchedule?
    /// Whether a touch during the scheduled off time turns the screen on (for a minute
    /// without touches, then off again).
    public var scheduleTouchWakes = true
    /// Seconds without a touch before the screensaver scene replaces the scene; nil never.
    public var screensaverAfter: Double?

    /// The defaults: full brightness, no dimming, no schedule.
    public init() {}
}
