/// `⌊x⌋` as an Int, without a libm call: on baseline x86-64 (no SSE4.1) `rounded(.down)`
/// compiles to a call to `floor`, which is measurable in per-pixel and per-row code.
/// Valid for |x| < 2⁶³.
@inline(__always)
func floorInt(_ x: Double) -> Int {
    let i = Int(x)
    return Double(i) > x ? i - 1 : i
}

/// `⌈x⌉` as an Int, without a libm call. Valid for |x| < 2⁶³.
@inline(__always)
func ceilInt(_ x: Double) -> Int {
    let i = Int(x)
    return Double(i) < x ? i + 1 : i
}

/// `x` rounded to the nearest integer (ties to even), as an Int32, without a conversion
/// instruction or its range check: adding 1.5 · 2⁵² leaves the rounded value in the low bits
/// of the Double. Valid for |x| < 2³¹ (anything else wraps, it never traps).
@inline(__always)
func roundedInt32(_ x: Double) -> Int32 {
    Int32(truncatingIfNeeded: (x + 6_755_399_441_055_744).bitPattern)
}

/// `x.rounded()` (half away from zero) as an Int, without a libm call. Valid for |x| < 2⁶².
@inline(__always)
func roundedAwayFromZero(_ x: Double) -> Int {
    let whole = Int(x)                    // toward zero
    let rest = x - Double(whole)
    return rest >= 0.5 ? whole + 1 : rest <= -0.5 ? whole - 1 : whole
}
