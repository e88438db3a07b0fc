/// A timer tied to the display's vblanks (`CADisplayLink`, rules 78–79).
///
/// `timestamp` is when the last frame was shown (the page-flip time), `duration` the
/// interval between the frames this link sees, and `targetTimestamp = timestamp + duration`
/// the time the next frame will be shown: compute animation state for `targetTimestamp`.
/// The link keeps its callback until `invalidate()`.
public final class DisplayLink {
    /// When the vblank that fired the link happened, in seconds on the run's clock.
    public private(set) var timestamp = 0.0
    /// When the frame being prepared will be shown: the time to compute animations for.
    public private(set) var targetTimestamp = 0.0
    /// The refresh period in seconds.
    public private(set) var duration = 0.0
    /// The display's refresh rate when the link last fired (0 before it has).
    public private(set) var refreshRate = 0.0
    /// A paused link is not called, and does not keep the display producing frames.
    public var isPaused = false
    /// 0 = every vblank; otherwise the link fires on every n-th vblank,
    /// `n = max(1, round(refresh / preferred))`. Changed on a link that has fired, its targets
    /// stay on the grid of the last one: it fires next at the vblank it last targeted, aiming
    /// one new interval beyond (a video switching to its own frame rate keeps its phase).
    public var preferredFramesPerSecond = 0 {
        didSet {
            guard preferredFramesPerSecond != oldValue, let last = lastSequence, refreshRate > 0 else { return }
            let lastTarget = last + Self.interval(preferred: oldValue, refreshRate: refreshRate)
            let next = interval(refreshRate: refreshRate)
            lastSequence = lastTarget >= next ? lastTarget - next : nil
        }
    }
    /// False once invalidated: the link never fires again.
    public private(set) var isValid = true

    private var callback: ((DisplayLink) -> Void)?
    var lastSequence: UInt64?

    init(callback: @escaping (DisplayLink) -> Void) {
        self.callback = callback
    }

    /// Stops the link for good and releases its callback.
    public func invalidate() {
        isValid = false
        callback = nil
    }

    var isActive: Bool { isValid && !isPaused }

    func interval(refreshRate: Double) -> UInt64 {
        Self.interval(preferred: preferredFramesPerSecond, refreshRate: refreshRate)
    }

    private static func interval(preferred: Int, refreshRate: Double) -> UInt64 {
        guard preferred > 0 else { return 1 }
        let n = (refreshRate / Double(preferred)).rounded()
        return n.isFinite ? UInt64(min(max(1, n), 1_000)) : 1
    }

    /// Calls the link if it is due at vblank `sequence`; returns whether it was called.
    func fire(sequence: UInt64, timestamp: Double, refreshRate: Double) -> Bool {
        guard isActive, let callback else { return false }
        let n = interval(refreshRate: refreshRate)
        // A counter that went backwards was restarted (a new modeset, a new output): fire.
        if let last = lastSequence, sequence >= last, sequence < last + n { return false }
        lastSequence = sequence
        self.timestamp = timestamp
        self.refreshRate = refreshRate
        duration = Double(n) / refreshRate
        targetTimestamp = timestamp + duration
        callback(self)
        return true
    }
}

/// The display links of one display, fired from its vblank events.
public final class DisplayLinks {
    private var links: [DisplayLink] = []

    /// No links.
    public init() {}

    /// A new running link calling `callback` once per frame.
    public func add(_ callback: @escaping (DisplayLink) -> Void) -> DisplayLink {
        let link = DisplayLink(callback: callback)
        links.append(link)
        return link
    }

    /// Invalidates every link (a scene being replaced).
    public func invalidateAll() {
        for link in links { link.invalidate() }
        links.removeAll()
    }

    /// True while a valid, unpaused link exists: the display must keep producing vblanks.
    public var hasActiveLinks: Bool { links.contains { $0.isActive } }

    /// Fires every link due at this vblank, each at most once, and drops invalidated links.
    /// Returns how many were called.
    @discardableResult
    public func vblank(sequence: UInt64, timestamp: Double, refreshRate: Double) -> Int {
        links.removeAll { !$0.isValid }
        var called = 0
        for link in links where link.fire(sequence: sequence, timestamp: timestamp, refreshRate: refreshRate) {
            called += 1
            firedTarget = min(firedTarget ?? .infinity, link.targetTimestamp)
        }
        return called
    }

    /// The earliest `targetTimestamp` of the links fired since the last call, nil when none
    /// fired: the frame they prepared is for then, which is later than the next vblank for a
    /// link firing on every n-th one (rule 79), so the frame waits for it.
    public func takeFiredTarget() -> Double? {
        defer { firedTarget = nil }
        return firedTarget
    }

    private var firedTarget: Double?

    /// The vblank whose frame the links next prepare, when every running link fires on
    /// every n-th vblank only (n ≥ 2) and has fired before: a link that fired at `last` fires
    /// next at the event of vblank `last + n` and targets `last + 2n`. Nil when a running link
    /// fires at every vblank or has yet to fire: then every event must be handled at once.
    public func nextTargetSequence(refreshRate: Double) -> UInt64? {
        var earliest: UInt64?
        for link in links where link.isActive {
            let n = link.interval(refreshRate: refreshRate)
            guard n >= 2, let last = link.lastSequence else { return nil }
            earliest = min(earliest ?? .max, last + 2 * n)
        }
        return earliest
    }
}
