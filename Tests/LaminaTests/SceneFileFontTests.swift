import Foundation
import Lamina
@testable import LaminaSceneFiles
import LaminaLayers
import LaminaTestSupport
import Testing

/// A text layer's `font` in scene files: an installed family (fontconfig) with an optional
/// weight, or a font file beside the scene file; anything else is refused with its line.
@Suite("Scene file fonts")
struct SceneFileFontTests {
    func textLayer(font: String, in folder: String? = nil) throws -> TextLayer? {
        let yaml = "lamina: 1\nlayers:\n  - {name: label, kind: text, string: \"مرحبا\", fontSize: 30, font: \"\(font)\"}\n"
        let document = try SceneFileFixture.compile(yaml, in: folder)
        let rig = try DummyDisplayRig(width: 320, height: 120, refresh: 60, start: 0)
        let scene = try rig.makeRuntime().install(FileScene.self, settings: FileScene.Settings(document: document))
        return scene.layer(named: "label") as? TextLayer
    }

    @Test("a family, a family at a weight, and a file beside the scene file")
    func named() throws {
        #expect(try textLayer(font: "Noto Sans Arabic")?.font?.path.hasSuffix("/NotoSansArabic-Regular.ttf") == true)
        #expect(try textLayer(font: "DejaVu Sans:bold")?.font?.path.hasSuffix("/DejaVuSans-Bold.ttf") == true)
        let folder = try SceneFileFixture.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.copyItem(atPath: "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf", toPath: folder + "/Mono.ttf")
        #expect(try textLayer(font: "Mono.ttf", in: folder)?.font?.path == folder + "/Mono.ttf")
    }

    @Test("what cannot be a face is refused with the file, line, field and reason", arguments: [
        ("No Such Family", "layers[0](label).font: family \"No Such Family\": no face of this family is installed"),
        ("DejaVu Sans:heavy", "layers[0](label).font: 'heavy' is not a weight (thin, extraLight, light, regular, medium, semibold, bold, extraBold, black)"),
        ("../outside.ttf", "layers[0](label).font: '../outside.ttf' is outside the scene file's folder"),
        ("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", "a font file is named by a path relative to the scene file's folder"),
        ("missing.ttf", "'missing.ttf' does not exist"),
        ("", "family \"\": a family name has 1…256 bytes and no NUL"),
    ])
    func refused(font: String, expected: String) throws {
        let outer = try SceneFileFixture.folder()
        defer { try? FileManager.default.removeItem(atPath: outer) }
        let inner = outer + "/scene"
        try FileManager.default.createDirectory(atPath: inner, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", toPath: outer + "/outside.ttf")
        do {
            _ = try textLayer(font: font, in: inner)
            Issue.record("\(font) was accepted")
        } catch {
            #expect("\(error)".contains("scene.yaml:3:"), "\(error)")
            #expect("\(error)".contains(expected), "\(error)")
        }
    }

    @Test("a file named like a font that is not one is refused by FreeType, named")
    func notAFont() throws {
        let folder = try SceneFileFixture.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try "not a font".write(toFile: folder + "/fake.ttf", atomically: false, encoding: .utf8)
        do {
            _ = try textLayer(font: "fake.ttf", in: folder)
            Issue.record("a text file was read as a font")
        } catch {
            #expect("\(error)".contains("layers[0](label).font: \(folder)/fake.ttf: FreeType cannot open it"), "\(error)")
        }
    }
}

extension SceneFileFontTests {
    @Test("fallbackFonts: faces every text layer's face falls back to, named as fonts are; the list is checked")
    func fallbackFonts() throws {
        let yaml = """
            lamina: 1
            fallbackFonts: ["Noto Sans Thai", "Droid Sans Fallback"]
            layers:
              - {name: plain, kind: text, string: "你好"}
              - {name: named, kind: text, string: "สวัสดี", font: "DejaVu Sans:bold"}

            """
        let document = try SceneFileFixture.compile(yaml)
        let rig = try DummyDisplayRig(width: 320, height: 120, refresh: 60, start: 0)
        let scene = try rig.makeRuntime().install(FileScene.self, settings: FileScene.Settings(document: document))
        let plain = try #require(scene.layer(named: "plain") as? TextLayer), named = try #require(scene.layer(named: "named") as? TextLayer)
        #expect(plain.font?.path.hasSuffix("/DejaVuSans.ttf") == true)
        #expect(plain.font?.fallbacks.map { ($0.path as NSString).lastPathComponent } == ["NotoSansThai-Regular.ttf", "DroidSansFallbackFull.ttf"])
        #expect(named.font?.fallbacks.count == 2)
        for (yaml, expected) in [("fallbackFonts: \"DejaVu Sans\"", "fallbackFonts: expected a list of 1…16 fonts"),
                                 ("fallbackFonts: []", "fallbackFonts: expected a list of 1…16 fonts"),
                                 ("fallbackFonts: [\"No Such Family\"]", "fallbackFonts[0]: family \"No Such Family\": no face of this family is installed")] {
            do {
                _ = try SceneFileFixture.compile("lamina: 1\n\(yaml)\nlayers: []\n")
                Issue.record("\(yaml) was accepted")
            } catch {
                #expect("\(error)".contains("scene.yaml:2:") && "\(error)".contains(expected), "\(error)")
            }
        }
    }
}

extension SceneFileFontTests {
    @Test("a button's and a text box's font: their text drawn in it; without one, in the file's fallbackFonts face; a bad one is refused with its line")
    func controls() throws {
        let yaml = """
            lamina: 1
            fallbackFonts: ["Noto Sans Thai"]
            layers:
              - {name: pay, kind: button, title: "Pay now", font: "DejaVu Sans:bold"}
              - {name: plain, kind: button, title: "Pay now"}
              - {name: entry, kind: textbox, placeholder: "Name", font: "Noto Sans Arabic", bounds: [0, 0, 300, 64]}

            """
        let document = try SceneFileFixture.compile(yaml)
        let rig = try DummyDisplayRig(width: 640, height: 240, refresh: 60, start: 0)
        let scene = try rig.makeRuntime().install(FileScene.self, settings: FileScene.Settings(document: document))
        let pay = try #require(scene.buttons["pay"]), plain = try #require(scene.buttons["plain"])
        let bold = try Font(family: "DejaVu Sans", weight: .bold)
        let expected = bold.layout("Pay now", size: Theme.dark.fontSize).width + 2 * Theme.dark.padding
        #expect(abs(pay.face.bounds.width - expected) < 1e-9)
        #expect(pay.label.font?.path == bold.path)
        #expect(plain.label.font?.path.hasSuffix("/DejaVuSans.ttf") == true)
        #expect(plain.label.font?.fallbacks.map { ($0.path as NSString).lastPathComponent } == ["NotoSansThai-Regular.ttf"])
        let box = try #require(scene.controls.compactMap { $0 as? TextBox }.first)
        #expect(box.field.label.font?.path.hasSuffix("/NotoSansArabic-Regular.ttf") == true)
        #expect(box.field.placeholderLabel.font === box.field.label.font)
        do {
            _ = try SceneFileFixture.compile("lamina: 1\nlayers:\n  - {name: b, kind: button, title: OK, font: \"DejaVu Sans:heavy\"}\n")
            Issue.record("a bad weight was accepted")
        } catch {
            #expect("\(error)".contains("scene.yaml:3:") && "\(error)".contains("layers[0](b).font: 'heavy' is not a weight"), "\(error)")
        }
    }
}
