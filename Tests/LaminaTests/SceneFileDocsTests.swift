import Foundation
import Lamina
@testable import LaminaSceneFiles
@testable import LaminaRuntime
import LaminaTestSupport
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
        // A folder with an empty `locale` folder beside the file, as the translations example names.
        let folder = try SceneFileFixture.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder + "/locale", withIntermediateDirectories: true)
        for file in files { _ = try SceneFileFixture.compile(file, in: folder) }
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

    @Test("the Limits table names every limit of the cost model with its value")
    func limitsListed() throws {
        let text = try String(contentsOfFile: Self.page, encoding: .utf8)
        let section = try #require(text.components(separatedBy: "## Limits").last)
        let rows = section.split(separator: "\n").filter { $0.hasPrefix("| ") }
        for (name, value) in SceneFileFormat.limits {
            let row = rows.first { row in
                row.split(separator: "|").first.map { cell in
                    cell.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.contains(name)
                } ?? false
            }
            #expect(row != nil, "no row for \(name)")
            let grouped = value.formatted(.number.grouping(.automatic).locale(Locale(identifier: "en_US")))
            let written = [grouped, "\(value)", value == 4096 * 4096 ? "4096 × 4096" : "", value == 4 << 20 ? "4 MiB" : "",
                           value == 256 && name == "names" ? "256 bytes" : ""].filter { !$0.isEmpty }
            #expect(written.contains { row?.contains($0) == true }, "\(name): \(value) not in \(row ?? "")")
        }
    }
}
