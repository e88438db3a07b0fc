import Foundation
@testable import Lamina
@testable import LaminaSceneFiles
@testable import LaminaRuntime
@testable import LaminaRaster
import LaminaSceneGenerator
import LaminaSceneSyntax
import LaminaTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The scene files' cost model (issue 26, `docs/scene-files.md` Limits): each case is a small
/// file that once cost gigabytes or minutes, or slipped past what the docs promise, and is
/// now refused (or, for dashes, drawn solid) by the compiler every path shares.
@Suite("Scene file cost model")
struct SceneFileCostTests {
    static func error(_ yaml: String) -> String? { SceneFileFixture.error(yaml) }

    @Test("nested replicators are counted by the product of their instances: 256 x 256 x 256 is refused, 100 x 100 is not")
    func replicatorProduct() throws {
        let cube = """
            lamina: 1
            layers:
              - kind: replicator
                instanceCount: 256
                sublayers:
                  - kind: replicator
                    instanceCount: 256
                    sublayers:
                      - {kind: replicator, instanceCount: 256, sublayers: [{bounds: [0, 0, 1, 1]}]}
            """
        #expect(Self.error(cube)?.contains("draws 16843009 layers counting replicator instances; a scene draws at most 20000") == true)
        let square = """
            lamina: 1
            layers:
              - kind: replicator
                instanceCount: 100
                sublayers: [{kind: replicator, instanceCount: 100, sublayers: [{bounds: [0, 0, 1, 1]}]}]
            """
        #expect(try SceneDocument.cost(of: square).drawnLayers == 1 + 100 * (1 + 100))
    }

    @Test("shadows are counted where they are drawn: by property, state or animation, replicator instances included")
    func shadows() throws {
        let replicated = "lamina: 1\nlayers:\n  - {kind: replicator, instanceCount: 9, sublayers: [{shadowOpacity: 0.5}]}\n"
        #expect(Self.error(replicated)?.contains("draws 9 layers with a shadow counting replicator instances") == true)
        let byState = "lamina: 1\nlayers:\n  - {kind: replicator, instanceCount: 9, sublayers: [{name: s}]}\nstates:\n  lit: {s: {shadowOpacity: 1}}\n"
        #expect(Self.error(byState)?.contains("draws 9 layers with a shadow") == true)
        let none = "lamina: 1\nlayers:\n  - {kind: replicator, instanceCount: 9, sublayers: [{shadowOpacity: 0, shadowRadius: 1000}]}\n"
        #expect(try SceneDocument.cost(of: none).shadowedLayers == 0)
        let eight = "lamina: 1\nlayers:\n  - {kind: replicator, instanceCount: 8, sublayers: [{shadowOpacity: 0.5}]}\n"
        #expect(try SceneDocument.cost(of: eight).shadowedLayers == 8)
    }

    @Test("paths are charged the points they flatten into, replicator instances counted; one path is flattened into at most 16,384 points")
    func pathPoints() throws {
        let huge = "lamina: 1\nlayers:\n  - {kind: replicator, instanceCount: 256, sublayers: [{kind: shape, path: 'M 0 0 Q 9e6 9e6 0 9e6 Q -9e6 0 0 0 Q 9e6 9e6 0 9e6 Q -9e6 0 0 0'}]}\n"
        #expect(Self.error(huge)?.contains("draws paths of 4194304 points counting replicator instances") == true)
        let circles = "lamina: 1\nlayers:\n  - {kind: replicator, instanceCount: 100, sublayers: [{kind: shape, path: 'M 0 10 C 0 4.5 4.5 0 10 0 C 15.5 0 20 4.5 20 10 C 20 15.5 15.5 20 10 20 C 4.5 20 0 15.5 0 10 Z'}]}\n"
        #expect(try SceneDocument.cost(of: circles).pathPoints < 20_000)
        var path = Path()
        path.move(to: Point(x: 0, y: 0))
        for i in 0..<40 { path.quad(to: Point(x: 0, y: Double(i + 1) * 1e6), control: Point(x: 9e6, y: Double(i) * 1e6)) }
        #expect(path.flattenedPointCount() > 200_000)
        let points = path.flattened().reduce(0) { $0 + $1.count }
        #expect(points <= Path.maximumFlattenedPoints && points > Path.maximumFlattenedPoints / 2)
    }

