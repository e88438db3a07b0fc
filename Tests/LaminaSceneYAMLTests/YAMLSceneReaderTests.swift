import LaminaSceneSyntax
import LaminaSceneYAML
import Testing

/// The YAML reader behind `lamina-scene`: positions as the file has them, and the limits
/// that keep a hostile file from costing more than a small one (decision 107).
@Suite("YAML scene reader")
struct YAMLSceneReaderTests {
    private func read(_ text: String) -> Result<SceneNode, SceneSyntaxError> { YAMLSceneReader.read(text) }

    @Test("a document becomes a tree with each value's line and column (1-based)")
    func positions() throws {
        let node = try read("lamina: 1\nlayers:\n  - name: box\n    opacity: 0.5\n").get()
        #expect(node["lamina"]?.scalar == "1")
        let layer = try #require(node["layers"]?.items?.first)
        #expect(layer["name"]?.scalar == "box" && layer["name"]?.position == SourcePosition(line: 3, column: 11))
        #expect(layer["opacity"]?.position == SourcePosition(line: 4, column: 14))
        #expect(try read("a: ~\n").get()["a"]?.isNull == true)
    }

    @Test("refused: a repeated key, a key that is not a plain name, an empty file, and what passes the limits")
    func refusals() {
        func reason(_ text: String) -> String? {
            if case .failure(let error) = read(text) { return error.description }
            return nil
        }
        #expect(reason("a: 1\na: 2\n")?.contains("twice") == true)
        #expect(reason("[1]: x\n")?.contains("a key must be a plain name") == true)
        #expect(reason("") != nil)
        let deep = String(repeating: "[", count: SceneFileLimits.maximumDepth + 2) + String(repeating: "]", count: SceneFileLimits.maximumDepth + 2)
        #expect(reason(deep)?.contains("nested deeper than \(SceneFileLimits.maximumDepth)") == true)
        // A billion laughs: each alias repeats the one before ten times.
        var laughs = "a: &a [x, x, x, x, x, x, x, x, x, x]\n"
        for i in 1...6 { laughs += "l\(i): &l\(i) [" + Array(repeating: i == 1 ? "*a" : "*l\(i - 1)", count: 10).joined(separator: ", ") + "]\n" }
        #expect(reason(laughs)?.contains("more than \(SceneFileLimits.maximumNodes) nodes") == true)
        #expect(reason("v: " + String(repeating: "x", count: SceneFileLimits.maximumScalarBytes + 1))?.contains("longer than") == true)
    }
}
