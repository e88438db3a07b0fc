import Foundation
import Lamina
@testable import LaminaSceneFiles
@testable import LaminaRuntime
import LaminaSceneSyntax
import LaminaSceneYAML
import LaminaTestSupport
import Testing

/// Every problem in a scene file is one line: `file:line:column`, the element's path and the
/// reason; unknown keys are errors; sizes, counts and nesting are bounded (issue 15).
@Suite("Scene file errors")
struct SceneFileErrorTests {
    static let layer = """
        lamina: 1
        layers:
          - name: box
            bounds: [0, 0, 10, 10]

        """

    @Test("each mistake names file:line:column, the element's path and the reason", arguments: [
        ("layers:\n  - bounds: [0, 0, 10, 10]\n", "scene.yaml:1:1: a scene file starts with `lamina: 1`"),
        ("lamina: 2\n", "scene.yaml:1:9: lamina: this Lamina reads scene files of version 1"),
        ("lamina: 1\nlayer: []\n", "scene.yaml:2:1: layer: unknown key (did you mean 'layers'?)"),
        (layer + "    backgroundColour: \"#FF0000\"\n",
         "scene.yaml:5:5: layers[0](box).backgroundColour: a layer layer has no property 'backgroundColour' (did you mean 'backgroundColor'?)"),
        (layer + "    backgroundColor: \"#12\"\n",
         "scene.yaml:5:22: layers[0](box).backgroundColor: '#12' is not a colour: a colour needs 3, 6 or 8 hex digits"),
        (layer + "    opacity: lots\n", "scene.yaml:5:14: layers[0](box).opacity: 'lots' is not a number"),
        (layer + "    position: [1, 2, 3]\n", "scene.yaml:5:15: layers[0](box).position: expected a point [x, y] (2 numbers), found 3"),
        (layer + "    path: \"M 0 0 L 10\"\n", "layers[0](box).path: a layer layer has no property 'path'"),
        (layer.replacingOccurrences(of: "  - name: box\n", with: "  - name: box\n    kind: shape\n") + "    path: \"M 0 0 L 10\"\n",
         "scene.yaml:6:11: layers[0](box).path: SVG path data"),
        (layer + "    fillColor: \"#FFFFFF\"\n", "(it belongs to kind shape)"),
        (layer + "    sublayers:\n      - kind: sphere\n", "scene.yaml:6:15: layers[0](box).sublayers[0].kind: 'sphere' is not one of layer, shape, text, gradient, replicator, transform"),
        (layer + "states:\n  big:\n    boxx: {opacity: 1}\n", "scene.yaml:7:5: states.big.boxx: no layer is named 'boxx' (did you mean 'box'?)"),
        (layer + "states:\n  big:\n    box: {string: hi}\n", "scene.yaml:7:11: states.big.box.string: a state sets animatable properties"),
        (layer + "bindings:\n  level: {number: 1}\n", nil),
        (layer + "    opacity: $level\nbindings:\n  level: {string: one}\n",
         "layers[0](box).opacity: binding 'level' is a string; this property needs a number"),
        (layer + "    opacity: $nothing\n", "scene.yaml:5:14: layers[0](box).opacity: no binding is named 'nothing'"),
        (layer + "gestures:\n  - tap: box\n", "scene.yaml:6:5: gestures[0]: a tap does one thing: goTo, toggle, run or show"),
        (layer + "gestures:\n  - tap: box\n    goTo: big\n", "scene.yaml:7:11: gestures[0].goTo: no state is named 'big'"),
        (layer + "transitions:\n  - to: '*'\n    spring: {dampingRatio: 0.5}\n",
         "scene.yaml:7:13: transitions[0].spring: a spring is {dampingRatio, duration}, {duration, bounce} or {mass, stiffness, damping}"),
        (layer + "    animations:\n      spin: {keyPath: transform.rotation.q, to: 1}\n",
         "scene.yaml:6:23: layers[0](box).animations.spin.keyPath: a layer layer has no animatable property 'transform.rotation.q'"),
        ("lamina: 1\ntemplates:\n  b: {parameters: {label: ~}, layer: {kind: text, string: '{label}'}}\nlayers:\n  - use: b\n",
         "scene.yaml:5:10: layers[0].with: template 'b' needs a value for its parameter 'label'"),
        ("lamina: 1\ntemplates:\n  b: {layer: {kind: text}}\nlayers:\n  - {use: b, with: {colour: red}}\n",
         "scene.yaml:5:21: layers[0].with.colour: template 'b' has no parameter 'colour'"),
        ("lamina: 1\nlayers:\n  - {name: a}\n  - {name: a}\n", "scene.yaml:4:12: layers[1](a).name: two layers are named 'a'"),
        ("lamina: 1\nlayers: [\n", "scene.yaml:3:1: did not find expected node content"),
        ("lamina: 1\nlamina: 1\n", "scene.yaml:1:1: keys written twice: lamina"),
        ("lamina: 1\nlayers:\n  - name: a\n   bounds: [0, 0, 1, 1]\n", "scene.yaml:4:"),
    ] as [(String, String?)])
    func rejected(yaml: String, expected: String?) {
        let error = SceneFileFixture.error(yaml)
        if let expected {
            #expect(error?.contains(expected) == true, "got: \(error ?? "no error")")
        } else {
            #expect(error == nil, "got: \(error ?? "")")
        }
    }