    @Test("text shown is bounded with the bindings' values put in: at load, from [bindings], and at set-binding (the running text kept)")
    func textBudget() throws {
        let long = String(repeating: "x", count: 4000)
        var yaml = "lamina: 1\nbindings:\n  label: {string: \"\(long)\"}\nlayers:\n"
        for i in 0..<20 { yaml += "  - {kind: text, string: \"{label}\", position: [0, \(i * 10)]}\n" }
        #expect(Self.error(yaml)?.contains("shows 80000 bytes of text (bindings' values and replicator instances counted); a scene shows at most 65536") == true)

        var small = "lamina: 1\nbindings:\n  label: {string: short}\nlayers:\n"
        for i in 0..<20 { small += "  - {name: t\(i), kind: text, string: \"{label}\", position: [0, \(i * 10)]}\n" }
        let document = try SceneFileFixture.compile(small)
        let rig = try DummyDisplayRig(width: 200, height: 200, refresh: 60, start: 0)
        let runtime = rig.makeRuntime()
        let scene = try #require(try runtime.install(FileScene.self, settings: FileScene.Settings(document: document)) as? FileScene)
        #expect(throws: ConfigError.self) { try scene.setBinding("label", to: .string(String(repeating: "y", count: 4096))) }
        #expect(scene.bindingValues["label"] == .string("short"))
        #expect((scene.layers["t0"] as? TextLayer)?.string == "short")
        try scene.setBinding("label", to: .string(String(repeating: "y", count: 3000)))   // 60,000 bytes: within
        #expect((scene.layers["t19"] as? TextLayer)?.string.count == 3000)
    }

    @Test("template text is substituted in one pass and bounded: a parameter repeated thousands of times with a long argument is refused")
    func templateTextBlowUp() {
        let argument = String(repeating: "a", count: 60_000)
        let repeated = String(repeating: "{p}", count: 2000)
        let yaml = """
            lamina: 1
            templates:
              t: {parameters: {p: ~}, layer: {kind: text, string: "\(repeated)"}}
            layers:
              - {use: t, with: {p: "\(argument)"}}
            """
        #expect(Self.error(yaml)?.contains("text longer than 65536 bytes once its parameters are put in") == true)
        // Braces that are no parameter stay for the text reader: `{{` is a brace, `{other}` a binding.
        let args = ["p": SceneNode(.scalar("P"), at: .init(line: 1, column: 1))]
        #expect((try? SceneFileCompiler.substituteText("{{p}} {p} {q} {p", args)) == "{{p}} P {q} {p")
    }

    @Test("template uses are bounded by the nodes they build: big arguments placed many times are refused")
    func templateNodeBlowUp() {
        let list = "[" + Array(repeating: "1", count: 3000).joined(separator: ", ") + "]"
        let keys = (0..<100).map { "k\($0): $p" }.joined(separator: ", ")
        let yaml = """
            lamina: 1
            templates:
              t: {parameters: {p: ~}, layer: {\(keys)}}
            layers:
              - {use: t, with: {p: \(list)}}
            """
        #expect(Self.error(yaml)?.contains("template uses build more than 200000 nodes") == true)
    }

    @Test("counts the docs name: templates, parameters and animators are bounded")
    func counts() {
        let templates = "lamina: 1\ntemplates:\n" + (0...256).map { "  t\($0): {layer: {}}\n" }.joined()
        #expect(Self.error(templates)?.contains("more than 256 templates") == true)
        let parameters = "lamina: 1\ntemplates:\n  t:\n    layer: {}\n    parameters: {" + (0...64).map { "p\($0): 1" }.joined(separator: ", ") + "}\n"
        #expect(Self.error(parameters)?.contains("more than 64 parameters") == true)
        let animators = "lamina: 1\nlayers: [{name: a}]\nstates: {s: {a: {opacity: 0}}}\nanimators:\n"
            + (0...256).map { "  m\($0): {duration: 1, state: s}\n" }.joined()
        #expect(Self.error(animators)?.contains("more than 256 animators") == true)
    }

