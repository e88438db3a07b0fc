/// How a path's winding numbers decide what is inside (rule 62).
public enum FillRule: String, Hashable, Sendable, CaseIterable {
    /// Inside where the winding number is not zero (the default).
    case nonZero = "non-zero"
    /// Inside where the winding number is odd.
    case evenOdd = "even-odd"

    /// Coverage from an accumulated signed area: a pixel fully inside a region of winding
    /// number w accumulates w; edge pixels accumulate the exact covered fraction.
    @inline(__always)
    func coverage(_ accumulated: Float) -> Float {
        let a = abs(accumulated)
        switch self {
        case .nonZero:
            return min(a, 1)
        case .evenOdd:
            let folded = a - 2 * (a * 0.5).rounded(.down)
            return folded > 1 ? 2 - folded : folded
        }
    }
}
