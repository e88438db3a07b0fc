import CLaminaKernels

/// How a path's winding numbers decide what is inside (rule 62).
public enum FillRule: String, Hashable, Sendable, CaseIterable {
    /// Inside where the winding number is not zero (the default).
    case nonZero = "non-zero"
    /// Inside where the winding number is odd.
    case evenOdd = "even-odd"

    /// Coverage from the reference's accumulated signed area: a pixel fully inside a region
    /// of winding number w accumulates w; edge pixels accumulate the exact covered fraction.
    @inline(__always)
    func coverage(_ accumulated: Float) -> Float {
        let a = abs(accumulated)
        switch self {
        case .nonZero:
            return min(a, 1)
        case .evenOdd:
            // floor(a/2) by truncation (a ≥ 0), without a libm call; huge or NaN values fall back.
            let half = a * 0.5
            let pairs = half < 1e9 ? Float(Int(half)) : half.rounded(.down)
            let folded = a - 2 * pairs
            return folded > 1 ? 2 - folded : folded
        }
    }
}

/// A fill rule on the fast core's fixed-point sums (`LAMINA_FULL_COVERAGE` per winding), as a
/// type so a sweep can be specialised on it. Sums wrap rather than trap (decision 115).
protocol FixedPointRule {
    /// Coverage in 0…1 of a running sum.
    func coverage(_ sum: Int32) -> Float
    /// The same coverage in 8 bits, `UInt32(coverage(sum) · 255 + 0.5)` exactly, in integers.
    func alpha(_ sum: Int32) -> UInt32
    /// Turns `count` accumulated cells into coverage, the running sum starting at `sum`,
    /// clearing the cells; returns the sum after the last one.
    func sweep(_ cells: UnsafeMutablePointer<Int32>, into coverage: UnsafeMutablePointer<Float>, count: Int,
               from sum: Int32) -> Int32
}

extension FixedPointRule {
    /// A coverage numerator `c` in 0…full as 0…255, rounded half up: `(255 · c + full/2) / full`.
    /// It equals `UInt32(Float(c) / full · 255 + 0.5)` for every such `c` (Float's rounding never
    /// crosses a half; `CoverageTests.alphaMatchesCoverage` checks all 2¹⁷ + 1).
    @inline(__always)
    static func alpha(numerator c: UInt32) -> UInt32 {
        (c &* 255 &+ LAMINA_FULL_COVERAGE / 2) / LAMINA_FULL_COVERAGE
    }

    @inline(__always)
    func sweep(_ cells: UnsafeMutablePointer<Int32>, into coverage: UnsafeMutablePointer<Float>, count: Int,
               from sum: Int32) -> Int32 {
        serialSweep(cells, into: coverage, count: count, from: sum)
    }

    /// Left to right, one cell at a time.
    @inline(__always)
    func serialSweep(_ cells: UnsafeMutablePointer<Int32>, into coverage: UnsafeMutablePointer<Float>, count: Int,
                     from sum: Int32) -> Int32 {
        var sum = sum
        for i in 0..<count {
            sum &+= cells[i]
            cells[i] = 0
            coverage[i] = self.coverage(sum)
        }
        return sum
    }
}

struct NonZeroRule: FixedPointRule {
    /// min(|sum|, full) / full; the magnitude is unsigned, so even `Int32.min` is full.
    @inline(__always)
    func coverage(_ sum: Int32) -> Float {
        Float(min(sum.magnitude, LAMINA_FULL_COVERAGE)) * (1 / Float(LAMINA_FULL_COVERAGE))
    }

    @inline(__always)
    func alpha(_ sum: Int32) -> UInt32 { Self.alpha(numerator: min(sum.magnitude, LAMINA_FULL_COVERAGE)) }

    /// Four cells per step through the vector prefix sum of CLaminaKernels (or its scalar
    /// twin under `LAMINA_KERNELS=scalar`): a serial sum waits on every add, this on one per
    /// four cells. Short stretches stay in line.
    @inline(__always)
    func sweep(_ cells: UnsafeMutablePointer<Int32>, into coverage: UnsafeMutablePointer<Float>, count: Int,
               from sum: Int32) -> Int32 {
        if count < 8 { return serialSweep(cells, into: coverage, count: count, from: sum) }
        return NonZeroRule.vectorSweep
            ? lamina_coverage_fixed_nonzero_vector(cells, coverage, count, sum)
            : lamina_coverage_fixed_nonzero_scalar(cells, coverage, count, sum)
    }

    /// Whether the vector prefix sum runs (checked once).
    static let vectorSweep = lamina_kernels_allow_simd() != 0
}

struct EvenOddRule: FixedPointRule {
    /// The sum modulo two windings, folded: 0 and 2 windings are outside, 1 inside. Two's
    /// complement keeps the parity of a wrapped sum, so no magnitude is needed.
    @inline(__always)
    func coverage(_ sum: Int32) -> Float {
        Float(numerator(sum)) * (1 / Float(LAMINA_FULL_COVERAGE))
    }

    @inline(__always)
    func alpha(_ sum: Int32) -> UInt32 { Self.alpha(numerator: numerator(sum)) }

    /// The coverage in 0…full.
    @inline(__always)
    private func numerator(_ sum: Int32) -> UInt32 {
        let twoWindings = 2 * LAMINA_FULL_COVERAGE
        let folded = UInt32(bitPattern: sum) & (twoWindings - 1)
        return folded > LAMINA_FULL_COVERAGE ? twoWindings - folded : folded
    }
}
