import SystemPackage

/// A part of the runtime that the loop waits on, registered once (as swift-nio's channels
/// register with their selector): the descriptors whose input wakes the loop, when the part
/// next needs a turn, and what it does when the turn comes. A new timed feature is one
/// `Runtime.register(_:)`, not an edit to the loop.
package protocol LoopSource: AnyObject {
    /// When in a turn the source is serviced.
    var phase: LoopPhase { get }
    /// Descriptors that wake the loop when readable (none for a purely timed source).
    var wakeDescriptors: [FileDescriptor] { get }
    /// When the source next needs a turn; nil when only its descriptors (or nothing) wake it.
    func nextDeadline(now: Double) -> Double?
    /// Does what is due by `now`; true when it did anything (the turn was not an idle one).
    func service(now: Double) -> Bool
}

extension LoopSource {
    package var wakeDescriptors: [FileDescriptor] { [] }
}

/// The points in a turn of the loop where registered sources are serviced, in order.
package enum LoopPhase: Int, CaseIterable, Comparable {
    /// Right after the wait, before any input: signals, finished scene loads, written
    /// files, control requests.
    case woken
    /// After touches and keys are delivered, before the input phase's commit: timers, key
    /// repeat, the pointer.
    case input
    /// After the display's events, before the frame: idle blanking, dimming, the schedule.
    case display
    /// After the frame: the systemd watchdog.
    case end

    package static func < (lhs: LoopPhase, rhs: LoopPhase) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// The registered sources, serviced phase by phase in the order they registered.
struct LoopSources {
    private var sources: [any LoopSource] = []
    private var keyed: [String: any LoopSource] = [:]

    /// Adds `source` (once; registering it again does nothing).
    mutating func register(_ source: any LoopSource) {
        guard !sources.contains(where: { $0 === source }) else { return }
        sources.append(source)
    }

    /// Removes `source`, so it no longer wakes or is serviced.
    mutating func unregister(_ source: any LoopSource) {
        sources.removeAll { $0 === source }
    }

    /// Makes `source` the one registered under `key`, replacing (unregistering) the one
    /// before; nil leaves none (a plug-in's watcher that comes and goes with its file).
    mutating func set(_ source: (any LoopSource)?, forKey key: String) {
        if let old = keyed.removeValue(forKey: key) { unregister(old) }
        guard let source else { return }
        keyed[key] = source
        register(source)
    }

    /// The source registered under `key`, if any.
    func source(forKey key: String) -> (any LoopSource)? {
        keyed[key]
    }

    /// The earliest deadline any source asks for.
    func nextDeadline(now: Double) -> Double? {
        var earliest: Double?
        for source in sources {
            if let due = source.nextDeadline(now: now), due < earliest ?? .infinity { earliest = due }
        }
        return earliest
    }

    /// Every source's wake descriptors, appended to `descriptors`.
    func collectDescriptors(into descriptors: inout [FileDescriptor]) {
        for source in sources { descriptors += source.wakeDescriptors }
    }

    /// Services the sources of `phase`; true when any did something.
    func service(_ phase: LoopPhase, now: Double) -> Bool {
        var didWork = false
        for source in sources where source.phase == phase {
            if source.service(now: now) { didWork = true }
        }
        return didWork
    }

    /// What is registered, for a test or a log line.
    var registered: [any LoopSource] { sources }
}
