/// When the systemd watchdog is fed (issue 7): the observer's own state. A ping is due when a
/// flip or vblank completes at least half a period after the last ping; without progress the
/// runtime looks again at the half period (and then every quarter) to probe or ping.
struct WatchdogSchedule {
    /// The watchdog period (`WatchdogSec=`), nil without one.
    var interval: Double?
    /// When the run started: the first check is half a period after it.
    let start: Double
    private(set) var lastPing: Double?
    private var nextCheck: Double?
    /// Pings sent.
    private(set) var pings = 0

    init(start: Double) {
        self.start = start
    }

    /// When the runtime next looks at the watchdog (nil without one).
    var checkTime: Double? {
        guard let interval else { return nil }
        return nextCheck ?? (start + interval / 2)
    }

    /// Whether progress at `now` should ping (half a period since the last ping).
    func pingDue(onProgressAt now: Double) -> Bool {
        guard let interval else { return false }
        return now - (lastPing ?? -.infinity) >= interval / 2
    }

    /// A ping went out at `now`; the next check is half a period later.
    mutating func pinged(at now: Double) {
        guard let interval else { return }
        pings += 1
        lastPing = now
        nextCheck = now + interval / 2
    }

    /// Whether a check is due at `now`; if so the next look is a quarter period later (in
    /// case the probe brings no event).
    mutating func takeCheck(at now: Double) -> Bool {
        guard let interval, let due = checkTime, now >= due else { return false }
        nextCheck = now + interval / 4
        return true
    }
}
