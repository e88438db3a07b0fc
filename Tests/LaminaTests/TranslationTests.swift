import Foundation
import Lamina
import LaminaControl
import LaminaLayers
import LaminaRuntime
@testable import LaminaSceneFiles
import LaminaTestSupport
import Testing

/// Translations: GNU message catalogs compiled by gettext's own `msgfmt` (the expectation is
/// the translator's `.po` file), read by Lamina, and every string switching language while the
/// scene runs.
@Suite("Translations")
struct TranslationTests {
    /// `po` compiled by `msgfmt` into `folder/name` (with `--endianness` as given).
    static func compile(_ po: String, into folder: String, name: String, endianness: String = "little") throws {
        let source = folder + "/" + name + ".po"
        try po.write(toFile: source, atomically: false, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/msgfmt")
        process.arguments = ["--endianness=\(endianness)", "-o", folder + "/" + name, source]
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        try FileManager.default.removeItem(atPath: source)
    }

    static let germanPO = #"""
        msgid ""
        msgstr "Content-Type: text/plain; charset=UTF-8\nPlural-Forms: nplurals=2; plural=(n != 1);\n"

        msgid "Hello {name}"
        msgstr "Hallo {name}"

        msgid "Pay"
        msgstr "Bezahlen"

        msgid "{count} item"
        msgid_plural "{count} items"
        msgstr[0] "{count} Artikel"
        msgstr[1] "{count} Artikel (mehrere)"

        msgctxt "menu"
        msgid "Open"
        msgstr "Öffnen (Menü)"

        msgid "Untranslated"
        msgstr ""

        """#

    @Test("a catalog msgfmt compiled, either byte order: translations by source string; plural's first form; no context entries, header or empty ones")
    func catalog() throws {
        let folder = try SceneFileFixture.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for endianness in ["little", "big"] {
            try Self.compile(Self.germanPO, into: folder, name: "de.mo", endianness: endianness)
            let catalog = try MessageCatalog(path: folder + "/de.mo")
            #expect(catalog.translations == ["Hello {name}": "Hallo {name}", "Pay": "Bezahlen", "{count} item": "{count} Artikel"])
        }
    }

    @Test("a damaged catalog is an error naming the file and what is wrong", arguments: [
        ([UInt8](repeating: 0, count: 10), "shorter than a catalog's header"),
        ([UInt8](repeating: 0, count: 28), "is not a GNU message catalog"),
        ([0xDE, 0x12, 0x04, 0x95, 0, 0, 0, 0, 0, 1, 0, 0, 28, 0, 0, 0, 36, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
          5, 0, 0, 0, 200, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0], "entry 0 points outside the file"),
        ([0xDE, 0x12, 0x04, 0x95, 0, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0x7F, 28, 0, 0, 0, 36, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
         "entries; a catalog may hold 65536"),
        ([0xDE, 0x12, 0x04, 0x95, 0, 0, 0, 0, 1, 0, 0, 0, 28, 0, 0, 0, 36, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
          1, 0, 0, 0, 44, 0, 0, 0, 1, 0, 0, 0, 46, 0, 0, 0, 0xFF, 0, 0x41, 0], "entry 0 is not UTF-8"),
    ])
    func damaged(bytes: [UInt8], reason: String) throws {
        let folder = try SceneFileFixture.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Data(bytes).write(to: URL(fileURLWithPath: folder + "/xx.mo"))
        #expect(throws: MessageCatalogError.self) { try MessageCatalog(path: folder + "/xx.mo") }
        do { _ = try MessageCatalog(path: folder + "/xx.mo") } catch {
            #expect(error.description.hasPrefix(folder + "/xx.mo: ") && error.description.contains(reason), "\(error)")
        }
    }

    @Test("a language tag finds its catalog with its region or without; none shows the strings as written")
    func languages() throws {
        #expect(Translations.candidates("de_AT.UTF-8@euro") == ["de_AT", "de"])
        #expect(Translations.candidates("pt-BR") == ["pt-BR", "pt"])
        #expect(Translations.isLanguageTag("sr@latin") && !Translations.isLanguageTag("../de") && !Translations.isLanguageTag(""))
        let folder = try SceneFileFixture.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Self.compile(Self.germanPO, into: folder, name: "de.mo")
        let log = CapturedLog()
        let translations = Translations(folder: folder, logger: log.logger())
        try translations.use(language: "de_AT.UTF-8")
        #expect(translations.translate("Pay") == "Bezahlen")
        #expect(translations.translate("Cancel") == "Cancel" && translations.translate("Cancel") == "Cancel")
        #expect(log.count(containing: "no de_AT.UTF-8 translation for \"Cancel\"") == 1)
        try translations.use(language: "fr")
        #expect(translations.translate("Pay") == "Pay" && log.count(containing: "no catalog for 'fr'") == 1)
    }

    @Test("a scene file's texts, list rows and a Swift label switch language at the next frame, bindings kept")
    func switching() throws {
        let folder = try SceneFileFixture.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder + "/locale", withIntermediateDirectories: true)
        try Self.compile(Self.germanPO, into: folder + "/locale", name: "de.mo")
        let yaml = """
            lamina: 1
            translations: locale
            bindings:
              name: {string: Ada}
            layers:
              - {name: greeting, kind: text, string: "Hello {name}", bounds: [0, 0, 300, 40], position: [160, 30]}
              - {name: pay, kind: text, string: "Pay", bounds: [0, 0, 300, 40], position: [160, 80]}
              - {name: other, kind: text, string: "Not in the catalog", bounds: [0, 0, 300, 40], position: [160, 130]}

            """
        let document = try SceneFileFixture.compile(yaml, in: folder)
        let log = CapturedLog()
        let rig = try DummyDisplayRig(width: 320, height: 240, refresh: 60, start: 0)
        let runtime = rig.makeRuntime(log: log)
        let scene = try runtime.install(FileScene.self, settings: FileScene.Settings(document: document))
        func text(_ name: String) -> String? { (scene.layer(named: name) as? TextLayer)?.string }
        #expect(text("greeting") == "Hello Ada" && text("pay") == "Pay")
        // A Swift label kept translated from the program's own catalogs.
        runtime.translations = Translations(folder: folder + "/locale")
        let label = TextLayer()
        scene.context.localize(label, "Pay")
        #expect(label.string == "Pay")

        try runtime.setLanguage("de")
        #expect(text("greeting") == "Hallo Ada" && text("pay") == "Bezahlen" && text("other") == "Not in the catalog")
        #expect(label.string == "Bezahlen" && scene.context.localized("Hello {name}") == "Hallo {name}")
        #expect(log.count(containing: "no de translation for \"Not in the catalog\"") == 1)
        try scene.setBinding("name", to: .string("Bob"))
        #expect(text("greeting") == "Hallo Bob")
        #expect(runtime.run(untilSettled: true) == .settled)

        try runtime.setLanguage(nil)
        #expect(text("greeting") == "Hello Bob" && label.string == "Pay")
        #expect(throws: MessageCatalogError.self) { try runtime.setLanguage("../../etc") }
        #expect(runtime.language == nil)
    }

    @Test("a translation that names a binding the file lacks, or is too long, is refused with the file, line, field and catalog")
    func badTranslation() throws {
        let folder = try SceneFileFixture.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder + "/locale", withIntermediateDirectories: true)
        try Self.compile("msgid \"Hello {name}\"\nmsgstr \"Hallo {nmae}\"\n\nmsgid \"OK\"\nmsgstr \"\(String(repeating: "x", count: 300))\"\n",
                         into: folder + "/locale", name: "de.mo")
        for (text, expected) in [("Hello {name}", "layers[0].string: its de translation (locale/de.mo): no binding is named 'nmae'"),
                                 ("OK", "its de translation (locale/de.mo) has 300 bytes; a translation of this text may have 256")] {
            let yaml = "lamina: 1\ntranslations: locale\nbindings:\n  name: {string: Ada}\nlayers:\n  - {kind: text, string: \"\(text)\"}\n"
            do {
                _ = try SceneFileFixture.compile(yaml, in: folder)
                Issue.record("accepted")
            } catch {
                #expect("\(error)".contains("scene.yaml:6:") && "\(error)".contains(expected), "\(error)")
            }
        }
        try Data([1, 2, 3]).write(to: URL(fileURLWithPath: folder + "/locale/fr.mo"))
        do {
            _ = try SceneFileFixture.compile("lamina: 1\ntranslations: locale\nlayers: []\n", in: folder)
            Issue.record("accepted")
        } catch {
            #expect("\(error)".contains("scene.yaml:2:") && "\(error)".contains("translations: is 3 bytes, shorter than a catalog's header"), "\(error)")
        }
    }

    @Test("the control socket's set-language switches the scene's strings; a bad tag is an error reply")
    func controlSocket() throws {
        let rig = try ControlSocketTests.Rig()
        let client = try rig.connect()
        #expect(ControlSocketTests.ask(rig, client, ##"{"command": "set-language", "language": "de"}"##)["language"] == .string("de"))
        #expect(rig.runtime.language == "de")
        #expect(ControlSocketTests.ask(rig, client, ##"{"command": "set-language", "language": null}"##)["language"] == .null)
        #expect(ControlSocketTests.ask(rig, client, ##"{"command": "set-language", "language": "a b"}"##)["error"]?.string?.contains("is not a language tag") == true)
        #expect(ControlSocketTests.ask(rig, client, ##"{"command": "set-language", "language": 3}"##)["error"]?.string?.hasPrefix("set-language needs `language`") == true)
    }
}
