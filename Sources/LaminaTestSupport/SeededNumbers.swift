/// Deterministic numbers for tests that draw random scenes or animations: a linear
/// congruential generator, so every run draws the same ones from the same seed.
public struct SeededNumbers {
    public var state: UInt64

    public init(state: UInt64) {
        self.state = state
    }

    /// A number in `lo ..< hi`.
    public mutating func next(_ lo: Double, _ hi: Double) -> Double {
        state = state &* 6364136223846793005 &+ 1442695040888963407
        return lo + (hi - lo) * Double(state >> 11) / Double(1 << 53)
    }

    /// An index in `0 ..< n`.
    public mutating func pick(_ n: Int) -> Int { min(Int(next(0, Double(n))), n - 1) }
}
