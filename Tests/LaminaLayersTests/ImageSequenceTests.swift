import Testing
@testable import LaminaAnimation
@testable import LaminaGeometry
@testable import LaminaLayers
@testable import LaminaRaster

@Suite("Image sequences and the frame formula (rule 69)")
struct ImageSequenceTests {
    @Test("frame ⌊t·n/d⌋ mod n shows while animating, the still image after a stop; duration defaults to n/30 s")
    func flipBook() throws {
        let frames = (0..<4).map { _ in PixelBuffer(width: 2, height: 2) }
        let still = PixelBuffer(width: 2, height: 2)
        let root = Layer()
        let view = ImageSequenceLayer()
        view.animationImages = frames
        view.image = still
        root.addSublayer(view)
        let tree = LayerTree(root: root)
        tree.commit(at: 0)
        tree.updatePresentation(at: 0)
        view.startAnimating()
        #expect(view.isAnimating)
        tree.commit(at: 10)
        for t in [10.0, 10.03, 10.07, 10.1, 10.135, 10.2] {
            tree.updatePresentation(at: t)
            let expected = Int(((t - 10) * 4 / (4.0 / 30)).rounded(.down)) % 4
            #expect(try #require(view.presentation()).contents === frames[expected], "t = \(t)")
        }
        view.stopAnimating()
        tree.commit(at: 10.3)
        tree.updatePresentation(at: 10.3)
        #expect(try #require(view.presentation()).contents === still && !view.isAnimating)
    }

    @Test("a repeat count plays that many passes, then the still image")
    func repeatCount() throws {
        let frames = (0..<2).map { _ in PixelBuffer(width: 1, height: 1) }
        let root = Layer()
        let view = ImageSequenceLayer()
        view.animationImages = frames
        view.animationDuration = 1
        view.animationRepeatCount = 2
        root.addSublayer(view)
        let tree = LayerTree(root: root)
        tree.commit(at: 0)
        tree.updatePresentation(at: 0)
        view.startAnimating()
        tree.commit(at: 0)
        tree.updatePresentation(at: 1.75)
        #expect(try #require(view.presentation()).contents === frames[1])
        for callback in tree.updatePresentation(at: 2.5) { callback() }
        #expect(try #require(view.presentation()).contents == nil && !view.isAnimating)
    }
}
