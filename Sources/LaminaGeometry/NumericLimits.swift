/// Lamina's policy for numbers that become geometry, pixel indices, counts and sizes
/// (decision 86): NaN and ±∞ never trap. Where a Double becomes an Int it saturates;
/// device coordinates beyond `GeometryLimits.coordinate` are clipped away before they reach
/// the rasterizer; values read from files, scripts and the command line are checked where
/// they enter, against the ranges named here.
public enum GeometryLimits {
    /// The largest magnitude a device coordinate keeps (2²⁴ px, about 16.7 million): far
    /// beyond any panel, small enough that every product and sum of two of them is exact
    /// in Double and fits an Int with room to spare.
    public static let coordinate = 16_777_216.0
    /// The largest width or height of any pixel buffer Lamina allocates from input (a
    /// canvas, an image, an offscreen): 16384 px, and at most `maximumPixels` in all.
    public static let maximumDimension = 16_384
    /// 64 M pixels (256 MiB at 4 bytes each).
    public static let maximumPixels = 64 * 1024 * 1024
}

extension Int {
    /// `value` rounded toward zero as an Int, saturating instead of trapping: NaN is 0,
    /// values beyond ±2⁶² (±∞ included) are ±2⁶².
    @inlinable
    public init(saturating value: Double) {
        if value.isNaN {
            self = 0
        } else if value >= 4.611_686_018_427_387_904e18 {
            self = 1 << 62
        } else if value <= -4.611_686_018_427_387_904e18 {
            self = -(1 << 62)
        } else {
            self = Int(value)
        }
    }
}

extension Double {
    /// The value clamped into `range`; NaN becomes `fallback`.
    @inlinable
    public func clamped(to range: ClosedRange<Double>, nanAs fallback: Double) -> Double {
        isNaN ? fallback : Swift.min(Swift.max(self, range.lowerBound), range.upperBound)
    }
}
