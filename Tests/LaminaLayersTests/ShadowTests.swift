import Testing
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
}
