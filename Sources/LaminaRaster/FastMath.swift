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
