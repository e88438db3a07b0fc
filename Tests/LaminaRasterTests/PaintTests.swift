import Foundation
import LaminaTestSupport
import Testing
@testable import LaminaGeometry
@testable import LaminaRaster

@Suite("Gradients")
struct GradientTests {
    @Test("stop colours at their locations, straight-alpha interpolation between, pad beyond")
    func stops() {
        let g = Gradient(.linear(start: .zero, end: Point(x: 1, y: 0)), stops: [
            Gradient.Stop(0.2, Color(red: 1, green: 0, blue: 0)),
            Gradient.Stop(0.6, Color(red: 0, green: 0, blue: 1, alpha: 0)),
            Gradient.Stop(1, Color(red: 0, green: 1, blue: 0)),
        ])
        #expect(g.color(at: 0) == Color(red: 1, green: 0, blue: 0))
        #expect(g.color(at: 0.2) == Color(red: 1, green: 0, blue: 0))
        let mid = g.color(at: 0.4)
        #expect(abs(mid.red - 0.5) < 1e-12 && abs(mid.blue - 0.5) < 1e-12 && abs(mid.alpha - 0.5) < 1e-12)
        #expect(g.color(at: 1.5) == Color(red: 0, green: 1, blue: 0))
    }

    @Test("a linear gradient across a rect: each column's colour follows t at its centre")
    func linearFill() {
        let buffer = PixelBuffer(width: 256, height: 2)
        let canvas = Canvas(target: buffer)
        canvas.clear(.black)
        let g = Gradient(.linear(start: Point(x: 0, y: 0), end: Point(x: 256, y: 0)),
                         stops: [Gradient.Stop(0, .black), Gradient.Stop(1, .white)])
        canvas.fill(Path(rect: Rect(x: 0, y: 0, width: 256, height: 2)), gradient: g)
        for x in [0, 1, 64, 127, 128, 200, 255] {
            let t = (Double(x) + 0.5) / 256
            let expected = UInt32((Double(Int(t * 255 + 0.5)) / 255 * 255).rounded())
            #expect(buffer[x, 1] & 0xFF == expected, "x = \(x)")
        }
    }

    @Test("a radial gradient is the first stop at the centre and the last from the radius on")
    func radialFill() {
        let buffer = PixelBuffer(width: 100, height: 100)
        let canvas = Canvas(target: buffer)
        canvas.clear(.black)
        let g = Gradient(.radial(center: Point(x: 50, y: 50), radius: 30),
                         stops: [Gradient.Stop(0, .white), Gradient.Stop(1, Color(red: 1, green: 0, blue: 0))])
        canvas.fill(Path(rect: Rect(x: 0, y: 0, width: 100, height: 100)), gradient: g)
        #expect(buffer[49, 49] & 0xFFFF >= 0xF8F8)            // centre: nearly white
        #expect(buffer[5, 50] == 0xFFFF_0000 && buffer[95, 95] == 0xFFFF_0000)
    }
}

@Suite("Clipping and groups")
struct ClipTests {
    @Test("a pixel-aligned rect clip cuts exactly; save and restore bring the old clip back")
    func rectClip() {
        let buffer = PixelBuffer(width: 20, height: 20)
        let canvas = Canvas(target: buffer)
        canvas.clear(.black)
        canvas.save()
        canvas.clip(to: Rect(x: 5, y: 5, width: 10, height: 10))
        canvas.fill(Path(rect: Rect(x: 0, y: 0, width: 20, height: 20)), color: .white)
        #expect(buffer[5, 5] == 0xFFFF_FFFF && buffer[14, 14] == 0xFFFF_FFFF)
        #expect(buffer[4, 5] == 0xFF00_0000 && buffer[15, 14] == 0xFF00_0000)
        canvas.restore()
        canvas.fill(Path(rect: Rect(x: 0, y: 0, width: 2, height: 2)), color: .white)
        #expect(buffer[0, 0] == 0xFFFF_FFFF)
    }

    @Test("a rounded-rect clip (masksToBounds with cornerRadius) keeps the inside and cuts the corners")
    func roundedClip() {
        let buffer = PixelBuffer(width: 100, height: 100)
        let canvas = Canvas(target: buffer)
        canvas.clear(.black)
        canvas.clip(to: Path(roundedRect: Rect(x: 10, y: 10, width: 80, height: 80), cornerRadius: 20))
        canvas.fill(Path(rect: Rect(x: 0, y: 0, width: 100, height: 100)), color: .white)
        #expect(buffer[50, 50] == 0xFFFF_FFFF && buffer[10, 50] == 0xFFFF_FFFF)
        #expect(buffer[11, 11] == 0xFF00_0000)                 // inside the bounds, outside the corner arc
        #expect(buffer[9, 50] == 0xFF00_0000)
        // The clipped area equals the rounded rect's area (within AA rounding).
        var sum = 0.0
        for y in 0..<100 { for x in 0..<100 { sum += Double(buffer[x, y] & 0xFF) / 255 } }
        let expected = 80.0 * 80 - (4 - Double.pi) * 400
        #expect(abs(sum - expected) / expected < 2e-3)
    }

