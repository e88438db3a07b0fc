import Foundation
import LaminaTestSupport
import Testing
@testable import LaminaGeometry
@testable import LaminaRaster

@Suite("Images")
struct ImageTests {
    /// A 4x4 image of distinct opaque greys and one translucent texel.
    func makeImage() -> PixelBuffer {
        let image = PixelBuffer(width: 4, height: 4)
        for y in 0..<4 {
            for x in 0..<4 {
                let v = UInt32(16 * (y * 4 + x) + 8)
                image[x, y] = 0xFF00_0000 | v << 16 | v << 8 | v
            }
        }
        image[3, 3] = 0x8040_4040   // half-transparent, premultiplied
        return image
    }

    @Test("an opaque image (a video frame) at its own size on whole pixels is copied row by row, bit for bit what the general path draws: off the edges, under a clip rectangle, and not at half a pixel",
          arguments: [(3.0, 2.0, nil), (-5.0, -7.0, nil), (30.0, 25.0, nil), (4.0, 4.0, Rect(x: 6, y: 5, width: 9, height: 7)), (3.5, 2.0, nil)] as [(Double, Double, Rect?)])
    func opaqueCopy(x: Double, y: Double, clip: Rect?) {
        var random = SeededNumbers(state: 11)
        let image = PixelBuffer(width: 17, height: 13)
        for i in 0..<image.pixels.count { image.pixels[i] = 0xFF00_0000 | UInt32(random.pick(1 << 24)) }
        func draw(opaque: Bool) -> PixelBuffer {
            let target = PixelBuffer(width: 40, height: 32)
            let canvas = Canvas(target: target)
            canvas.clear(Color(red: 0.2, green: 0.4, blue: 0.6))
            if let clip { canvas.clip(to: clip) }
            image.isOpaque = opaque
            canvas.draw(image, transform: AffineTransform(translationX: x, y: y))
            return target
        }
        let general = draw(opaque: false), copied = draw(opaque: true)
        #expect(Array(general.pixels) == Array(copied.pixels))
        let blank = PixelBuffer(width: 40, height: 32)
        Canvas(target: blank).clear(Color(red: 0.2, green: 0.4, blue: 0.6))
        #expect(Array(general.pixels) != Array(blank.pixels), "the image was drawn")
    }