    @Test("an image path may not leave the scene file's folder, by .. or by a symbolic link")
    func imagesConfined() throws {
        let outer = try SceneFileFixture.folder()
        let inner = outer + "/scene"
        try FileManager.default.createDirectory(atPath: inner, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: outer) }
        let png = Self.anyPNG()
        try FileManager.default.copyItem(atPath: png, toPath: outer + "/outside.png")
        try FileManager.default.copyItem(atPath: png, toPath: inner + "/inside.png")
        try FileManager.default.createSymbolicLink(atPath: inner + "/link.png", withDestinationPath: outer + "/outside.png")
        func load(_ image: String) -> String? {
            do {
                _ = try SceneFileFixture.compile("lamina: 1\nlayers:\n  - contents: \(image)\n", in: inner)
                return nil
            } catch {
                return "\(error)"
            }
        }
        #expect(load("inside.png") == nil)
        #expect(load("../outside.png")?.contains("scene.yaml:3:15: layers[0].contents: '../outside.png' is outside the scene file's folder") == true)
        #expect(load("link.png")?.contains("'link.png' is outside the scene file's folder") == true)
        #expect(load("/etc/passwd")?.contains("an image is named by a path relative to the scene file's folder") == true)
        #expect(load("missing.png")?.contains("'missing.png' does not exist") == true)
    }

    /// A PNG the repository holds (a golden).
    static func anyPNG() -> String {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().path
        return root + "/Golden/gallery/property-animator.png"
    }

    @Test("hostile files are stopped by the bounds: alias bombs, deep nesting, template explosions, huge counts")
    func bounded() {
        // A billion laughs: each level doubles nine times.
        var bomb = "lamina: 1\nx0: &a0 [1, 2, 3, 4, 5, 6, 7, 8, 9]\n"
        for i in 1...9 { bomb += "x\(i): &a\(i) [" + Array(repeating: "*a\(i - 1)", count: 9).joined(separator: ", ") + "]\n" }
        #expect(SceneFileFixture.error(bomb)?.contains("more than \(SceneFileLimits.maximumNodes) nodes") == true)
        let deep = "lamina: 1\nx: " + String(repeating: "[", count: 60) + String(repeating: "]", count: 60) + "\n"
        #expect(SceneFileFixture.error(deep)?.contains("nested deeper than \(SceneFileLimits.maximumDepth) levels") == true)
        // Templates of ten uses of templates of ten...: 10^4 layers asked for.
        var explosion = "lamina: 1\ntemplates:\n  t0: {layer: {}}\n"
        for i in 1...4 {
            explosion += "  t\(i): {layer: {sublayers: [" + Array(repeating: "{use: t\(i - 1)}", count: 10).joined(separator: ", ") + "]}}\n"
        }
        explosion += "layers:\n  - use: t4\n"
        #expect(SceneFileFixture.error(explosion)?.contains("more than 2000 layers") == true)
        let selfUse = "lamina: 1\ntemplates:\n  t: {layer: {sublayers: [{use: t}]}}\nlayers:\n  - use: t\n"
        #expect(SceneFileFixture.error(selfUse)?.contains("more than 8 deep") == true)
        let replicas = "lamina: 1\nlayers:\n  - {kind: replicator, instanceCount: 100000}\n"
        #expect(SceneFileFixture.error(replicas)?.contains("instanceCount: '100000' is not a whole number in 0…256") == true)
        let huge = "lamina: 1\nlayers:\n  - {opacity: 1e300}\n"
        #expect(SceneFileFixture.error(huge)?.contains("1e300 is beyond ±10⁷") == true)
    }

    @Test("compiling past its time limit is refused with the limit named (the last guard behind the cost model)")
    func timeLimit() {
        // A limit already past when compiling starts: the first check refuses, whatever the clock reads.
        let scene = "lamina: 1\nlayers:\n  - name: box\n    bounds: [0, 0, 10, 10]\n"
        #expect(SceneFileFixture.error(scene, timeLimit: -1)?.contains("compiling took longer than -1 s: the scene is too costly") == true)
        #expect(SceneFileFixture.error(scene) == nil)
    }

    @Test("the helper is looked for beside the program, then in the package's libexec folder")
    func helperPlaces() {
        #expect(SceneFiles.helperCandidates(programFolder: "/usr/bin")
                == ["/usr/bin/lamina-scene", "/usr/libexec/lamina/lamina-scene"])
        #expect(SceneFiles.helperCandidates(programFolder: "/opt/kiosk/bin")
                == ["/opt/kiosk/bin/lamina-scene", "/opt/kiosk/libexec/lamina/lamina-scene"])
    }

    @Test("the helper process reads a file for the daemon; its syntax errors keep their line and column")
    func throughTheHelper() throws {
        let folder = try SceneFileFixture.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try #require(SceneFiles.helperPath != nil, "lamina-scene is built beside the tests")
        let good = folder + "/good.yaml", bad = folder + "/bad.yaml"
        try (Self.layer + "    opacity: 0.5\n").write(toFile: good, atomically: true, encoding: .utf8)
        try "lamina: 1\nlayers: [{name: a}\n".write(toFile: bad, atomically: true, encoding: .utf8)
        let document = try SceneFiles.load(path: good)
        #expect(document.layerCount == 1)
        #expect(throws: ConfigError.self) { try SceneFiles.load(path: bad) }
        do {
            _ = try SceneFiles.load(path: bad)
        } catch {
            #expect("\(error)".hasPrefix("\(bad):3:1: "), "\(error)")
        }
        do {
            _ = try SceneFiles.load(path: folder + "/none.yaml")
        } catch {
            #expect("\(error)".contains("none.yaml: cannot be read"), "\(error)")
        }
    }
}
