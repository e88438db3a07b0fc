import LaminaGeometry

/// Finger velocity from event timestamps by least squares (rule 85): a degree-2 polynomial
/// per axis, weights 1, over at most 20 samples no older than 100 ms before the newest,
/// stopping at a gap over 40 ms; fewer than 3 samples fall back to the two-sample slope;
/// a newest sample over 40 ms old at query time gives 0. The velocity is the fitted
/// derivative at the newest sample, in points per second.
public struct VelocityTracker: Sendable {
    private var samples: [(time: Double, position: Point)] = []

    /// Only samples this many seconds before the last one count.
    public static let horizon = 0.100
    /// A pause this long between samples starts the estimate afresh.
    public static let maximumGap = 0.040
    /// The most samples kept.
    public static let maximumSamples = 20

    /// A tracker with no samples.
    public init() {}

    /// Adds a sample; one at the same time as the last replaces it (fingers of one
    /// multi-touch frame arrive one by one with the frame's timestamp).
    public mutating func add(_ position: Point, at time: Double) {
        if let last = samples.last, last.time == time { samples.removeLast() }
        samples.append((time, position))
        if samples.count > Self.maximumSamples { samples.removeFirst(samples.count - Self.maximumSamples) }
    }

    /// Forgets every sample.
    public mutating func reset() { samples.removeAll() }

    /// The velocity at query time `now` (points per second).
    public func velocity(at now: Double) -> Point {
        guard let newest = samples.last, now - newest.time <= Self.maximumGap else { return .zero }
        var used: [(time: Double, position: Point)] = [newest]
        var previousTime = newest.time
        for sample in samples.dropLast().reversed() {
            if newest.time - sample.time > Self.horizon || previousTime - sample.time > Self.maximumGap { break }
            used.append(sample)
            previousTime = sample.time
        }
        if used.count < 2 { return .zero }
        if used.count < 3 {
            let dt = used[0].time - used[1].time
            guard dt > 0 else { return .zero }
            return (used[0].position - used[1].position) * (1 / dt)
        }
        let times = used.map { $0.time - newest.time }
        guard let vx = Self.slopeAtZero(times, used.map(\.position.x)),
              let vy = Self.slopeAtZero(times, used.map(\.position.y)) else {
            let dt = used[0].time - used[1].time
            return dt > 0 ? (used[0].position - used[1].position) * (1 / dt) : .zero
        }
        return Point(x: vx, y: vy)
    }

    /// Fits `y = a + b·t + c·t²` by least squares and returns `b`, the slope at t = 0.
    static func slopeAtZero(_ t: [Double], _ y: [Double]) -> Double? {
        var s = [Double](repeating: 0, count: 5)   // Σ t^k, k = 0…4
        var r = [Double](repeating: 0, count: 3)   // Σ y·t^k, k = 0…2
        for (ti, yi) in zip(t, y) {
            var power = 1.0
            for k in 0..<5 {
                s[k] += power
                if k < 3 { r[k] += yi * power }
                power *= ti
            }
        }
        // Normal equations, solved by Cramer's rule.
        let m = [[s[0], s[1], s[2]], [s[1], s[2], s[3]], [s[2], s[3], s[4]]]
        func det(_ a: [[Double]]) -> Double {
            a[0][0] * (a[1][1] * a[2][2] - a[1][2] * a[2][1])
                - a[0][1] * (a[1][0] * a[2][2] - a[1][2] * a[2][0])
                + a[0][2] * (a[1][0] * a[2][1] - a[1][1] * a[2][0])
        }
        let d = det(m)
        guard abs(d) > 1e-18 else { return nil }
        var mb = m
        for i in 0..<3 { mb[i][1] = r[i] }
        return det(mb) / d
    }
}
