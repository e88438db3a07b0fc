import Foundation
import LaminaTestSupport
import Testing
@testable import LaminaGeometry
@testable import LaminaRaster

@Suite("Canvas and blending")
struct CanvasTests {
    @Test("opaque fill replaces, translucent fill blends src-over on premultiplied values")
    func srcOver() {
        let buffer = PixelBuffer(width: 8, height: 8)
        let canvas = Canvas(target: buffer)
        canvas.clear(.black)
        canvas.fill(Path(rect: Rect(x: 0, y: 0, width: 4, height: 8)), color: Color(red: 1, green: 0, blue: 0))
        #expect(buffer[1, 1] == 0xFFFF_0000)
        canvas.fill(Path(rect: Rect(x: 2, y: 0, width: 6, height: 8)), color: Color(red: 1, green: 1, blue: 1, alpha: 0.5))
        // White at 50 % (premultiplied 0x80) over red: R = 0x80 + 0xFF·(1 − 0x80/255) = 0xFF; G = B = 0x80.
        #expect(buffer[3, 1] == 0xFFFF_8080)
        // Over black: 0x80 each.
        #expect(buffer[6, 1] == 0xFF80_8080)
        #expect(buffer[0, 0] == 0xFFFF_0000)
    }

    @Test("edge pixels blend by coverage")
    func coverageBlend() {
        let buffer = PixelBuffer(width: 4, height: 4)
        let canvas = Canvas(target: buffer)
        canvas.clear(.black)
        canvas.fill(Path(rect: Rect(x: 0.5, y: 0, width: 3, height: 4)), color: .white)
        #expect(buffer[0, 0] == 0xFF80_8080)   // 0.5 coverage → 128
        #expect(buffer[1, 0] == 0xFFFF_FFFF)
    }

    @Test("the blend arithmetic rounds like the exact formula, for every alpha and value")
    func blendExhaustive() {
        for alpha in stride(from: 0, through: 255, by: 5) {
            for value in stride(from: 0, through: 255, by: 3) {
                let src = UInt32(alpha) << 24 | UInt32(alpha / 2) << 16
                let dst = 0xFF00_0000 | UInt32(value) << 16 | UInt32(value) << 8 | UInt32(value)
                let out = Blend.over(src, dst)
                let exact = Double(alpha / 2) + Double(value) * (1 - Double(alpha) / 255)
                #expect(abs(Double(out >> 16 & 0xFF) - exact) <= 0.5 + 1e-9)
                #expect(out >> 24 == 255)
            }
        }
    }

    @Test("a path under perspective is clipped at w ≤ 0 instead of wrapping around")
    func perspectiveClip() {
        // Points with y > 500 are behind the eye for m24 = −1/500; the polygon keeps only y < 500.
        var t = Transform3D.identity
        t.m24 = -1.0 / 500
        let polygons = Path(rect: Rect(x: 0, y: 0, width: 10, height: 1000)).projected(through: t, tolerance: 0.1)
        #expect(polygons.count == 1)
        for p in polygons[0] { #expect(p.x.isFinite && p.y.isFinite && p.y >= 0) }
    }

    @Test("PNG round trip keeps every byte")
    func pngRoundTrip() throws {
        let buffer = PixelBuffer(width: 5, height: 3)
        for y in 0..<3 {
            for x in 0..<5 { buffer[x, y] = 0xFF00_0000 | UInt32(x * 40) << 16 | UInt32(y * 70) << 8 | 0x33 }
        }
        let path = NSTemporaryDirectory() + "lamina-png-\(UUID().uuidString).png"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try buffer.writePNG(to: path)
        let image = try RGBAImage.readPNG(from: path)
        #expect(image == RGBAImage(buffer))
        #expect(throws: PNGError.self) { try RGBAImage.readPNG(from: "/nonexistent/lamina.png") }
    }

    /// A small scene checked by eye once and frozen: a circle, an even-odd star with its
    /// hole, a translucent rounded bar over both.
    @Test("shapes golden")
    func shapesGolden() throws {
        let buffer = PixelBuffer(width: 96, height: 64)
        let canvas = Canvas(target: buffer)
        canvas.clear(Color(red8: 0x10, green8: 0x14, blue8: 0x1C))
        canvas.fill(Path(ovalIn: Rect(x: 6.5, y: 8.25, width: 40, height: 40)), color: try Color(hex: "#3B82F6"))
        var star = Path()
        for i in 0..<5 {
            let a = -Double.pi / 2 + Double(i) * 4 * Double.pi / 5
            let p = Point(x: 68 + 24 * cos(a), y: 32 + 24 * sin(a))
            if i == 0 { star.move(to: p) } else { star.line(to: p) }
        }
        star.close()
        canvas.fill(star, color: try Color(hex: "#F59E0B"), rule: .evenOdd)
        var bar = Path()
        bar.move(to: Point(x: 10, y: 44))
        bar.line(to: Point(x: 86, y: 44))
        bar.quad(to: Point(x: 86, y: 56), control: Point(x: 92, y: 50))
        bar.line(to: Point(x: 10, y: 56))
        bar.quad(to: Point(x: 10, y: 44), control: Point(x: 4, y: 50))
        canvas.fill(bar, color: Color(red: 1, green: 1, blue: 1, alpha: 0.6))
        let golden = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden/shapes.png").path
        let mismatch = try Golden.compare(buffer, to: golden)
        #expect(mismatch == nil, "\(mismatch ?? "")")
    }
}
