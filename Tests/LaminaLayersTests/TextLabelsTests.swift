import Testing
@testable import LaminaAnimation
@testable import LaminaGeometry
@testable import LaminaLayers
@testable import LaminaRaster

/// Text that does not change is not shaped or laid out again, however often it is drawn.
@Suite("Unchanged labels")
struct TextLabelsTests {
    @Test("a screen of 1,000 labels draws again, a layer moved between the frames, without shaping any text again")
    func thousandLabels() throws {
        let font = try Font()
        let tree = LayerTree(root: Layer())
        let root = tree.root
        root.bounds = Rect(x: 0, y: 0, width: 1920, height: 1080)
        for k in 0..<1000 {
            let label = TextLayer()
            label.font = font
            label.fontSize = 14
            label.string = "Sensor \(k): 21.\(k % 10) °C"
            label.bounds = Rect(x: 0, y: 0, width: 180, height: 20)
            label.anchorPoint = .zero
            label.position = Point(x: Double(k % 10) * 190, y: Double(k / 10) * 10.8)
            root.addSublayer(label)
        }
        let buffer = PixelBuffer(width: 1920, height: 1080)
        let renderer = Renderer()
        func frame(at time: Double) throws {
            tree.commit(at: time)
            tree.updatePresentation(at: time)
            renderer.render(try #require(root.presentation()), into: Canvas(target: buffer), background: .black)
        }
        try frame(at: 0)
        let shaped = font.paragraphsShaped
        #expect(shaped == 1000)
        root.sublayers[0].position = Point(x: 5, y: 5)
        try frame(at: 1)
        try frame(at: 2)
        #expect(font.paragraphsShaped == shaped)
    }
}
