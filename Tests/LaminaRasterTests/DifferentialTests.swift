import LaminaTestSupport
import CLaminaKernels
import Testing
@testable import LaminaGeometry
@testable import LaminaRaster

/// The fast pipeline (bitmap sweep, runs, 64-bit SWAR blending) must produce exactly the
/// pixels of the reference pipeline (every cell swept, scalar blend), on random scenes.
@Suite("Fast pipeline = reference pipeline")
struct DifferentialTests {
    /// A small deterministic generator (SplitMix64), so every run draws the same scenes.
    struct SplitMix: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    static func randomPath(_ rng: inout SplitMix, width: Double, height: Double) -> Path {
        func point() -> Point {
            Point(x: Double.random(in: -20...(width + 20), using: &rng), y: Double.random(in: -20...(height + 20), using: &rng))
        }
        var path = Path()
        switch Int.random(in: 0..<4, using: &rng) {
        case 0:
            let r = Double.random(in: 0.3...60, using: &rng)
            path = Path(circleCenter: point(), radius: r)
        case 1:
            let a = point()
            path = Path(roundedRect: Rect(x: a.x, y: a.y, width: Double.random(in: 0.5...150, using: &rng),
                                          height: Double.random(in: 0.5...90, using: &rng)),
                        cornerRadius: Double.random(in: 0...30, using: &rng))
        default:
            path.move(to: point())
            for _ in 0..<Int.random(in: 2...7, using: &rng) {
                switch Int.random(in: 0..<3, using: &rng) {
                case 0: path.line(to: point())
                case 1: path.quad(to: point(), control: point())
                default: path.cubic(to: point(), control1: point(), control2: point())
                }
            }
            path.close()
        }
        return path
    }

    @Test("random scenes render pixel-identically", arguments: 0..<12)
    func randomScenes(seed: UInt64) {
        var rng = SplitMix(state: seed)
        let width = Int.random(in: 40...260, using: &rng), height = Int.random(in: 30...200, using: &rng)
        let reference = PixelBuffer(width: width, height: height)
        let fast = PixelBuffer(width: width, height: height, stride: width + 7)
        let refCanvas = Canvas(target: reference), fastCanvas = Canvas(target: fast)
        refCanvas.pipeline = .reference
        fastCanvas.pipeline = .fast
        let background = Color(red8: UInt8.random(in: 0...255, using: &rng), green8: 80, blue8: 200)
        refCanvas.clear(background)
        fastCanvas.clear(background)
        for _ in 0..<40 {
            let path = Self.randomPath(&rng, width: Double(width), height: Double(height))
            let color = Color(red8: UInt8.random(in: 0...255, using: &rng), green8: UInt8.random(in: 0...255, using: &rng),
                              blue8: UInt8.random(in: 0...255, using: &rng),
                              alpha8: [255, 255, UInt8.random(in: 1...255, using: &rng)].randomElement(using: &rng)!)
            let rule: FillRule = Bool.random(using: &rng) ? .nonZero : .evenOdd
            let clip: PixelRect? = Bool.random(using: &rng)
                ? PixelRect(x0: Int.random(in: -5...width / 2, using: &rng), y0: Int.random(in: -5...height / 2, using: &rng),
                            x1: Int.random(in: width / 2...width + 5, using: &rng), y1: Int.random(in: height / 2...height + 5, using: &rng))
                : nil
            refCanvas.fill(path, color: color, rule: rule, clip: clip)
            fastCanvas.fill(path, color: color, rule: rule, clip: clip)
        }
        let differing = Pixels.differing(reference, fast)
        #expect(differing == 0, "seed \(seed): \(differing) pixels differ")
    }

    @Test("every run-blend kernel this CPU has equals the scalar blend for every alpha and a spread of destinations")
    func runBlend() {
        var kernels: [(String, (UInt32, UnsafeMutablePointer<UInt32>, Int) -> Void)] = [
            ("dispatched", Blend.runOver), ("portable", Blend.runOverPortable),
        ]
        if Blend.hasAVX2 { kernels.append(("avx2", { lamina_blend_run_avx2($0, $1, $2) })) }
        if Blend.hasAVX512 { kernels.append(("avx512", { lamina_blend_run_avx512($0, $1, $2) })) }
        for alpha in 0...255 {
            let src = UInt32(alpha) << 24 | UInt32(alpha * 3 / 4) << 16 | UInt32(alpha / 2) << 8 | UInt32(alpha / 5)
            for length in [0, 1, 3, 4, 5, 7, 8, 9, 12, 15, 16, 17, 19, 31, 33, 47] {
                let row = (0..<length).map { i in
                    i % 7 == 3 ? UInt32.max : UInt32(truncatingIfNeeded: 0x1234_5678 &* UInt64(i + 1) &* 2_654_435_761)
                }
                let expected = row.map { Blend.over(src, $0) }
                for (name, kernel) in kernels {
                    var blended = row
                    blended.withUnsafeMutableBufferPointer { buffer in
                        if let base = buffer.baseAddress { kernel(src, base, buffer.count) }
                    }
                    #expect(blended == expected, "\(name), alpha \(alpha), length \(length)")
                }
            }
        }
    }
}
