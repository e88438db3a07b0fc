/// Vblanks predicted on a clock, `epoch + k · period` for k = 0, 1, 2, …: the vblank source of
/// devices that report none (the dummy device, fbdev) and of the dark virtual output.
public struct VBlankGrid: Hashable, Sendable {
    /// The time of one vblank.
    public var epoch: Double
    /// Seconds between vblanks.
    public var period: Double

    /// A grid through `epoch` every `period` seconds.
    public init(epoch: Double, period: Double) {
        precondition(period > 0, "a vblank period is positive")
        self.epoch = epoch
        self.period = period
    }

    /// When vblank `sequence` happens.
    public func time(_ sequence: UInt64) -> Double { epoch + Double(sequence) * period }

    /// The first vblank strictly after `time` (at least 1).
    public func next(after time: Double) -> UInt64 {
        var k = UInt64(max(0, ((time - epoch) / period).rounded(.down))) + 1
        // Rounding may put vblank k at or before `time`, or k - 1 after it.
        while self.time(k) <= time { k += 1 }
        while k > 1 && self.time(k - 1) > time { k -= 1 }
        return k
    }

    /// The last vblank at or before `time` (0 before the epoch's first period ends).
    public func latest(atOrBefore time: Double) -> UInt64 { next(after: time) - 1 }
}