    @Test("nested clips intersect; images and gradients respect the clip too")
    func nested() {
        let buffer = PixelBuffer(width: 60, height: 60)
        let canvas = Canvas(target: buffer)
        canvas.clear(.black)
        canvas.clip(to: Path(circleCenter: Point(x: 20, y: 30), radius: 18))
        canvas.clip(to: Path(circleCenter: Point(x: 40, y: 30), radius: 18))
        let image = PixelBuffer(width: 1, height: 1)
        image[0, 0] = 0xFFFF_FFFF
        canvas.draw(image, transform: AffineTransform(scaleX: 60, y: 60))
        #expect(buffer[30, 30] == 0xFFFF_FFFF)                 // in both circles
        #expect(buffer[8, 30] == 0xFF00_0000 && buffer[52, 30] == 0xFF00_0000)
    }

    @Test("group opacity composites a subtree once: overlapping children do not show their overlap")
    func groupOpacity() {
        let target = PixelBuffer(width: 30, height: 10)
        let canvas = Canvas(target: target)
        canvas.clear(.black)
        let group = PixelBuffer(width: 30, height: 10)
        let groupCanvas = Canvas(target: group)
        groupCanvas.fill(Path(rect: Rect(x: 0, y: 0, width: 20, height: 10)), color: .white)
        groupCanvas.fill(Path(rect: Rect(x: 10, y: 0, width: 20, height: 10)), color: .white)
        canvas.composite(group, opacity: 0.5)
        #expect(target[5, 5] == 0xFF80_8080 && target[15, 5] == 0xFF80_8080 && target[25, 5] == 0xFF80_8080)
    }

    @Test("a draw cut by a clip rectangle equals the whole draw inside it: skipping draws outside the clip hides nothing",
          arguments: 0..<6)
    func clipCullingHidesNothing(seed: UInt64) {
        var rng = DifferentialTests.SplitMix(state: seed &+ 7)
        let clip = PixelRect(x0: 40, y0: 30, x1: 80, y1: 60)
        let whole = PixelBuffer(width: 120, height: 90), cut = PixelBuffer(width: 120, height: 90)
        let w = Canvas(target: whole), c = Canvas(target: cut)
        w.clear(.white)
        c.clear(.white)
        for _ in 0..<30 {
            // Sharp zigzags just outside the clip: their miter spikes and square caps reach in.
            var path = Path()
            let side = Int.random(in: 0..<4, using: &rng)
            func point() -> Point {
                let along = Double.random(in: 20...100, using: &rng), off = Double.random(in: 1...14, using: &rng)
                switch side {
                case 0: return Point(x: along, y: 30 - off)
                case 1: return Point(x: along, y: 60 + off)
                case 2: return Point(x: 40 - off, y: along * 0.75)
                default: return Point(x: 80 + off, y: along * 0.75)
                }
            }
            path.move(to: point())
            for _ in 0..<3 { path.line(to: point()) }
            let style = StrokeStyle(width: Double.random(in: 1...6, using: &rng), cap: LineCap.allCases.randomElement(using: &rng)!,
                                    join: LineJoin.allCases.randomElement(using: &rng)!, miterLimit: 10)
            let color = Color(red8: UInt8.random(in: 0...255, using: &rng), green8: 40, blue8: 90, alpha8: 200)
            w.stroke(path, style: style, color: color)
            c.stroke(path, style: style, color: color, clip: clip)
            w.fill(path, color: color)
            c.fill(path, color: color, clip: clip)
        }
        var differing = 0
        for y in clip.y0..<clip.y1 {
            for x in clip.x0..<clip.x1 where whole[x, y] != cut[x, y] { differing += 1 }
        }
        #expect(differing == 0)
    }

    @Test("under a clip mask the fast pipeline stays within two levels of the reference", arguments: 0..<4)
    func differentialWithMask(seed: UInt64) {
        var rng = DifferentialTests.SplitMix(state: seed &+ 99)
        let reference = PixelBuffer(width: 150, height: 100), fast = PixelBuffer(width: 150, height: 100)
        let r = Canvas(target: reference), f = Canvas(target: fast)
        r.pipeline = .reference
        for c in [r, f] {
            c.clear(.white)
            c.clip(to: Path(roundedRect: Rect(x: 12.3, y: 8.7, width: 120, height: 80), cornerRadius: 25))
        }
        for _ in 0..<25 {
            let path = DifferentialTests.randomPath(&rng, width: 150, height: 100)
            let color = Color(red8: UInt8.random(in: 0...255, using: &rng), green8: 10, blue8: 200,
                              alpha8: Bool.random(using: &rng) ? 255 : UInt8.random(in: 1...255, using: &rng))
            r.fill(path, color: color)
            f.fill(path, color: color)
        }
        // Decision 115: the fast core's coverage is within 1/128 of the reference's, two levels.
        #expect(Pixels.worstChannelDifference(reference, fast) <= 2)
    }
}
