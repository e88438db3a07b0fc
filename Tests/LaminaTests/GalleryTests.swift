import Foundation
import Lamina
@testable import LaminaSceneFiles
@testable import LaminaRuntime
import LaminaRaster
import LaminaScenes
import LaminaTestSupport
import Logging
import Testing

/// Each built-in scene as `lamina run --scene NAME --backend dummy --clock virtual
/// --frames-out DIR` runs it with the shipped config (its own demo touches,
/// `configs/demo/NAME.touch`): the run settles and its contact sheet is the golden one, checked
/// once by eye (issue 15's gallery).
@Suite("Gallery scenes, headless", .serialized)
struct GalleryTests {
    static var repository: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
    }

    /// Runs `scene` (a name or a scene file) as `lamina run --scene SCENE --backend dummy
    /// --clock virtual --frames-out DIR` runs it with the shipped config, expects its demo to
    /// end and move something, and returns its contact sheet.
    static func demoSheet(scene: String) throws -> RGBAImage {
        let out = NSTemporaryDirectory() + "lamina-gallery-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: out) }
        var options = DaemonOptions()
        options.configPath = repository + "/configs/lamina.toml"
        options.backend = .dummy
        options.clock = .virtual
        options.scene = scene
        options.framesOut = out
        options.writesEveryFrame = false
        let summary = try Daemon.run(options, catalog: Gallery.registry, logger: Logger(label: "gallery") { _ in SwiftLogNoOpLogHandler() })
        #expect(summary.stopReason == .settled || summary.stopReason == .timeLimit)      // a script may end the demo
        #expect(summary.frames >= 10, "the demo touches must move something")
        return try RGBAImage.readPNG(from: out + "/contact-sheet.png")
    }

    @Test("the scene runs its demo touches to rest, and its contact sheet matches the golden", arguments: Gallery.registry.sceneNames)
    func contactSheet(scene: String) throws {
        let sheet = try Self.demoSheet(scene: scene)
        let golden = Self.repository + "/Tests/LaminaTests/Golden/gallery/\(scene).png"
        let mismatch = try Golden.compare(sheet, to: golden)
        #expect(mismatch == nil, "\(mismatch ?? "")")
    }
}
