import LaminaTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif
@testable import LaminaAnimation
@testable import LaminaGeometry
@testable import LaminaLayers
@testable import LaminaRaster

@Suite("Shadows and blur")
struct ShadowTests {
    @Test("a box blur keeps each channel's sum (up to rounding) and spreads an impulse symmetrically")
    func blurKeepsEnergy() {
        let buffer = PixelBuffer(width: 41, height: 41)
        buffer.fill(pixel: 0)
        for y in 18..<23 { for x in 18..<23 { buffer[x, y] = 0xFFFF_FFFF } }
        buffer.boxBlur(radius: 3)
        var sum = 0
        for y in 0..<41 { for x in 0..<41 { sum += Int(buffer[x, y] >> 24) } }
        #expect(abs(sum - 25 * 255) <= 25 * 255 / 50)                     // within 2 %
        #expect(buffer[20, 14] == buffer[20, 26] && buffer[14, 20] == buffer[26, 20])
        #expect(buffer[20, 20] >> 24 < 255 && buffer[20, 12] >> 24 > 0)
    }

    @Test("a layer's shadow falls at its offset, soft, with the silhouette's area times the opacity")
    func shadow() throws {
        let root = Layer()
        root.bounds = Rect(x: 0, y: 0, width: 80, height: 40)
        root.anchorPoint = .zero
        let card = Layer()
        card.bounds = Rect(x: 0, y: 0, width: 10, height: 10)
        card.anchorPoint = .zero
        card.position = Point(x: 10, y: 15)
        card.backgroundColor = .white
        card.shadowOpacity = 0.5
        card.shadowColor = Color(red: 1, green: 0, blue: 0)
        card.shadowOffset = Size(width: 40, height: 0)
        card.shadowRadius = 2
        root.addSublayer(card)
        let tree = LayerTree(root: root)
        tree.commit(at: 0)
        tree.updatePresentation(at: 0)
        let buffer = PixelBuffer(width: 80, height: 40)
        Renderer().render(try #require(root.presentation()), into: Canvas(target: buffer), background: .black)
        var red = 0.0
        for y in 0..<40 { for x in 35..<80 { red += Double(buffer[x, y] >> 16 & 0xFF) / 255 } }
        #expect(abs(red - 100 * 0.5) < 1.5)                                // 10 × 10 at half strength
        #expect(buffer[55, 20] >> 16 & 0xFF > 0 && buffer[55, 20] >> 16 & 0xFF < 128)   // blurred: below full
        #expect(buffer[15, 20] == 0xFFFF_FFFF)                               // the card itself
        #expect(buffer[75, 20] == 0xFF00_0000)                               // beyond the blur
    }

    @Test("a shadow left out where the opaque background drawn next covers it gives the same pixels as one drawn whole", arguments: [Canvas.Pipeline.fast, .reference])
    func coveredShadowSamePixels(pipeline: Canvas.Pipeline) {
        var n = SeededNumbers(state: 29)
        var holes = 0
        for round in 0..<60 {
            let bounds = Rect(x: 0, y: 0, width: n.next(6, 90), height: n.next(6, 70))
            let radius = round % 3 == 1 ? 0 : n.next(0, min(bounds.width, bounds.height) / 2)
            let scale = n.next(0.5, 2.5)
            let toTarget = AffineTransform(a: scale, b: 0, c: 0, d: scale, tx: n.next(-20, 120), ty: n.next(-20, 80))
            let outline = radius > 0 ? Path(roundedRect: bounds, cornerRadius: radius) : Path(rect: bounds)
            let covered = DisplayListBuilder.interior(of: bounds, cornerRadius: radius)
            if !Renderer.wholePixels(inside: covered, toTarget: toTarget).isEmpty { holes += 1 }
            let shadowColor = Color(red: n.next(0, 1), green: n.next(0, 1), blue: n.next(0, 1), alpha: n.next(0.1, 1))
            let card = Color(red: n.next(0, 1), green: n.next(0, 1), blue: n.next(0, 1), alpha: 1)
            let blur = [0.0, 1.5, 3, 8, 14][round % 5]
            let offset = Size(width: n.next(-12, 12), height: n.next(-12, 12))
            let clip = round % 3 == 0 ? Path(roundedRect: Rect(x: n.next(0, 40), y: n.next(0, 30), width: 90, height: 60), cornerRadius: 17) : nil
            var pixels: [[UInt32]] = []
            for hole in [covered, nil] {
                let buffer = PixelBuffer(width: 160, height: 110)
                for y in 0..<110 { for x in 0..<160 { buffer[x, y] = 0xFF00_0000 | UInt32(x &* 37 &+ y &* 11) & 0xFF_FFFF } }
                let canvas = Canvas(target: buffer)
                canvas.pipeline = pipeline
                if let clip { canvas.clip(to: clip) }
                Renderer().paint([.shadow(silhouette: outline, color: shadowColor, radius: blur, offset: offset, toTarget: toTarget, covered: hole),
                                  .fill(outline, color: card, rule: .nonZero, toTarget: Transform3D(toTarget))], on: canvas)
                pixels.append((0..<110).flatMap { y in (0..<160).map { x in buffer[x, y] } })
            }
            #expect(pixels[0] == pixels[1], "round \(round): \(bounds), radius \(radius), scale \(scale)")
        }
        #expect(holes > 30)                                        // else this compares nothing
    }
}

@Suite("Shadow masks")
struct ShadowMaskTests {
    @Test("a mask's blur gives the alpha a premultiplied buffer's blur gives, bit for bit")
    func maskBlurMatchesBufferBlur() {
        var random = SystemRandomNumberGenerator()
        for radius in [1, 3, 8] {
            let width = 37, height = 23
            var mask = AlphaMask(width: width, height: height)
            let buffer = PixelBuffer(width: width, height: height)
            for y in 0..<height {
                for x in 0..<width {
                    let v = UInt8.random(in: 0...255, using: &random)
                    mask.coverage[y * width + x] = v
                    buffer[x, y] = UInt32(v) << 24
                }
            }
            mask.blur(radius: radius)
            buffer.boxBlur(radius: radius)
            for y in 0..<height { for x in 0..<width { #expect(UInt32(mask[x, y]) == buffer[x, y] >> 24) } }
        }
    }

    @Test("three box passes of radius r follow a Gaussian of σ = √(r(r + 1)) across an edge, within 1 % and rounding")
    func blurIsNearGaussian() {
        // Far (over 3r) from the mask's own edges, where the blur reaches in from outside.
        let width = 200, height = 60, radius = 8
        var mask = AlphaMask(filling: Path(rect: Rect(x: -50, y: -50, width: 150, height: 200)), width: width, height: height)
        mask.blur(radius: radius)
        let sigma = (Double(radius * (radius + 1))).squareRoot()
        var worst = 0.0
        for x in 30..<(width - 30) {
            // Pixel x's centre is x + 0.5; the edge is at 100.
            let expected = 255 * 0.5 * (1 + erf((100 - (Double(x) + 0.5)) / (sigma * 2.0.squareRoot())))
            worst = max(worst, abs(Double(mask[x, 30]) - expected))
        }
        #expect(worst <= 0.01 * 255 + 3)                            // 1 %, plus a rounding per pass
        #expect(mask[30, 30] == 255 && mask[width - 30, 30] == 0)
    }

    @Test("a layer that only moves blurs its shadow once; a new radius blurs it again")
    func movingShadowIsBlurredOnce() throws {
        let root = Layer()
        root.bounds = Rect(x: 0, y: 0, width: 400, height: 200)
        root.anchorPoint = .zero
        let card = Layer()
        card.bounds = Rect(x: 0, y: 0, width: 100, height: 60)
        card.cornerRadius = 12
        card.backgroundColor = .white
        card.shadowOpacity = 0.5
        card.shadowRadius = 8
        root.addSublayer(card)
        let tree = LayerTree(root: root)
        let renderer = Renderer()
        let buffer = PixelBuffer(width: 400, height: 200)
        let canvas = Canvas(target: buffer)
        for step in 0..<12 {
            card.position = Point(x: 80 + Double(step) * 17.3, y: 100 + Double(step) * 0.37)   // fractions of a pixel too
            tree.commit(at: Double(step))
            tree.updatePresentation(at: Double(step))
            renderer.renderDamage(try #require(root.presentation()), into: canvas, background: .black)
        }
        #expect(renderer.shadowMasksBlurred == 1)
        card.shadowRadius = 4                                       // implicitly animated: drawn once it has ended
        tree.commit(at: 20)
        tree.updatePresentation(at: 21)
        renderer.renderDamage(try #require(root.presentation()), into: canvas, background: .black)
        #expect(renderer.shadowMasksBlurred == 2)
    }

    @Test("a shadow drawn from the cached mask is the silhouette's area times the opacity wherever the layer sits")
    func cachedShadowKeepsItsEnergy() throws {
        for x in [10.0, 10.5, 11.25, 30.75] {
            let root = Layer()
            root.bounds = Rect(x: 0, y: 0, width: 120, height: 60)
            root.anchorPoint = .zero
            let card = Layer()
            card.bounds = Rect(x: 0, y: 0, width: 10, height: 10)
            card.anchorPoint = .zero
            card.position = Point(x: x, y: 20)
            card.shadowOpacity = 1
            card.shadowColor = Color(red: 0, green: 1, blue: 0)
            card.shadowOffset = Size(width: 50, height: 0)
            card.shadowRadius = 5
            root.addSublayer(card)
            let tree = LayerTree(root: root)
            tree.commit(at: 0)
            tree.updatePresentation(at: 0)
            let buffer = PixelBuffer(width: 120, height: 60)
            Renderer().render(try #require(root.presentation()), into: Canvas(target: buffer), background: .black)
            var green = 0.0, weighted = 0.0
            for y in 0..<60 {
                for px in 0..<120 {
                    let g = Double(buffer[px, y] >> 8 & 0xFF) / 255
                    green += g
                    weighted += g * (Double(px) + 0.5)
                }
            }
            #expect(abs(green - 100) < 2)                            // 10 × 10 at full strength
            #expect(abs(weighted / green - (x + 55)) <= 0.5 + 0.05)   // centred within half a pixel (snapped)
        }
    }
}
