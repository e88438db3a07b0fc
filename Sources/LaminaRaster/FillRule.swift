import CLaminaKernels

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
    /// Turns `count` accumulated cells into coverage, the running sum starting at `acc`,
    /// clearing the cells; returns the sum after the last one.
    func sweep(_ cells: UnsafeMutablePointer<Float>, into coverage: UnsafeMutablePointer<Float>, count: Int,
               from acc: Float) -> Float
}

extension CoverageRule {
    @inline(__always)
    func sweep(_ cells: UnsafeMutablePointer<Float>, into coverage: UnsafeMutablePointer<Float>, count: Int,
               from acc: Float) -> Float {
        serialSweep(cells, into: coverage, count: count, from: acc)
    }

    /// Left to right, one cell at a time.
    @inline(__always)
    func serialSweep(_ cells: UnsafeMutablePointer<Float>, into coverage: UnsafeMutablePointer<Float>, count: Int,
                     from acc: Float) -> Float {
        var acc = acc
        for i in 0..<count {
            acc += cells[i]
            cells[i] = 0
            coverage[i] = self.coverage(acc)
        }
        return acc
    }
}

struct NonZeroRule: CoverageRule {
    @inline(__always)
    func coverage(_ accumulated: Float) -> Float { min(abs(accumulated), 1) }

    /// Four cells per step through the vector prefix sum of CLaminaKernels (or its scalar
    /// twin under `LAMINA_KERNELS=scalar`); a serial sum waits on every add, this on one
    /// per four cells. Short stretches stay serial.
    @inline(__always)
    func sweep(_ cells: UnsafeMutablePointer<Float>, into coverage: UnsafeMutablePointer<Float>, count: Int,
               from acc: Float) -> Float {
        if count < 8 { return serialSweep(cells, into: coverage, count: count, from: acc) }
        return NonZeroRule.vectorSweep
            ? lamina_coverage_nonzero_vector(cells, coverage, count, acc)
            : lamina_coverage_nonzero_scalar(cells, coverage, count, acc)
    }

    /// Whether the vector prefix sum runs (checked once).
    static let vectorSweep = lamina_kernels_allow_simd() != 0
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