    @Test("a mapping's keys are looked up by index: a key written twice in a hand-made tree is an error")
    func keysByIndex() {
        let at = SourcePosition(line: 1, column: 1)
        let key = SceneNode(.scalar("a"), at: at)
        let tree = SceneNode(.mapping([.init(key: key, value: key), .init(key: key, value: key)]), at: at)
        #expect(throws: ConfigError.self) { try SceneFields(tree, path: "x", file: "f.yaml") }
    }

    static func headerOnlyPNG(width: UInt32, height: UInt32) -> [UInt8] { ImageFixtures.headerOnlyPNG(width: width, height: height) }

    @Test("images: the size is refused from the header before decoding; all images share one pixel budget; a FIFO is refused, not waited on")
    func images() throws {
        // 8192² in the header, no pixel data: refused for its size, not for ending early.
        #expect(throws: PNGError.self) { try RGBAImage.decodePNG(Self.headerOnlyPNG(width: 8192, height: 8192), maximumPixels: 4096 * 4096) }
        do {
            _ = try RGBAImage.decodePNG(Self.headerOnlyPNG(width: 8192, height: 8192), maximumPixels: 4096 * 4096)
        } catch {
            #expect(error.reason == "8192x8192 is more than the 16777216 pixels allowed")
        }
        let folder = try SceneFileFixture.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try RGBAImage(width: 4096, height: 2048, bytes: [UInt8](repeating: 0, count: 4096 * 2048 * 4))
            .writePNG(to: folder + "/half.png", compression: 1)
        try Data(Self.headerOnlyPNG(width: 4096, height: 4096)).write(to: URL(fileURLWithPath: folder + "/full.png"))
        let two = "lamina: 1\nlayers:\n  - {contents: half.png}\n  - {contents: full.png}\n"
        do {
            _ = try SceneFileFixture.compile(two, in: folder)
            Issue.record("two images over the budget compiled")
        } catch {
            #expect("\(error)".contains("4096x4096 is more than the 8388608 pixels allowed (the scene's images may have 16777216 pixels in all; 8388608 are used)"))
        }
        mkfifo(folder + "/pipe.png", 0o644)
        do {
            _ = try SceneFileFixture.compile("lamina: 1\nlayers:\n  - {contents: pipe.png}\n", in: folder)
            Issue.record("a FIFO image compiled")
        } catch {
            #expect("\(error)".contains("is a FIFO, not a regular file"))
        }
    }

    @Test("a dash pattern that would cut a stroke into more than 10,000 dashes draws it solid, within budget it dashes")
    func dashCap() {
        let line: [Polylines.Subpath] = [([Point(x: 0, y: 0), Point(x: 1e6, y: 0)], false)]
        let solid = Polylines.dash(line, pattern: [0.01, 0.01], phase: 0)
        #expect(solid.count == 1 && solid[0].points == line[0].points)
        let dashed = Polylines.dash(line, pattern: [100, 100], phase: 0)          // 5,000 dashes
        #expect(dashed.count == 5000)
        // Drawn through a layer: the daemon's frame finishes, the line is solid.
        let target = PixelBuffer(width: 200, height: 20)
        let canvas = Canvas(target: target)
        var path = Path()
        path.move(to: Point(x: -1e7, y: 10))
        path.line(to: Point(x: 1e7, y: 10))
        canvas.stroke(path, style: StrokeStyle(width: 4, dashPattern: [0.01, 0.01]), color: Color(red: 1, green: 0, blue: 0))
        #expect((0..<200).filter { target[$0, 10] != 0xFFFF_0000 }.isEmpty)
    }
}

extension SceneDocument {
    /// The cost of `yaml` compiled.
    static func cost(of yaml: String) throws -> SceneCost { try SceneFileFixture.compile(yaml).cost }
}