    @Test("an identity, pixel-aligned draw copies the texels (bilinear samples at texel centres)")
    func identity() {
        let target = PixelBuffer(width: 10, height: 10)
        let canvas = Canvas(target: target)
        canvas.clear(.black)
        let image = makeImage()
        canvas.draw(image, transform: AffineTransform(translationX: 3, y: 2))
        for y in 0..<4 {
            for x in 0..<4 where !(x == 3 && y == 3) { #expect(target[x + 3, y + 2] == image[x, y]) }
        }
        #expect(target[6, 5] == 0xFF40_4040)          // 50 % grey over black
        #expect(target[2, 2] == 0xFF00_0000 && target[7, 2] == 0xFF00_0000)
    }

    @Test("half-texel offsets average neighbours; outside samples pad to the edge texel")
    func bilinear() {
        let image = PixelBuffer(width: 2, height: 1)
        image[0, 0] = 0xFF00_0000
        image[1, 0] = 0xFFC8_C8C8                      // 200
        let target = PixelBuffer(width: 4, height: 1)
        let canvas = Canvas(target: target)
        canvas.clear(.black)
        // Scale 2 in x: device centre 1.5 → u = 0.75 → between texel centres 0.5 and 1.5 at ¼.
        canvas.draw(image, transform: AffineTransform(scaleX: 2, y: 1))
        #expect(target[0, 0] == 0xFF00_0000)           // u = 0.25: pads to texel 0
        #expect(target[1, 0] == 0xFF32_3232)           // 200 · 64/256 = 50
        #expect(target[2, 0] == 0xFF96_9696)           // 200 · 192/256 = 150
        #expect(target[3, 0] == 0xFFC8_C8C8)           // u = 1.75: pads to texel 1
    }

    @Test("opacity scales the image; nearest filter picks the texel under the sample")
    func opacityAndNearest() {
        let image = PixelBuffer(width: 1, height: 1)
        image[0, 0] = 0xFFFF_FFFF
        let target = PixelBuffer(width: 2, height: 2)
        let canvas = Canvas(target: target)
        canvas.clear(.black)
        canvas.draw(image, transform: AffineTransform(scaleX: 2, y: 2), opacity: 0.5, filter: .nearest)
        #expect(target[1, 1] == 0xFF80_8080)
    }

    @Test("degenerate and extreme transforms draw nothing or something, never trap")
    func extremes() {
        let target = PixelBuffer(width: 8, height: 8)
        let canvas = Canvas(target: target)
        canvas.clear(.black)
        let image = makeImage()
        canvas.draw(image, transform: AffineTransform(scaleX: 0, y: 1))
        canvas.draw(image, transform: AffineTransform(scaleX: 1e-300, y: 1e300))
        canvas.draw(image, transform: AffineTransform(a: 1e150, b: 0, c: 0, d: 1e150, tx: -1e150, ty: 0))
        canvas.fill(Path(rect: Rect(x: -1e300, y: 0, width: 2e300, height: 3)), color: .white)
        #expect(target[4, 1] == 0xFFFF_FFFF)
    }

    @Test("image drawing agrees in both pipelines (and every SIMD kernel) under random transforms",
          arguments: 0..<12)
    func differential(seed: UInt64) {
        var rng = DifferentialTests.SplitMix(state: seed &* 7919 &+ 1)
        let image = PixelBuffer(width: 37, height: 23)
        for y in 0..<23 {
            for x in 0..<37 {
                let a = UInt32.random(in: 0...255, using: &rng)
                image[x, y] = a << 24 | UInt32.random(in: 0...a, using: &rng) << 16 | UInt32.random(in: 0...a, using: &rng) << 8 | (a / 3)
            }
        }
        let reference = PixelBuffer(width: 120, height: 90), fast = PixelBuffer(width: 120, height: 90)
        let r = Canvas(target: reference), f = Canvas(target: fast)
        r.pipeline = .reference
        r.clear(.white)
        f.clear(.white)
        for _ in 0..<8 {
            let t = AffineTransform(rotationAngle: Double.random(in: 0...6.3, using: &rng))
                .scaledBy(x: Double.random(in: 0.3...2.5, using: &rng), y: Double.random(in: 0.3...2.5, using: &rng))
                .concatenating(AffineTransform(translationX: Double.random(in: -10...110, using: &rng),
                                               y: Double.random(in: -10...80, using: &rng)))
            let opacity = Bool.random(using: &rng) ? 1 : Double.random(in: 0.2...1, using: &rng)
            let filter: ImageFilter = Bool.random(using: &rng) ? .bilinear : .nearest
            r.draw(image, transform: t, opacity: opacity, filter: filter)
            f.draw(image, transform: t, opacity: opacity, filter: filter)
        }
        // The samples are the same; the anti-aliased edges' coverage is decision 115's, within two levels.
        #expect(Pixels.worstChannelDifference(reference, fast) <= 2)
    }
}

@Suite("Images from files")
struct ImageFileTests {
    @Test("PixelBuffer(contentsOfPNG:) is the PNG premultiplied, pixel for pixel as readPNG + init(rgba:); a missing file throws")
    func contentsOfPNG() throws {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden/shapes.png").path
        let image = try PixelBuffer(contentsOfPNG: path)
        let decoded = try RGBAImage.readPNG(from: path)
        #expect(image.width == decoded.width && image.height == decoded.height && image.width > 0)
        // Every pixel is the straight colour premultiplied: round(C · A / 255).
        for (x, y) in [(0, 0), (image.width / 2, image.height / 2), (image.width - 1, image.height - 1), (20, 50)] {
            let i = (y * decoded.width + x) * 4, a = UInt32(decoded.bytes[i + 3])
            func pre(_ c: UInt8) -> UInt32 { (UInt32(c) * a + 127) / 255 }
            #expect(image[x, y] == a << 24 | pre(decoded.bytes[i]) << 16 | pre(decoded.bytes[i + 1]) << 8 | pre(decoded.bytes[i + 2]))
        }
        #expect(throws: PNGError.self) { try PixelBuffer(contentsOfPNG: "/nonexistent/logo.png") }
        #expect(throws: PNGError.self) { try PixelBuffer(contentsOfPNG: path, maximumPixels: 10) }
    }
}

@Suite("Images under perspective, per-corner rounded rects")
struct PerspectiveTests {
    @Test("an image under m34 perspective maps its corners by projection and samples through the homography")
    func perspectiveImage() throws {
        let image = PixelBuffer(width: 2, height: 2)
        image[0, 0] = 0xFFFF_0000; image[1, 0] = 0xFF00_FF00; image[0, 1] = 0xFF00_00FF; image[1, 1] = 0xFFFF_FFFF
        var t = Transform3D(rotationAngle: 0.5, x: 1, y: 0, z: 0).concatenating(Transform3D(scaleX: 50, y: 50, z: 50))
        var perspective = Transform3D.identity
        perspective.m34 = -1.0 / 300
        t = t.concatenating(perspective).concatenating(Transform3D(translationX: 60, y: 60, z: 0))
        let target = PixelBuffer(width: 200, height: 200)
        let canvas = Canvas(target: target)
        canvas.clear(.black)
        canvas.draw(image, transform3D: t, filter: .nearest)
        // The centre of each texel projects to a pixel showing that texel.
        for (u, v, colour) in [(0.5, 0.5, 0xFFFF_0000 as UInt32), (1.5, 0.5, 0xFF00_FF00), (0.5, 1.5, 0xFF00_00FF), (1.5, 1.5, 0xFFFF_FFFF)] {
            let p = try #require(t.project(Point(x: u, y: v)))
            #expect(target[Int(p.x), Int(p.y)] == colour, "texel \(u), \(v) at \(p)")
        }
        // Reference and fast pipelines agree under perspective too.
        let reference = PixelBuffer(width: 200, height: 200)
        let r = Canvas(target: reference)
        r.pipeline = .reference
        r.clear(.black)
        r.draw(image, transform3D: t, filter: .bilinear)
        canvas.clear(.black)
        canvas.draw(image, transform3D: t, filter: .bilinear)
        #expect(Pixels.worstChannelDifference(reference, target) <= 2)    // edges: decision 115
    }

