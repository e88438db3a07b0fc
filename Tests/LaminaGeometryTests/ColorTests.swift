import Testing
@testable import LaminaGeometry

@Suite("Color")
struct ColorTests {
    @Test("hex forms #RGB, #RRGGBB, #RRGGBBAA")
    func hexForms() throws {
        #expect(try Color(hex: "#f80") == Color(red8: 0xFF, green8: 0x88, blue8: 0x00))
        #expect(try Color(hex: "#3B82F6") == Color(red8: 0x3B, green8: 0x82, blue8: 0xF6))
        #expect(try Color(hex: "#3b82f680") == Color(red8: 0x3B, green8: 0x82, blue8: 0xF6, alpha8: 0x80))
        #expect(try Color(hex: "#3B82F6").hexString == "#3B82F6")
        #expect(try Color(hex: "#3B82F680").hexString == "#3B82F680")
    }

    @Test("bad hex input is a typed error saying what is wrong")
    func hexErrors() {
        #expect(throws: ColorParseError.missingHash) { try Color(hex: "3B82F6") }
        #expect(throws: ColorParseError.badLength(digits: 4)) { try Color(hex: "#1234") }
        #expect(throws: ColorParseError.badLength(digits: 0)) { try Color(hex: "#") }
        #expect(throws: ColorParseError.badDigit(character: "g", offset: 3)) { try Color(hex: "#12g456") }
        #expect(ColorParseError.badDigit(character: "g", offset: 3).description.contains("offset 3"))
    }

    // Rule 66: standard HSV → RGB at the six sector boundaries (hue i/6 → expected RGB).
    static let sectors: [[Double]] = [
        [0, 1, 0, 0], [1, 1, 1, 0], [2, 0, 1, 0], [3, 0, 1, 1], [4, 0, 0, 1], [5, 1, 0, 1], [6, 1, 0, 0],
    ]

    @Test("HSB sectors (rule 66)", arguments: sectors)
    func hsbSectors(row: [Double]) {
        let c = Color(hue: row[0] / 6, saturation: 1, brightness: 1)
        #expect(abs(c.red - row[1]) < 1e-12 && abs(c.green - row[2]) < 1e-12 && abs(c.blue - row[3]) < 1e-12)
    }

    @Test("HSB with v = 0 is black, s = 0 is grey")
    func hsbDegenerate() {
        #expect(Color(hue: 0.3, saturation: 0.7, brightness: 0) == Color(red: 0, green: 0, blue: 0))
        let grey = Color(hue: 0.3, saturation: 0, brightness: 0.4)
        #expect(grey.red == 0.4 && grey.green == 0.4 && grey.blue == 0.4)
        // Mid-sector value: h = 0.25 → sector 1, f = 0.5: (q, v, p) = (0.75·v… with s = 0.5).
        let mid = Color(hue: 0.25, saturation: 0.5, brightness: 0.8)
        #expect(abs(mid.red - 0.8 * (1 - 0.5 * 0.5)) < 1e-12 && abs(mid.green - 0.8) < 1e-12 && abs(mid.blue - 0.4) < 1e-12)
    }

    @Test("hsb round-trips and adjusting by percent moves the component")
    func hsbAdjust() throws {
        let base = try Color(hex: "#3B82F6")
        let (h, s, b) = base.hsb
        let back = Color(hue: h, saturation: s, brightness: b)
        #expect(abs(back.red - base.red) < 1e-12 && abs(back.green - base.green) < 1e-12 && abs(back.blue - base.blue) < 1e-12)
        let darker = base.adjusted(brightnessBy: -20)
        #expect(abs(darker.hsb.brightness - (b - 0.2)) < 1e-12)
        #expect(abs(darker.hsb.hue - h) < 1e-12)
        #expect(base.adjusted(brightnessBy: 200).hsb.brightness == 1)
        #expect(abs(base.adjusted(hueBy: 100).hsb.hue - h) < 1e-9)   // a full turn
    }

    @Test("premultiplied 32-bit pixels")
    func premultipliedPixel() {
        #expect(Color(red: 1, green: 0.5, blue: 0, alpha: 1).premultiplied.pixel32 == 0xFFFF_8000)
        #expect(Color(red: 1, green: 1, blue: 1, alpha: 0.5).premultiplied.pixel32 == 0x8080_8080)
        #expect(Color.clear.premultiplied.pixel32 == 0)
    }
}
