/// Blurring, for soft shadows.
extension PixelBuffer {
    /// Three box blurs of `radius` pixels (horizontal then vertical each time), which
    /// approximate a Gaussian of standard deviation ≈ radius (the central limit of three
    /// boxes of width 2r + 1). Every channel is blurred alike, so premultiplied pixels stay
    /// premultiplied; the sum of each channel is kept up to rounding, edges are transparent.
    public func boxBlur(radius: Int, passes: Int = 3) {
        guard radius > 0, width > 0, height > 0 else { return }
        let longest = Swift.max(width, height)
        var line = [UInt32](repeating: 0, count: longest)
        var sums = [Int](repeating: 0, count: 4)
        let window = 2 * radius + 1
        func blurLine(count: Int, read: (Int) -> UInt32, write: (Int, UInt32) -> Void) {
            for i in 0..<count { line[i] = read(i) }
            for c in 0..<4 { sums[c] = 0 }
            // Window [i − r, i + r], pixels outside the line are zero.
            for k in 0..<Swift.min(radius, count) {
                for c in 0..<4 { sums[c] += Int(line[k] >> (c * 8) & 0xFF) }
            }
            for i in 0..<count {
                let entering = i + radius, leaving = i - radius - 1
                if entering < count { for c in 0..<4 { sums[c] += Int(line[entering] >> (c * 8) & 0xFF) } }
                if leaving >= 0 { for c in 0..<4 { sums[c] -= Int(line[leaving] >> (c * 8) & 0xFF) } }
                var out: UInt32 = 0
                for c in 0..<4 { out |= UInt32((sums[c] + window / 2) / window) << (c * 8) }
                write(i, out)
            }
        }
        for _ in 0..<passes {
            for y in 0..<height {
                let row = pixels.baseAddress! + y * stride
                blurLine(count: width, read: { row[$0] }, write: { row[$0] = $1 })
            }
            for x in 0..<width {
                let column = pixels.baseAddress! + x
                blurLine(count: height, read: { column[$0 * self.stride] }, write: { column[$0 * self.stride] = $1 })
            }
        }
    }
}
