import Foundation
@testable import Lamina
@testable import LaminaSceneFiles
import LaminaSceneGenerator
import Testing

/// Scene files written from the format's own tables (`SceneFileGenerator`, the structure-aware
/// fuzzer's source), compiled and drawn: every accepted file builds and draws within the
/// cost model, and the generator reaches both sides of the checks.
@Suite("Generated scene files")
struct SceneFileGeneratorTests {
    @Test("300 generated files: each accepted one is within the documented budget, builds and draws three frames; some are accepted, some refused")
    func generated() throws {
        let folder = NSTemporaryDirectory() + "lamina-generated-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try ImageFixtures.make(in: folder)
        let runtime = try Runtime.headless(width: 160, height: 120)
        var accepted = 0, refused = 0
        for seed in 1...300 {
            var generator = SceneFileGenerator(.init(seed: UInt64(seed)))
            let tree = generator.scene()
            let document: SceneDocument
            do {
                document = try SceneFiles.compile(tree, file: folder + "/generated.yaml")
            } catch {
                refused += 1
                continue
            }
            accepted += 1
            let cost = document.cost
            #expect(cost.drawnLayers <= SceneFileCompiler.Limits.drawnLayers, "seed \(seed)")
            #expect(cost.shadowedLayers <= SceneFileCompiler.Limits.shadowedLayers, "seed \(seed)")
            #expect(cost.textBytes { name in document.bindings.first { $0.name == name }?.value } <= SceneFileCompiler.Limits.textBytes, "seed \(seed)")
            #expect(throws: Never.self, "seed \(seed): accepted, so it builds") {
                try runtime.install(FileScene.self, settings: FileScene.Settings(document: document))
            }
            runtime.run(exitAfter: 3 / 60, untilSettled: false)
        }
        #expect(accepted >= 30 && refused >= 30, "accepted \(accepted), refused \(refused)")
    }
}
