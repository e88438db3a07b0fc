/// Blurring, for soft shadows.
extension PixelBuffer {
    /// Three box blurs of `radius` pixels (horizontal then vertical each time), which
    /// approximate a Gaussian of standard deviation ≈ radius (the central limit of three
    /// boxes of width 2r + 1). Every channel is blurred alike, so premultiplied pixels stay
    /// premultiplied; the sum of each channel is kept up to rounding, edges are transparent.
    public func boxBlur(radius: Int, passes: Int = 3) {
        guard radius > 0, width > 0, height > 0 else { return }
        let line = UnsafeMutablePointer<UInt32>.allocate(capacity: width)
        defer { line.deallocate() }
        let base = pixels.baseAddress!
        // The vertical pass walks rows, not columns (a column's pixels are a row apart: a
        // cache miss each), keeping every column's running sums side by side.
        let source = UnsafeMutablePointer<UInt32>.allocate(capacity: width * height)
        defer { source.deallocate() }
        let sums = UnsafeMutablePointer<Int>.allocate(capacity: width * 4)
        defer { sums.deallocate() }
        for _ in 0..<passes {
            for y in 0..<height {
                Self.blurRow(base + y * stride, count: width, radius: radius, line: line)
            }
            for y in 0..<height { (source + y * width).update(from: base + y * stride, count: width) }
            blurColumns(source: source, sums: sums, radius: radius)
        }
    }

    /// One vertical box pass over every column at once, from `source` (a compact copy of the
    /// pixels) into the buffer: the same running sums and rounding as `blurRow` down each
    /// column, so the result is the same bit for bit.
    private func blurColumns(source: UnsafeMutablePointer<UInt32>, sums: UnsafeMutablePointer<Int>, radius: Int) {
        let window = 2 * radius + 1, half = window / 2
        let divide = ExactDivision(by: window)
        sums.initialize(repeating: 0, count: width * 4)
        @inline(__always) func add(row: Int, sign: Int) {
            let r = source + row * width
            for x in 0..<width {
                let p = r[x], s = sums + x * 4
                s[0] += sign * Int(p & 0xFF)
                s[1] += sign * Int(p >> 8 & 0xFF)
                s[2] += sign * Int(p >> 16 & 0xFF)
                s[3] += sign * Int(p >> 24)
            }
        }
        for k in 0..<Swift.min(radius, height) { add(row: k, sign: 1) }
        let base = pixels.baseAddress!
        for y in 0..<height {
            let entering = y + radius, leaving = y - radius - 1
            if entering < height { add(row: entering, sign: 1) }
            if leaving >= 0 { add(row: leaving, sign: -1) }
            let out = base + y * stride
            for x in 0..<width {
                let s = sums + x * 4
                out[x] = UInt32(divide(s[0] + half)) | UInt32(divide(s[1] + half)) << 8
                    | UInt32(divide(s[2] + half)) << 16 | UInt32(divide(s[3] + half)) << 24
            }
        }
    }

    /// One horizontal box pass over the `count` pixels of the row at `start`, through `line`
    /// (a copy of them): a running sum per channel over the window [i − r, i + r], pixels
    /// outside the row zero, each output rounded to the nearest. O(1) a pixel whatever the
    /// radius.
    private static func blurRow(_ start: UnsafeMutablePointer<UInt32>, count: Int, radius: Int,
                                line: UnsafeMutablePointer<UInt32>) {
        line.update(from: start, count: count)
        let window = 2 * radius + 1, half = window / 2
        let divide = ExactDivision(by: window)
        var s0 = 0, s1 = 0, s2 = 0, s3 = 0
        @inline(__always) func add(_ p: UInt32, _ sign: Int) {
            s0 += sign * Int(p & 0xFF)
            s1 += sign * Int(p >> 8 & 0xFF)
            s2 += sign * Int(p >> 16 & 0xFF)
            s3 += sign * Int(p >> 24)
        }
        for k in 0..<Swift.min(radius, count) { add(line[k], 1) }
        for i in 0..<count {
            let entering = i + radius, leaving = i - radius - 1
            if entering < count { add(line[entering], 1) }
            if leaving >= 0 { add(line[leaving], -1) }
            let out = UInt32(divide(s0 + half)) | UInt32(divide(s1 + half)) << 8
                | UInt32(divide(s2 + half)) << 16 | UInt32(divide(s3 + half)) << 24
            start[i] = out
        }
    }
}

/// `n / divisor` for the blur's window sums (0 ≤ n ≤ 256 · divisor) by a multiplication and
/// a shift instead of a division: with m = ⌊2⁴⁴ / d⌋ + 1, ⌊n · m / 2⁴⁴⌋ = ⌊n / d⌋ whenever
/// n · d < 2⁴⁴, which holds for every window under 2¹⁷ pixels; wider ones divide.
struct ExactDivision {
    let divisor: Int
    let multiplier: Int
    let exact: Bool

    init(by divisor: Int) {
        self.divisor = divisor
        exact = divisor < 1 << 17
        multiplier = exact ? (1 << 44) / divisor + 1 : 0
    }

    @inline(__always)
    func callAsFunction(_ n: Int) -> Int {
        exact ? (n &* multiplier) >> 44 : n / divisor
    }
}
