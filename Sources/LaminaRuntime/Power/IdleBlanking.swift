import LaminaInput

/// Idle blanking's own state (display-input.md §10): when the last input came, the touches
/// that woke the panel (swallowed until they lift), and how often and how long it was dark.
struct IdleBlanking {
    /// Seconds without input after which the panel blanks; nil never blanks.
    var after: Double?
    /// The last input (or the start, or a newly lit panel): idle time counts from here.
    var lastInput: Double
    /// While waking: the slots of the touches that woke the panel.
    private var wakingTouches: Set<Int>?
    private(set) var count = 0
    private(set) var seconds = 0.0
    private var since: Double?

    init(start: Double) {
        lastInput = start
    }

    /// When the panel is due to blank (nil: never).
    var dueAt: Double? { after.map { lastInput + $0 } }

    /// The panel went dark at `now`.
    mutating func blanked(at now: Double) {
        count += 1
        since = now
    }

    /// The panel lit again at `now`.
    mutating func woke(at now: Double) {
        if let since { seconds += now - since }
        since = nil
    }

    /// A touch went down on the blanked panel: it and every touch down with it are swallowed
    /// until all have lifted.
    mutating func beginWaking() {
        wakingTouches = []
    }

    /// Whether `event` belongs to the touches that woke the panel (and so is swallowed);
    /// the sequence ends once every one of them has lifted.
    mutating func swallows(_ event: TouchEvent) -> Bool {
        guard var waking = wakingTouches else { return false }
        switch event.kind {
        case .down(let slot, _): waking.insert(slot)
        case .up(let slot), .cancel(let slot): waking.remove(slot)
        case .motion, .frame: break
        }
        wakingTouches = waking.isEmpty ? nil : waking
        return true
    }
}
