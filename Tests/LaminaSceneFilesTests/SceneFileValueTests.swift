import Foundation
@testable import LaminaSceneFiles
import LaminaSceneSyntax
import LaminaSceneYAML
import LaminaTestSupport
import Testing

/// Numbers, colours, names and text as `docs/scene-files.md` writes them, and nothing else
/// (issue 26: each refused case here was once accepted).
@Suite("Scene file values as documented")
struct SceneFileValueTests {
    static func error(_ yaml: String) -> String? { SceneFileFixture.error(yaml) }
    static func layer(_ body: String) -> String { "lamina: 1\nlayers:\n  - {\(body)}\n" }

    @Test("numbers are decimals: hex, hex floats, inf, nan, spaces and other scripts' digits are refused", arguments: [
        "0x10", "0x1p3", "inf", "nan", "-inf", " 1", "1 ", "１", "1e", "e3", ".", "+", "1_000", "0b1",
    ])
    func notDecimal(_ text: String) {
        #expect(Self.error(Self.layer("opacity: '\(text)'"))?.contains("is not a number (write 12, -0.5, 1e3 or 90deg)") == true, "\(text)")
    }

    @Test("decimals as the docs write them are read", arguments: [("12", 12.0), ("-0.5", -0.5), ("1e3", 1000), ("+2.5E-1", 0.25), (".5", 0.5), ("5.", 5)])
    func decimal(_ text: String, _ value: Double) {
        #expect(SceneValueReader.isDecimal(Substring(text)))
        #expect(Double(text) == value)
    }

    @Test("colours take ASCII hex digits only")
    func asciiColours() {
        #expect(Self.error(Self.layer("backgroundColor: \"#ＦＦＦ\""))?.contains("is not a colour") == true)
        #expect(Self.error(Self.layer("backgroundColor: \"#fff\"")) == nil)
        #expect(Self.error(Self.layer("backgroundColor: \"\"")) != nil)               // "" is not `none`
        #expect(Self.error(Self.layer("backgroundColor: none")) == nil)
    }

    @Test("a property with nothing written is an error; after `#` it says the colour became a YAML comment (issue 30)")
    func nothingWritten() {
        let commented = "lamina: 1\nlayers:\n  - kind: shape\n    fillColor: #22D3EE\n"
        let message = Self.error(commented)
        #expect(message?.contains("scene.yaml:4:") == true && message?.contains("YAML comment, so quote it") == true, "\(message ?? "")")
        let empty = Self.error("lamina: 1\nlayers:\n  - kind: shape\n    fillColor: ~\n")
        #expect(empty?.contains("nothing is written where a colour is needed (write none for no colour)") == true, "\(empty ?? "")")
        #expect(empty?.contains("YAML comment") == false)
        #expect(Self.error("lamina: 1\nlayers:\n  - opacity:   # half\n") != nil)
        #expect(Self.error("lamina: 1\nlayers:\n  - kind: shape\n    fillColor: \"#22D3EE\"  # quoted\n") == nil)
        #expect(Self.error("lamina: 1\nstates:\n  rest: # nothing set\n") == nil)        // not a property: nothing is fine
    }

    @Test("a property's own range is named: text up to 2048 px, lengths not negative; the number limit names itself (issue 30)")
    func propertyRanges() {
        #expect(Self.error(Self.layer("kind: text, fontSize: 5000"))?.contains("5000 is outside fontSize's 0…2048") == true)
        #expect(Self.error(Self.layer("kind: text, fontSize: 2048")) == nil)
        #expect(Self.error(Self.layer("kind: text, fontSize: 1e12"))?.contains("beyond ±10⁷, the largest number a scene file may hold") == true)
        #expect(Self.error(Self.layer("borderWidth: -1"))?.contains("outside borderWidth's 0…") == true)
        #expect(Self.error("lamina: 1\nlayers:\n  - name: t\n    kind: text\nstates:\n  big:\n    t: {fontSize: 4000}\n")?.contains("fontSize's 0…2048") == true)
        #expect(Self.error("lamina: 1\nlayers:\n  - kind: text\n    animations:\n      a: {keyPath: fontSize, from: 10, to: 3000}\n")?.contains("fontSize's 0…2048") == true)
    }

    @Test("a computed transform and path coordinates stay within 10⁷, also when operations and relative moves add up")
    func computedLimits() {
        #expect(Self.error(Self.layer("transform: [scale: 10000, scale: 10000]"))?.contains("the transform so far has an entry beyond ±10⁷") == true)
        #expect(Self.error(Self.layer("transform: [scale: 1000, translate: [100000, 0]]"))?.contains("beyond ±10⁷") == true)
        #expect(Self.error(Self.layer("transform: [scale: 1000, translate: [1000, 0]]")) == nil)
        #expect(Self.error(Self.layer("kind: shape, path: 'M 0 0 L 1e300 0'"))?.contains("a coordinate beyond ±10000000") == true)
        #expect(Self.error(Self.layer("kind: shape, path: 'M 9e6 0 l 9e6 0'"))?.contains("a coordinate beyond ±10000000") == true)
        #expect(Self.error(Self.layer("kind: shape, path: 'M 9e6 0 l -9e6 0'")) == nil)
    }

