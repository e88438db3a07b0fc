import Foundation
import LaminaSceneSyntax
import Testing

/// The scene file's syntax tree and the compact wire form the helper prints (`{"l":…,"c":…,
/// "s"|"a"|"m"|"n":…}`), checked against JSON written by hand.
@Suite("Scene syntax tree")
struct SceneNodeTests {
    private static let at = SourcePosition(line: 1, column: 1)

    @Test("lookups: a mapping's value by key, items, scalars, kinds and the node count")
    func lookups() {
        let name = SceneNode(.scalar("box"), at: SourcePosition(line: 2, column: 9))
        let bounds = SceneNode(.sequence([SceneNode(.scalar("0"), at: Self.at), SceneNode(.scalar("10"), at: Self.at)]), at: Self.at)
        let layer = SceneNode(.mapping([.init(key: SceneNode(.scalar("name"), at: Self.at), value: name),
                                        .init(key: SceneNode(.scalar("bounds"), at: Self.at), value: bounds)]), at: Self.at)
        #expect(layer["name"]?.scalar == "box" && layer["name"]?.position.description == "2:9")
        #expect(layer["bounds"]?.items?.count == 2 && layer["missing"] == nil)
        #expect(layer.kindName != name.kindName && name.items == nil && bounds.entries == nil)
        #expect(layer.nodeCount == 1 + 2 + 2 + 2)                  // itself, two keys, the name, the list and its two items
        #expect(SceneNode.null(at: Self.at).isNull && SceneNode.null(at: Self.at).scalar == "")
    }

    @Test("the wire form: encoded as written by hand, decoded back equal; a malformed entry is refused")
    func wireForm() throws {
        let tree = SceneNode(.mapping([.init(key: SceneNode(.scalar("a"), at: SourcePosition(line: 1, column: 1)),
                                             value: SceneNode(.sequence([.null(at: SourcePosition(line: 1, column: 5))]),
                                                              at: SourcePosition(line: 1, column: 4)))]),
                             at: SourcePosition(line: 1, column: 1))
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let json = String(decoding: try encoder.encode(tree), as: UTF8.self)
        #expect(json == #"{"c":1,"l":1,"m":[[{"c":1,"l":1,"s":"a"},{"a":[{"c":5,"l":1,"n":true}],"c":4,"l":1}]]}"#)
        #expect(try JSONDecoder().decode(SceneNode.self, from: Data(json.utf8)) == tree)
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(SceneNode.self, from: Data(#"{"l":1,"c":1,"m":[[{"l":1,"c":1,"s":"k"}]]}"#.utf8))
        }
        let error = SceneSyntaxError(at: SourcePosition(line: 3, column: 7), "a key must be a plain name")
        #expect(error.description == "3:7: a key must be a plain name")
        #expect(SceneSyntaxError(at: nil, "the file is empty").description == "the file is empty")
    }
}
