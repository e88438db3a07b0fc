@testable import LaminaRaster
import Testing

/// The shadow blur's arithmetic: the rows-at-once vertical pass and the multiply-shift
/// division give the per-column loop's exact integers (decision 117's shadows).
@Suite("Box blur")
struct BlurTests {
    @Test("division by multiply and shift is exact for every window sum, at the edges of each quotient", arguments: [
        1, 3, 5, 7, 201, 513, 1001, 4095, 65_535, (1 << 17) - 1, 1 << 17, (1 << 18) - 1, 1 << 20,
    ])
    func exactDivision(_ d: Int) {
        let divide = ExactDivision(by: d)
        var failures = 0
        for k in stride(from: 0, through: 256, by: 1) {
            for n in [k * d - 1, k * d, k * d + 1, k * d + d / 2, k * d + d - 1] where n >= 0 && n <= 255 * d + d / 2 {   // a window sum plus half
                if divide(n) != n / d { failures += 1 }
            }
        }
        #expect(failures == 0)
    }

    @Test("the blur equals three plain box passes computed pixel by pixel (horizontal, then vertical)")
    func matchesPlainBoxes() {
        let width = 37, height = 23, radius = 4
        let buffer = PixelBuffer(width: width, height: height)
        var seed: UInt32 = 12345
        for y in 0..<height {
            for x in 0..<width {
                seed = seed &* 1_103_515_245 &+ 12345
                let a = seed >> 24
                buffer[x, y] = a << 24 | min(a, seed >> 16 & 0xFF) << 16 | min(a, seed >> 8 & 0xFF) << 8 | min(a, seed & 0xFF)
            }
        }
        var plain = (0..<height).map { y in (0..<width).map { x in buffer[x, y] } }
        func box(_ line: [UInt32]) -> [UInt32] {
            let window = 2 * radius + 1
            return line.indices.map { i in
                var out: UInt32 = 0
                for c in 0..<4 {
                    var sum = 0
                    for k in (i - radius)...(i + radius) where line.indices.contains(k) { sum += Int(line[k] >> (c * 8) & 0xFF) }
                    out |= UInt32((sum + window / 2) / window) << (c * 8)
                }
                return out
            }
        }
        for _ in 0..<3 {
            plain = plain.map(box)
            let columns = (0..<width).map { x in box((0..<height).map { plain[$0][x] }) }
            plain = (0..<height).map { y in (0..<width).map { columns[$0][y] } }
        }
        buffer.boxBlur(radius: radius)
        #expect((0..<height).allSatisfy { y in (0..<width).allSatisfy { buffer[$0, y] == plain[y][$0] } })
    }
}