    @Test("key times run from 0 to 1; gradient locations are one per colour and rise")
    func keyTimesAndLocations() {
        let animation = "lamina: 1\nlayers:\n  - name: a\n    animations:\n      pulse: {keyPath: opacity, values: [0, 1], keyTimes: KT, duration: 1}\n"
        #expect(Self.error(animation.replacingOccurrences(of: "KT", with: "[0.2, 1]"))?.contains("key times rise from 0 (the first) to 1 (the last)") == true)
        #expect(Self.error(animation.replacingOccurrences(of: "KT", with: "[0, 0.9]"))?.contains("key times rise from 0") == true)
        #expect(Self.error(animation.replacingOccurrences(of: "KT", with: "[0, 1]")) == nil)
        let gradient = Self.layer("kind: gradient, colors: ['#000', '#fff'], locations: LOC")
        #expect(Self.error(gradient.replacingOccurrences(of: "LOC", with: "[0, 0.5, 1]"))?.contains("one location per colour: 3 locations, 2 colours") == true)
        #expect(Self.error(gradient.replacingOccurrences(of: "LOC", with: "[1, 0]"))?.contains("locations rise within 0…1") == true)
        #expect(Self.error(gradient.replacingOccurrences(of: "LOC", with: "[0, 1]")) == nil)
        #expect(Self.error(Self.layer("kind: gradient, locations: [0, 1]"))?.contains("one location per colour: 2 locations, 0 colours") == true)
    }

    @Test("text: a lone '}' is refused, '}}' and '{{' write braces")
    func braces() {
        #expect(Self.error(Self.layer("kind: text, string: 'a } b'"))?.contains("'}' closes no binding (write }} for a brace)") == true)
        #expect(Self.error(Self.layer("kind: text, string: 'a {{b}} c'")) == nil)
    }

    @Test("\"\" is a value, not nothing: a state of \"\" is refused, a template's \"\" default is empty text, ~ is required")
    func emptyIsAValue() throws {
        let state = "lamina: 1\nlayers: [{name: a}]\nstates:\n  rest: STATE\n"
        #expect(Self.error(state.replacingOccurrences(of: "STATE", with: "\"\""))?.contains("expected a mapping of keys, found a scalar") == true)
        #expect(Self.error(state.replacingOccurrences(of: "STATE", with: "~")) == nil)
        let template = "lamina: 1\ntemplates:\n  t: {parameters: {label: DEFAULT}, layer: {kind: text, string: \"[{label}]\"}}\nlayers:\n  - {use: t, name: x}\n"
        #expect(Self.error(template.replacingOccurrences(of: "DEFAULT", with: "~"))?.contains("template 't' needs a value for its parameter 'label'") == true)
        let document = try SceneFileFixture.compile(template.replacingOccurrences(of: "DEFAULT", with: "\"\""))
        #expect(document.layers[0].text?.text { _ in nil } == "[]")
    }

    @Test("names are bounded in bytes as well as characters: one grapheme of 10 KB is refused")
    func nameBytes() {
        let grapheme = "a" + String(repeating: "\u{301}", count: 5000)
        #expect(grapheme.count == 1)
        #expect(Self.error(Self.layer("name: \"\(grapheme)\""))?.contains("text longer than 256 bytes") == true)
        let key = "a" + String(repeating: "\u{301}", count: 300)            // YAML keys are at most 1024 characters
        #expect(key.count == 1)
        #expect(Self.error("lamina: 1\nstates:\n  \"\(key)\": ~\n")?.contains("at most 64 characters and 256 bytes long") == true)
        #expect(Self.error("lamina: 1\nbindings:\n  \"\(key)\": {number: 1}\n")?.contains("at most 64 characters and 256 bytes long") == true)
        #expect(Self.error(Self.layer("name: \"\(String(repeating: "é", count: 64))\"")) == nil)
    }

    @Test("a UTF-8 byte-order mark, which editors write, is accepted")
    func byteOrderMark() throws {
        guard case .success(let node) = YAMLSceneReader.read("\u{FEFF}lamina: 1\nlayers: [{name: a}]\n") else {
            Issue.record("a file with a BOM was refused")
            return
        }
        #expect(try SceneFiles.compile(node, file: "bom.yaml").layerCount == 1)
    }

    @Test("null and \"\" cross the helper's pipe as different nodes")
    func nullOnTheWire() throws {
        let at = SourcePosition(line: 2, column: 3)
        for node in [SceneNode.null(at: at), SceneNode(.scalar(""), at: at)] {
            let back = try JSONDecoder().decode(SceneNode.self, from: JSONEncoder().encode(node))
            #expect(back == node && back.isNull == node.isNull)
        }
    }
}
