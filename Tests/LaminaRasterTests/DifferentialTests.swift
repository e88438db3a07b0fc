import Foundation
import LaminaTestSupport
import CLaminaKernels
import Testing
@testable import LaminaGeometry
@testable import LaminaRaster

/// The fast pipeline (edges rounded to 24.8 fixed point, integer cells in bands, bitmap
/// sweep with vector prefix sums, runs, SIMD blending) must give the reference pipeline's
/// coverage (every cell swept in order, the exact per-row area in Double) within decision
/// 115's bound, and so its pixels, on random scenes.
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

    /// Records the fast sweep's coverage per pixel.
    struct RecordingSink: SpanSink {
        var coverage: [Float]
        let width: Int
        /// The canvas column recorded at index 0 of each row.
        var originX = 0
        mutating func pixel(x: Int, y: Int, coverage c: Float) { coverage[y * width + x - originX] = c }
        mutating func run(x0: Int, x1: Int, y: Int, coverage c: Float) {
            for x in x0..<x1 { coverage[y * width + x - originX] = c }
        }
        mutating func span(x0: Int, y: Int, coverage c: UnsafePointer<Float>, count: Int) {
            for i in 0..<count { coverage[y * width + x0 + i - originX] = c[i] }
        }
    }

    /// The polygons with every point rounded to 1/256 px, as the fast core rounds them.
    static func quantized(_ polygons: [[Point]]) -> [[Point]] {
        polygons.map { $0.map { Point(x: ($0.x * 256).rounded() / 256, y: ($0.y * 256).rounded() / 256) } }
    }

    /// The random seeds each of the two random tests draws: twelve, or as many (1…12) as
    /// `LAMINA_DIFFERENTIAL_SEEDS` says (`scripts/test-arm64 --ci` runs four under qemu-user,
    /// where the reference pipeline is the stage's slowest part).
    static let seeds: Range<UInt64> = {
        let asked = ProcessInfo.processInfo.environment["LAMINA_DIFFERENTIAL_SEEDS"].flatMap { UInt64($0) } ?? 12
        return 0..<min(max(asked, 1), 12)
    }()

    @Test("random shapes: the fast core's coverage is the reference's on the rounded edges within 1/128, and on the exact ones within 1/64",
          arguments: seeds)
    func randomCoverage(seed: UInt64) {
        var rng = SplitMix(state: seed &+ 100)
        let width = Int.random(in: 40...300, using: &rng), height = Int.random(in: 30...200, using: &rng)
        let rasterizer = CoverageRasterizer(width: width, height: height)
        var worstRounded: Float = 0, worstExact: Float = 0
        func reference(_ polygons: [[Point]], _ rule: FillRule) -> [Float] {
            var coverage = [Float](repeating: 0, count: width * height)
            rasterizer.rasterize(polygons, rule: rule) { y, x0, row in
                for i in 0..<row.count { coverage[y * width + x0 + i] = row[i] }
            }
            return coverage
        }
        for _ in 0..<40 {
            let polygons = Self.randomPath(&rng, width: Double(width), height: Double(height)).flattened()
            let rule: FillRule = Bool.random(using: &rng) ? .nonZero : .evenOdd
            let exact = reference(polygons, rule), rounded = reference(Self.quantized(polygons), rule)
            var fast = RecordingSink(coverage: [Float](repeating: 0, count: width * height), width: width)
            rasterizer.rasterizeSpans(polygons, rule: rule, into: &fast)
            for i in 0..<exact.count {
                worstRounded = max(worstRounded, abs(rounded[i] - fast.coverage[i]))
                worstExact = max(worstExact, abs(exact[i] - fast.coverage[i]))
            }
        }
        #expect(worstRounded <= 1.0 / 128, "seed \(seed): coverage differs from the rounded edges' by up to \(worstRounded)")
        #expect(worstExact <= 1.0 / 64, "seed \(seed): coverage differs from the exact edges' by up to \(worstExact)")
    }

    @Test("the vector prefix sum equals its scalar twin bit for bit, and both are min(|sum|, full) / full", arguments: 0..<4)
    func prefixSumTwins(seed: UInt64) {
        var rng = SplitMix(state: seed)
        let full = Int64(LAMINA_FULL_COVERAGE)
        for count in 0...37 {
            let cells = (0..<count).map { _ -> Int32 in
                switch Int.random(in: 0..<10, using: &rng) {
                case 0: return 0
                case 1: return Int32.random(in: Int32.min...Int32.max, using: &rng)
                case 2: return Int32(full)
                default: return Int32.random(in: -Int32(full)...Int32(full), using: &rng)
                }
            }
            let start = Int32.random(in: -3 * Int32(full)...3 * Int32(full), using: &rng)
            var vectorCells = cells, scalarCells = cells
            var vectorCoverage = [Float](repeating: 7, count: count), scalarCoverage = vectorCoverage
            let vectorEnd = lamina_coverage_fixed_nonzero_vector(&vectorCells, &vectorCoverage, count, start)
            let scalarEnd = lamina_coverage_fixed_nonzero_scalar(&scalarCells, &scalarCoverage, count, start)
            #expect(vectorCoverage.map(\.bitPattern) == scalarCoverage.map(\.bitPattern), "count \(count)")
            #expect(vectorEnd == scalarEnd)
            #expect(vectorCells.allSatisfy { $0 == 0 } && scalarCells.allSatisfy { $0 == 0 })
            // The running sum, wrapped to 32 bits as the cells are.
            var sum = start
            for i in 0..<count {
                sum &+= cells[i]
                let expected = Float(min(Int64(sum).magnitude, UInt64(full))) / Float(full)
                #expect(vectorCoverage[i] == expected, "count \(count), cell \(i)")
            }
            #expect(vectorEnd == sum)
        }
    }

    @Test("random scenes render within two levels of the reference on at most 5 % of pixels", arguments: seeds)
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
        var worst = 0, differing = 0
        for y in 0..<height {
            for x in 0..<width {
                let a = reference[x, y], b = fast[x, y]
                for shift: UInt32 in [0, 8, 16, 24] {
                    let ca = Int((a >> shift) & 255), cb = Int((b >> shift) & 255)
                    worst = max(worst, abs(ca - cb))
                }
                if a != b { differing += 1 }
            }
        }
        #expect(worst <= 2, "seed \(seed): a channel differs by \(worst)")
        #expect(differing * 20 <= width * height, "seed \(seed): \(differing) of \(width * height) pixels differ")
    }

    /// A SolidColorSink behind another type, so the fast core takes its generic Swift sweep.
    struct ForwardingSink: SpanSink {
        var solid: SolidColorSink
        static var takesAlpha: Bool { true }
        func prefetch(x: Int, y: Int) { solid.prefetch(x: x, y: y) }
        mutating func pixel(x: Int, y: Int, coverage: Float) { solid.pixel(x: x, y: y, coverage: coverage) }
        mutating func pixel(x: Int, y: Int, alpha: UInt32) { solid.pixel(x: x, y: y, alpha: alpha) }
        mutating func run(x0: Int, x1: Int, y: Int, coverage: Float) { solid.run(x0: x0, x1: x1, y: y, coverage: coverage) }
        mutating func span(x0: Int, y: Int, coverage: UnsafePointer<Float>, count: Int) {
            solid.span(x0: x0, y: y, coverage: coverage, count: count)
        }
    }

    @Test("the C sweep of a solid colour (non-zero, no mask) draws the Swift sweep's pixels bit for bit", arguments: seeds)
    func solidSweepMatchesSwiftSweep(seed: UInt64) {
        var rng = SplitMix(state: seed &+ 300)
        let width = Int.random(in: 40...300, using: &rng), height = Int.random(in: 30...200, using: &rng)
        let rasterizer = CoverageRasterizer(width: width, height: height)
        let direct = PixelBuffer(width: width, height: height), forwarded = PixelBuffer(width: width, height: height)
        let background = (0..<(width * height)).map { _ in UInt32.random(in: 0...UInt32.max, using: &rng) | 0xFF00_0000 }
        for i in 0..<(width * height) {
            direct.pixels[i] = background[i]
            forwarded.pixels[i] = background[i]
        }
        for _ in 0..<40 {
            // Shapes drawn two or three times over (windings above one), opaque and translucent,
            // some clipped to a rectangle that cuts through them.
            var polygons = Self.randomPath(&rng, width: Double(width), height: Double(height)).flattened()
            if Int.random(in: 0..<4, using: &rng) == 0 { polygons += polygons + polygons }
            let alpha = [UInt32(255), UInt32.random(in: 1...254, using: &rng)].randomElement(using: &rng)!
            let color = alpha << 24 | UInt32.random(in: 0...alpha, using: &rng) << 16
                | UInt32.random(in: 0...alpha, using: &rng) << 8 | UInt32.random(in: 0...alpha, using: &rng)
            let clip = Bool.random(using: &rng) ? nil : PixelRect(x0: Int.random(in: 0..<width / 2, using: &rng),
                                                                 y0: Int.random(in: 0..<height / 2, using: &rng),
                                                                 x1: Int.random(in: width / 2...width, using: &rng),
                                                                 y1: Int.random(in: height / 2...height, using: &rng))
            var sink = SolidColorSink(color: color, target: direct)
            rasterizer.rasterizeSpans(polygons, rule: .nonZero, clip: clip, into: &sink)
            var wrapped = ForwardingSink(solid: SolidColorSink(color: color, target: forwarded))
            rasterizer.rasterizeSpans(polygons, rule: .nonZero, clip: clip, into: &wrapped)
        }
        let differing = (0..<(width * height)).filter { direct.pixels[$0] != forwarded.pixels[$0] }.count
        #expect(differing == 0, "seed \(seed): \(differing) pixels differ")
        #expect((0..<(width * height)).contains { direct.pixels[$0] != background[$0] }, "seed \(seed): nothing drawn")
    }

    /// One of the deposits' builds, as C declares it.
    typealias DepositBuild = (UnsafePointer<lamina_band>?, UnsafePointer<lamina_edge>?, Int, Int, Int32,
                              UnsafeMutablePointer<lamina_edge>?) -> Int

    @Test("the deposits built for AVX2 and BMI2 leave the same cells, touched bits and row bounds as the portable build",
          arguments: 0..<12)
    func depositBuildsAgree(seed: UInt64) {
        var rng = SplitMix(state: seed &+ 700)
        let width = Int.random(in: 40...400, using: &rng), height = Int.random(in: 30...300, using: &rng)
        var polygons: [[Point]] = []
        for _ in 0..<Int.random(in: 1...6, using: &rng) {
            polygons += Self.randomPath(&rng, width: Double(width), height: Double(height)).flattened()
        }
        // The shapes' edges, set up for the whole canvas as FixedPointCoverage sets them up.
        let capacity = 3 * polygons.reduce(0) { $0 + $1.count }
        let edges = UnsafeMutablePointer<lamina_edge>.allocate(capacity: capacity)
        let carried = UnsafeMutablePointer<lamina_edge>.allocate(capacity: capacity)
        defer { edges.deallocate(); carried.deallocate() }
        let right = Int32(width) << 8, reach = Double(FixedPointCoverage.reach)
        var setup = lamina_edge_setup(
            edges: edges, count: 0, min_x: .max, max_x: .min, min_y: .max, max_y: .min, dropped_right: 0,
            clip_top: 0, clip_bottom: Int32(height) << 8, clip_right: right, right: right,
            reach_x0: -reach, reach_y0: -reach, reach_x1: Double(width) + reach, reach_y1: Double(height) + reach)
        for polygon in polygons {
            let added = polygon.withUnsafeBufferPointer { points in
                points.withMemoryRebound(to: lamina_point.self) { lamina_add_polygon_edges(&setup, $0.baseAddress, $0.count) }
            }
            #expect(added == 1)
        }
        guard setup.count > 0 else { return }   // every shape off the canvas
        // One band over every row and column the edges reach (a row's last deposit goes one
        // cell right of its edge).
        let colFirst = Int(setup.min_x >> 8), rowTop = Int(setup.min_y >> 8), rowEnd = Int((setup.max_y + 255) >> 8)
        let rowLength = Int(setup.max_x >> 8) + 2 - colFirst, wordsPerRow = (rowLength + 63) >> 6
        let rows = rowEnd - rowTop, edgeCount = setup.count
        func deposit(_ build: DepositBuild) -> (cells: [Int32], words: [UInt64], first: [Int32], last: [Int32],
                                                kept: Int) {
            var cells = [Int32](repeating: 0, count: rows * rowLength)
            var words = [UInt64](repeating: 0, count: rows * wordsPerRow)
            var first = [Int32](repeating: .max, count: rows), last = [Int32](repeating: -1, count: rows)
            var kept = 0
            cells.withUnsafeMutableBufferPointer { cells in
                words.withUnsafeMutableBufferPointer { words in
                    first.withUnsafeMutableBufferPointer { first in
                        last.withUnsafeMutableBufferPointer { last in
                            var band = lamina_band(cells: cells.baseAddress, touched: words.baseAddress,
                                                   row_first_word: first.baseAddress, row_last_word: last.baseAddress,
                                                   col_first: colFirst, row_length: rowLength, words_per_row: wordsPerRow)
                            // Edges going on below the rows drawn are carried (and then dropped).
                            kept = build(&band, edges, edgeCount, rowTop, Int32(rowEnd) << 8, carried)
                        }
                    }
                }
            }
            return (cells, words, first, last, kept)
        }
        let chosen = deposit(lamina_deposit_edges), portable = deposit(lamina_deposit_edges_portable)
        #expect(portable.cells.contains { $0 != 0 }, "seed \(seed): nothing deposited")
        #expect(chosen.cells == portable.cells, "seed \(seed)")
        #expect(chosen.words == portable.words, "seed \(seed)")
        #expect(chosen.first == portable.first && chosen.last == portable.last, "seed \(seed)")
        #expect(chosen.kept == portable.kept, "seed \(seed)")
    }

    @Test("a pixel-aligned rectangle is filled row by row exactly as the sweep fills it; other four-gons are not taken for one")
    func pixelAlignedRectangles() {
        func p(_ x: Double, _ y: Double) -> Point { Point(x: x, y: y) }
        #expect(PixelRect(pixelAlignedRectangle: [[p(1, 2), p(5, 2), p(5, 7), p(1, 7)]]) == PixelRect(x0: 1, y0: 2, x1: 5, y1: 7))
        #expect(PixelRect(pixelAlignedRectangle: [[p(5, 7), p(5, 2), p(1, 2), p(1, 7), p(5, 7)]]) == PixelRect(x0: 1, y0: 2, x1: 5, y1: 7))
        #expect(PixelRect(pixelAlignedRectangle: [[p(1, 2), p(5, 2), p(1, 7), p(5, 7)]]) == nil)          // a bow tie
        #expect(PixelRect(pixelAlignedRectangle: [[p(0, 0), p(4, 0), p(0, 0), p(0, 6)]]) == nil)          // slits out and back
        #expect(PixelRect(pixelAlignedRectangle: [[p(1, 2), p(5.5, 2), p(5.5, 7), p(1, 7)]]) == nil)      // off the pixel grid
        #expect(PixelRect(pixelAlignedRectangle: [[p(1, 2), p(5, 2), p(5, 7), p(1, 7)], [p(0, 0), p(1, 0), p(1, 1)]]) == nil)
        #expect(PixelRect(pixelAlignedRectangle: [[p(1, 2), p(5, 2), p(5, 2), p(1, 2)]]) == nil)          // no height
        var rng = SplitMix(state: 41)
        let width = 90, height = 70
        for _ in 0..<200 {
            let x0 = Double(Int.random(in: -20...100, using: &rng)), y0 = Double(Int.random(in: -20...80, using: &rng))
            let x1 = x0 + Double(Int.random(in: 1...60, using: &rng)), y1 = y0 + Double(Int.random(in: 1...50, using: &rng))
            var corners = [p(x0, y0), p(x1, y0), p(x1, y1), p(x0, y1)]
            if Bool.random(using: &rng) { corners.reverse() }
            // The same rectangle with a point in the middle of its top side: the sweep draws it.
            var swept = corners
            let top = (0..<4).first { corners[$0].y == y0 && corners[($0 + 1) % 4].y == y0 }!
            swept.insert(p(((x0 + x1) / 2).rounded(.down) + 0.5, y0), at: top + 1)
            let alpha = [255, 1, Double.random(in: 0.05...0.95, using: &rng)].randomElement(using: &rng)!
            let color = Color(red: Double.random(in: 0...1, using: &rng), green: 0.4, blue: 0.7, alpha: alpha == 255 ? 1 : alpha)
            let clip = Bool.random(using: &rng) ? nil
                : PixelRect(x0: Int.random(in: 0...40, using: &rng), y0: Int.random(in: 0...30, using: &rng),
                            x1: Int.random(in: 45...90, using: &rng), y1: Int.random(in: 35...70, using: &rng))
            let rule: FillRule = Bool.random(using: &rng) ? .nonZero : .evenOdd
            let fast = PixelBuffer(width: width, height: height), sweep = PixelBuffer(width: width, height: height)
            let reference = PixelBuffer(width: width, height: height)
            for (buffer, polygon, pipeline) in [(fast, corners, Canvas.Pipeline.fast), (sweep, swept, .fast), (reference, corners, .reference)] {
                let canvas = Canvas(target: buffer)
                canvas.pipeline = pipeline
                canvas.clear(Color(red: 0.9, green: 0.2, blue: 0.1, alpha: 1))
                canvas.fill(polygons: [polygon], color: color, rule: rule, clip: clip)
            }
            #expect(Pixels.worstChannelDifference(fast, sweep) == 0, "\(corners), clip \(String(describing: clip))")
            #expect(Pixels.worstChannelDifference(fast, reference) == 0, "\(corners), clip \(String(describing: clip))")
        }
    }

    @Test("the AVX-512 and AVX2 coverage blends equal the per-pixel composite for every coverage level, NaN, negative values and values above 1")
    func coverageBlendKernel() {
        var kernels: [(String, (UInt32, UnsafePointer<Float>, UnsafeMutablePointer<UInt32>, Int) -> Void)] = []
        if Blend.hasAVX2 { kernels.append(("avx2", { lamina_blend_coverage_avx2($0, $1, $2, $3) })) }
        if Blend.hasAVX512 { kernels.append(("avx512", { lamina_blend_coverage_avx512($0, $1, $2, $3) })) }
        var rng = SplitMix(state: 17)
        for length in [1, 3, 4, 7, 8, 9, 15, 16, 17, 40] {
            for _ in 0..<40 {
                let alpha = UInt32.random(in: 0...255, using: &rng)
                let color = alpha << 24 | UInt32.random(in: 0...alpha, using: &rng) << 16
                    | UInt32.random(in: 0...alpha, using: &rng) << 8 | UInt32.random(in: 0...alpha, using: &rng)
                let coverage = (0..<length).map { _ -> Float in
                    switch Int.random(in: 0..<8, using: &rng) {
                    case 0: return 0
                    case 1: return 1
                    case 2: return [Float.nan, -0.5, 1.004].randomElement(using: &rng)!   // above 1 counts as 1
                    default: return Float(Int.random(in: 0...255, using: &rng)) / 255 + Float.random(in: -0.002...0.002, using: &rng)
                    }
                }
                let row = (0..<length).map { _ in UInt32.random(in: 0...UInt32.max, using: &rng) | 0xFF00_0000 }
                var expected = row
                for i in 0..<length where coverage[i] > 0 {
                    Blend.composite(color, coverage: UInt32(coverage[i] * 255 + 0.5), into: &expected[i])
                }
                for (name, kernel) in kernels {
                    var blended = row
                    blended.withUnsafeMutableBufferPointer { kernel(color, coverage, $0.baseAddress!, length) }
                    #expect(blended == expected, "\(name), length \(length), colour \(color)")
                }
            }
        }
    }

    @Test("the AVX-512 and AVX2 mask blends equal the per-pixel composite for every coverage byte, row by row, leaving the stride's gap alone")
    func maskBlendKernel() {
        var kernels: [(String, (UInt32, UnsafePointer<UInt8>, Int, UnsafeMutablePointer<UInt32>, Int, Int, Int) -> Void)] = []
        if Blend.hasAVX2 { kernels.append(("avx2", { lamina_blend_mask_rows_avx2($0, $1, $2, $3, $4, $5, $6) })) }
        if Blend.hasAVX512 { kernels.append(("avx512", { lamina_blend_mask_rows_avx512($0, $1, $2, $3, $4, $5, $6) })) }
        var rng = SplitMix(state: 23)
        for width in [1, 3, 7, 8, 9, 16, 17, 31] {
            for _ in 0..<30 {
                let rows = Int.random(in: 1...4, using: &rng), stride = width + 5
                let alpha = UInt32.random(in: 0...255, using: &rng)
                let color = alpha << 24 | UInt32.random(in: 0...alpha, using: &rng) << 16
                    | UInt32.random(in: 0...alpha, using: &rng) << 8 | UInt32.random(in: 0...alpha, using: &rng)
                // Zero stretches (skipped whole), full and partial coverage.
                let coverage = (0..<(rows * width)).map { _ -> UInt8 in
                    switch Int.random(in: 0..<4, using: &rng) {
                    case 0: return 0
                    case 1: return 255
                    default: return UInt8.random(in: 0...255, using: &rng)
                    }
                }
                let target = (0..<(rows * stride)).map { _ in UInt32.random(in: 0...UInt32.max, using: &rng) | 0xFF00_0000 }
                var expected = target
                for r in 0..<rows {
                    for x in 0..<width where coverage[r * width + x] != 0 {
                        Blend.composite(color, coverage: UInt32(coverage[r * width + x]), into: &expected[r * stride + x])
                    }
                }
                for (name, kernel) in kernels {
                    var blended = target
                    coverage.withUnsafeBufferPointer { c in
                        blended.withUnsafeMutableBufferPointer { kernel(color, c.baseAddress!, width, $0.baseAddress!, stride, width, rows) }
                    }
                    #expect(blended == expected, "\(name), width \(width), rows \(rows), colour \(color)")
                }
            }
        }
    }

    @Test("the AVX-512 and AVX2 bilinear image runs equal the per-pixel sample and composite, and stop at the first group leaving the image")
    func bilinearImageKernel() {
        typealias Kernel = (UnsafePointer<UInt32>, Int, Int64, Int64, Int64, Int64, Int64, Int64, UInt32,
                            UnsafeMutablePointer<UInt32>, Int) -> Int
        var kernels: [(String, Kernel)] = []
        if Blend.hasAVX2 { kernels.append(("avx2", { lamina_image_run_bilinear_avx2($0, $1, $2, $3, $4, $5, $6, $7, $8, $9, $10) })) }
        if Blend.hasAVX512 { kernels.append(("avx512", { lamina_image_run_bilinear_avx512($0, $1, $2, $3, $4, $5, $6, $7, $8, $9, $10) })) }
        var rng = SplitMix(state: 29)
        let width = 41, height = 27
        let texels = (0..<(width * height)).map { _ -> UInt32 in
            let a = UInt32.random(in: 0...255, using: &rng)
            return a << 24 | UInt32.random(in: 0...a, using: &rng) << 16 | UInt32.random(in: 0...a, using: &rng) << 8
                | UInt32.random(in: 0...a, using: &rng)
        }
        let innerU = Int64(width - 1) << 32, innerV = Int64(height - 1) << 32
        for _ in 0..<300 {
            // Steps from a strong minification to a strong magnification, either sign; some runs
            // leave the image part way (the kernel must stop before the first group that does).
            let stepU = Int64.random(in: -(Int64(3) << 32)...(Int64(3) << 32), using: &rng)
            let stepV = Int64.random(in: -(Int64(1) << 31)...(Int64(1) << 31), using: &rng)
            let su = Int64.random(in: 0..<innerU, using: &rng), sv = Int64.random(in: 0..<innerV, using: &rng)
            let count = Int.random(in: 1...40, using: &rng)
            let coverage = [UInt32(255), 1, 128, UInt32.random(in: 1...254, using: &rng)].randomElement(using: &rng)!
            let row = (0..<count).map { _ in UInt32.random(in: 0...UInt32.max, using: &rng) | 0xFF00_0000 }
            func inside(_ k: Int) -> Bool {
                let u = su &+ Int64(k) &* stepU, v = sv &+ Int64(k) &* stepV
                return u >= 0 && u < innerU && v >= 0 && v < innerV
            }
            var groups = 0
            while groups * 8 + 8 <= count && inside(groups * 8) && inside(groups * 8 + 7) { groups += 1 }
            var expected = row
            for k in 0..<(groups * 8) {
                let u = su &+ Int64(k) &* stepU, v = sv &+ Int64(k) &* stepV
                let t = Int(v >> 32) * width + Int(u >> 32)
                let src = ImageSink.bilinear(texels[t], texels[t + 1], texels[t + width], texels[t + width + 1],
                                             UInt32((u >> 24) & 0xFF), UInt32((v >> 24) & 0xFF))
                expected.withUnsafeMutableBufferPointer { Blend.composite(src, coverage: coverage, into: $0.baseAddress! + k) }
            }
            for (name, kernel) in kernels {
                var drawn = row
                let done = texels.withUnsafeBufferPointer { t in
                    drawn.withUnsafeMutableBufferPointer {
                        kernel(t.baseAddress!, width, su, sv, stepU, stepV, innerU, innerV, coverage, $0.baseAddress!, count)
                    }
                }
                #expect(done == groups * 8, "\(name): drew \(done) of \(count), step (\(stepU), \(stepV))")
                #expect(drawn == expected, "\(name): coverage \(coverage), step (\(stepU), \(stepV))")
            }
        }
    }

    @Test("the libm-free roundings equal Double's: half away from zero, and ties to even into Int32")
    func roundings() {
        var rng = SplitMix(state: 5)
        var values: [Double] = [0, -0, 0.5, -0.5, 1.5, -1.5, 2.5, -2.5, 0.49999999999999994, -0.49999999999999994, 1e9 + 0.5]
        for _ in 0..<2000 {
            let whole = Double(Int.random(in: -100_000...100_000, using: &rng))
            values.append(whole + [0, 0.5, -0.5, Double.random(in: -1...1, using: &rng)].randomElement(using: &rng)!)
        }
        for v in values {
            #expect(roundedAwayFromZero(v) == Int(v.rounded()), "\(v)")
            if abs(v * 256) < 2e9 { #expect(roundedInt32(v * 256) == Int32((v * 256).rounded(.toNearestOrEven)), "\(v)") }
        }
    }

    @Test("every fill kernel this CPU has sets exactly the pixels asked for")
    func fillKernels() {
        var kernels: [(String, (UInt32, UnsafeMutablePointer<UInt32>, Int) -> Void)] = [("dispatched", { Blend.fill($0, $1, $2) })]
        if Blend.hasAVX2 { kernels.append(("avx2", { lamina_fill_avx2($0, $1, $2) })) }
        if Blend.hasAVX512 { kernels.append(("avx512", { lamina_fill_avx512($0, $1, $2) })) }
        for (name, kernel) in kernels {
            // Several whole vectors of the widest kernel (16 pixels), and every tail.
            for length in 0...140 {
                for offset in 0...3 {
                    var row = (0..<148).map { UInt32($0) &* 0x0101_0101 }
                    let before = row
                    row.withUnsafeMutableBufferPointer { kernel(0xFF12_3456, $0.baseAddress! + offset, length) }
                    let expected = before.indices.map { $0 >= offset && $0 < offset + length ? 0xFF12_3456 : before[$0] }
                    #expect(row == expected, "\(name), length \(length), offset \(offset)")
                }
            }
        }
    }

    @Test("every run-blend kernel this CPU has equals the scalar blend for every alpha and a spread of destinations, and leaves the pixels after the run alone")
    func runBlend() {
        var kernels: [(String, (UInt32, UnsafeMutablePointer<UInt32>, Int) -> Void)] = [
            ("dispatched", { Blend.runOver($0, $1, $2) }), ("portable", Blend.runOverPortable),
        ]
        if Blend.hasAVX2 { kernels.append(("avx2", { lamina_blend_run_avx2($0, $1, $2) })) }
        if Blend.hasAVX512 { kernels.append(("avx512", { lamina_blend_run_avx512($0, $1, $2) })) }
        for alpha in 0...255 {
            let src = UInt32(alpha) << 24 | UInt32(alpha * 3 / 4) << 16 | UInt32(alpha / 2) << 8 | UInt32(alpha / 5)
            for length in [0, 1, 3, 4, 5, 7, 8, 9, 12, 15, 16, 17, 19, 31, 33, 47] {
                let row: [UInt32] = (0..<length).map { (i: Int) -> UInt32 in
                    let mixed: UInt64 = 0x1234_5678 &* UInt64(i + 1) &* 2_654_435_761
                    return i % 7 == 3 ? UInt32.max : UInt32(truncatingIfNeeded: mixed)
                }
                // A vector's worth of other pixels after the run, which no kernel may touch.
                let after = [UInt32](repeating: 0x8040_2010, count: 16)
                let expected = row.map { Blend.over(src, $0) } + after
                for (name, kernel) in kernels {
                    var blended = row + after
                    blended.withUnsafeMutableBufferPointer { kernel(src, $0.baseAddress!, length) }
                    #expect(blended == expected, "\(name), alpha \(alpha), length \(length)")
                }
            }
        }
    }
}
