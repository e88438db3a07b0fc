import Foundation
import Lamina
import Testing

/// `docs/scene-files.md` stays true: its complete example compiles, and it names every
/// property a scene file accepts for every layer kind.
@Suite("Scene file docs")
struct SceneFileDocsTests {
    static let page = GalleryTests.repository + "/docs/scene-files.md"

    @Test("every example that is a whole file (starts with `lamina: 1`) compiles")
    func examplesCompile() throws {
        let text = try String(contentsOfFile: Self.page, encoding: .utf8)
        let blocks = text.components(separatedBy: "```yaml\n").dropFirst().map { $0.components(separatedBy: "```")[0] }
        let files = blocks.filter { $0.hasPrefix("lamina: 1") }
        #expect(!files.isEmpty)
        for file in files { _ = try SceneFileFixture.compile(file) }
    }

    @Test("the page names every animatable key path of every layer kind", arguments: [
        Layer.self, ShapeLayer.self, TextLayer.self, GradientLayer.self, ReplicatorLayer.self, TransformLayer.self,
    ] as [Layer.Type])
    func keyPathsListed(kind: Layer.Type) throws {
        let text = try String(contentsOfFile: Self.page, encoding: .utf8)
        for keyPath in kind.animatableKeyPaths {
            #expect(text.contains("`\(keyPath)`"), "\(kind) \(keyPath)")
        }
    }
}
