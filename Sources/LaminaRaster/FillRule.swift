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
        switch self {
        case .nonZero: return NonZeroRule().coverage(accumulated)
        case .evenOdd: return EvenOddRule().coverage(accumulated)
        }
    }
}

/// A fill rule as a type, so a sweep can be specialised on it.
protocol CoverageRule {
    func coverage(_ accumulated: Float) -> Float
}

struct NonZeroRule: CoverageRule {
    @inline(__always)
    func coverage(_ accumulated: Float) -> Float { min(abs(accumulated), 1) }
}

struct EvenOddRule: CoverageRule {
    @inline(__always)
    func coverage(_ accumulated: Float) -> Float {
        let a = abs(accumulated)
        // floor(a/2) by truncation (a ≥ 0), without a libm call; huge or NaN values fall back.
        let half = a * 0.5
        let pairs = half < 1e9 ? Float(Int(half)) : half.rounded(.down)
        let folded = a - 2 * pairs
        return folded > 1 ? 2 - folded : folded
    }
}