    @Test("an image that crosses w = 0 is cut there, not wrapped")
    func behindTheEye() {
        var t = Transform3D(scaleX: 100, y: 100, z: 1)
        t.m24 = -0.009                                           // w = 1 − 0.9·v: v > 1.11 is behind
        let image = PixelBuffer(width: 1, height: 2)
        image[0, 0] = 0xFFFF_FFFF; image[0, 1] = 0xFFFF_FFFF
        let target = PixelBuffer(width: 100, height: 100)
        let canvas = Canvas(target: target)
        canvas.clear(.black)
        canvas.draw(image, transform3D: t, filter: .nearest)
        #expect(target[50, 5] == 0xFFFF_FFFF)
        #expect(target[50, 0] == 0xFFFF_FFFF || target[50, 1] == 0xFFFF_FFFF)
    }

    @Test("per-corner radii: area by corners; oversized radii scale down together")
    func perCorner() {
        func area(_ p: Path) -> Double {
            Canvas(target: PixelBuffer(width: 120, height: 120)).coverage(of: p).reduce(0) { $0 + Double($1) }
        }
        let p = Path(roundedRect: Rect(x: 10, y: 10, width: 100, height: 80), topLeft: 0, topRight: 20, bottomRight: 5, bottomLeft: 30)
        let expected = 8000 - (4 - Double.pi) / 4 * (400 + 25 + 900)
        #expect(abs(area(p) - expected) / expected < 1e-3)
        // 60 + 60 > 100 wide: scaled by 100/120 → each radius 50 … a stadium-like shape.
        let big = Path(roundedRect: Rect(x: 10, y: 10, width: 100, height: 100), topLeft: 60, topRight: 60, bottomRight: 60, bottomLeft: 60)
        #expect(abs(area(big) - Double.pi * 2500) / (Double.pi * 2500) < 1e-3)
    }
}

