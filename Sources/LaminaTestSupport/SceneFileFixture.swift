import Foundation
import LaminaSceneFiles
import LaminaSceneYAML

/// Scene files for tests: written to a folder of their own, read in-process with the same
/// reader the `lamina-scene` helper runs, and compiled as the daemon compiles them.
public enum SceneFileFixture {
    /// A fresh folder under the temporary directory.
    public static func folder() throws -> String {
        let path = NSTemporaryDirectory() + "lamina-scene-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// `yaml` compiled as the file `name` in `folder` (written there too, so image paths and
    /// the helper can be tried on it). With no time limit by default: a limit on wall time
    /// would make a test's outcome depend on how busy the machine is (qemu-user under load
    /// has run past the daemon's 5 s on a file the layer count bounds first).
    public static func compile(_ yaml: String, in folder: String? = nil, name: String = "scene.yaml",
                               timeLimit: Double = .infinity) throws -> SceneDocument {
        let folder = try folder ?? self.folder()
        let path = folder + "/" + name
        try yaml.write(toFile: path, atomically: true, encoding: .utf8)
        switch YAMLSceneReader.read(yaml) {
        case .success(let node): return try SceneFiles.compile(node, file: path, timeLimit: timeLimit)
        case .failure(let error):
            guard let at = error.position else { throw ConfigError(file: path, reason: error.reason) }
            throw ConfigError(file: path, field: nil, line: at.line, column: at.column, reason: error.reason)
        }
    }

    /// The error `yaml` is rejected with, after the file's folder (`scene.yaml:3:5: ...`).
    public static func error(_ yaml: String, timeLimit: Double = .infinity) -> String? {
        do {
            _ = try compile(yaml, timeLimit: timeLimit)
            return nil
        } catch {
            let text = "\(error)"
            return text.split(separator: "/").last.map(String.init) ?? text
        }
    }
}
