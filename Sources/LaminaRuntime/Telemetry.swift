import DequeModule
import Histogram

/// A distribution of durations in fixed memory: an HdrHistogram of microseconds (three
/// significant digits, so percentiles are within 0.1 % of the recorded values) beside the
/// exact count, minimum and maximum. Recording never allocates, so a daemon that runs for
/// months keeps the same footprint (decision 88).
public struct DurationDistribution: Sendable {
    /// Durations above this are counted at this value in the percentiles (the exact maximum
    /// is still kept).
    public static let ceiling = 60.0
    private var histogram = Histogram<UInt32>(
        lowestDiscernibleValue: 1, highestTrackableValue: UInt64(ceiling * 1e6), numberOfSignificantValueDigits: .three)
    /// How many durations were added.
    public private(set) var count = 0
    /// The shortest, exact (infinity while empty).
    public private(set) var min = Double.infinity
    /// The longest, exact (minus infinity while empty).
    public private(set) var max = -Double.infinity

    /// An empty distribution.
    public init() {}

    /// Adds one duration in seconds; NaN is ignored, negatives count as 0.
    public mutating func record(_ seconds: Double) {
        guard !seconds.isNaN else { return }
        let value = Swift.min(Swift.max(seconds, 0), Self.ceiling)
        count += 1
        min = Swift.min(min, value)
        max = Swift.max(max, value)
        histogram.record(UInt64((value * 1e6).rounded()))
    }

    /// The duration at quantile `q` (0…1) in seconds, from the histogram: within 0.1 %, and
    /// never outside the exact minimum and maximum.
    public func value(atQuantile q: Double) -> Double? {
        guard count > 0 else { return nil }
        let micros = histogram.valueAtPercentile(Swift.min(Swift.max(q, 0), 1) * 100)
        return Swift.min(Swift.max(Double(micros) / 1e6, min), max)
    }

    /// Memory the histogram holds (fixed at creation).
    public var footprintBytes: Int { histogram.estimatedFootprintInBytes }
}

extension RunStats.Percentiles {
    /// The summary of a distribution, in milliseconds; nil when it is empty.
    init?(_ distribution: DurationDistribution) {
        guard distribution.count > 0,
              let p50 = distribution.value(atQuantile: 0.5), let p95 = distribution.value(atQuantile: 0.95),
              let p99 = distribution.value(atQuantile: 0.99) else { return nil }
        self.init(count: distribution.count, min: distribution.min * 1000, p50: p50 * 1000, p95: p95 * 1000,
                  p99: p99 * 1000, max: distribution.max * 1000)
    }
}

/// The page-flip cadence in fixed memory: how many flips there were, the last few
/// timestamps, and running statistics (Welford's) of the intervals between flips that ran
/// back to back (under 1.5 frames apart; gaps while idle are not cadence).
public struct FlipCadence: Sendable {
    /// How many recent timestamps are kept.
    public static let recentCapacity = 1024
    /// Flips completed.
    public private(set) var count = 0
    /// The most recent flip timestamps, oldest first (at most `recentCapacity`).
    public var recent: Deque<Double> { history.values }
    private var history = RecentValues(capacity: Self.recentCapacity)
    private var intervals = 0
    private var mean = 0.0
    private var squaredDeviations = 0.0
    private var largestDeviation = 0.0

    /// No flips yet.
    public init() {}

    /// Adds a flip at `timestamp` on a display whose frame lasts `frameDuration` seconds.
    public mutating func record(_ timestamp: Double, frameDuration: Double) {
        if let last = history.values.last {
            let interval = timestamp - last
            if interval.isFinite, interval < 1.5 * frameDuration {
                intervals += 1
                let delta = interval - mean
                mean += delta / Double(intervals)
                squaredDeviations += delta * (interval - mean)
                largestDeviation = Swift.max(largestDeviation, abs(interval - frameDuration))
            }
        }
        count += 1
        history.append(timestamp)
    }

    /// Flips per second over the back-to-back intervals.
    public var rate: Double? { intervals > 0 && mean > 0 ? 1 / mean : nil }
    /// Standard deviation of the back-to-back intervals, in seconds.
    public var jitter: Double? { intervals > 0 ? (squaredDeviations / Double(intervals)).squareRoot() : nil }
    /// The largest distance of a back-to-back interval from the frame duration, in seconds.
    public var maxDeviation: Double? { intervals > 0 ? largestDeviation : nil }
}

/// The last `capacity` values of a series, oldest first: what a decision that looks back a
/// few frames needs, in fixed memory.
public struct RecentValues: Sendable {
    /// How many values are kept.
    public let capacity: Int
    /// The kept values, oldest first.
    public private(set) var values = Deque<Double>()

    /// An empty ring keeping the last `capacity` values.
    public init(capacity: Int) {
        precondition(capacity > 0)
        self.capacity = capacity
    }

    /// Adds `value`, dropping the oldest when full.
    public mutating func append(_ value: Double) {
        values.append(value)
        if values.count > capacity { values.removeFirst() }
    }
}
