#if canImport(Glibc)
import Glibc
#endif

/// The time of day on the wall, in the system's time zone (`TZ`, else `/etc/localtime`):
/// what daily schedules are written in. The frame loop's clocks are monotonic; this is only
/// read to place a schedule's boundaries.
public enum WallClock {
    /// Seconds since local midnight, 0 ..< 86,400 (a day with a leap second or a DST change
    /// counts its local time as shown).
    public static func secondsSinceLocalMidnight() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        var seconds = now.tv_sec
        var local = tm()
        localtime_r(&seconds, &local)
        return Double(local.tm_hour * 3600 + local.tm_min * 60 + local.tm_sec) + Double(now.tv_nsec) / 1e9
    }
}
