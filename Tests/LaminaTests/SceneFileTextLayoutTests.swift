import Lamina
@testable import LaminaSceneFiles
import LaminaLayers
import LaminaRaster
import LaminaTestSupport
import Testing

/// A text layer's line layout in scene files: `truncation`, `lines` and `lineHeight` reach
/// the layer; values outside their ranges are refused with the file, line and field.
@Suite("Scene file text layout")
struct SceneFileTextLayoutTests {
    func textLayer(_ fields: String) throws -> TextLayer? {
        let yaml = "lamina: 1\nlayers:\n  - {name: label, kind: text, bounds: [0, 0, 160, 400], fontSize: 20, wrapped: true, "
            + "string: \"one two three four five six seven eight nine ten\", \(fields)}\n"
        let document = try SceneFileFixture.compile(yaml)
        let rig = try DummyDisplayRig(width: 320, height: 480, refresh: 60, start: 0)
        let scene = try rig.makeRuntime().install(FileScene.self, settings: FileScene.Settings(document: document))
        return scene.layer(named: "label") as? TextLayer
    }

    @Test("truncation, a line limit and a line height reach the layer and its height")
    func applied() throws {
        let layer = try #require(try textLayer("truncation: middle, lines: 2, lineHeight: 1.5"))
        #expect(layer.truncationMode == .middle && layer.numberOfLines == 2 && layer.lineHeightMultiple == 1.5)
        let metrics = try Font().lineMetrics(size: 20)
        #expect(abs(layer.textHeight - 2 * 1.5 * (metrics.ascender + metrics.descender)) < 1e-9)
        let unlimited = try #require(try textLayer("truncatesEnd: true"))
        #expect(unlimited.truncationMode == .end && unlimited.numberOfLines == 0)
        #expect(unlimited.textHeight > 2 * (metrics.ascender + metrics.descender))
    }

    @Test("values outside their ranges are refused with the file, line, field and reason", arguments: [
        ("lines: -1", "layers[0](label).lines"),
        ("lines: 10001", "layers[0](label).lines"),
        ("lines: 1.5", "layers[0](label).lines"),
        ("truncation: sideways", "layers[0](label).truncation: 'sideways'"),
        ("lineHeight: 0.1", "layers[0](label).lineHeight"),
        ("lineHeight: 9", "layers[0](label).lineHeight"),
    ])
    func refused(fields: String, expected: String) throws {
        do {
            _ = try textLayer(fields)
            Issue.record("\(fields) was accepted")
        } catch {
            #expect("\(error)".contains("scene.yaml:3:"), "\(error)")
            #expect("\(error)".contains(expected), "\(error)")
        }
    }
}
