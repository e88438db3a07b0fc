import FoundationEssentials
import FuzzSupport
#if canImport(Glibc)
import Glibc
#endif
import LaminaSceneGenerator

/// Structure-aware scene files (issue 26): the input is a stream of choices that
/// `SceneFileGenerator` turns into a scene file following the format's own tables — kinds,
/// keys, value ranges, templates, replicators, dashes, images (small, huge-header, FIFO,
/// escaping). What compiles is built and drawn for a few frames. Nothing may crash; an input
/// that takes longer than the run's `-timeout` or more memory than its `-rss_limit_mb` is a
/// finding too (scripts/fuzz reports the slowest input and the peak memory).
enum SceneStructure {
    static let folder: String = {
        let path = Fuzz.file([0], 1, name: "scene.yaml")
        let folder = String(path.dropLast("/scene.yaml".count))
        try? ImageFixtures.make(in: folder)
        return folder
    }()

    nonisolated(unsafe) static let runtime: Runtime = {   // libFuzzer calls in one thread
        guard let runtime = try? Runtime.headless(width: Fuzz.canvasSize.width, height: Fuzz.canvasSize.height) else {
            fatalError("no headless runtime")
        }
        return runtime
    }()
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSceneStructure(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    var generator = SceneFileGenerator(.init(Array(UnsafeBufferPointer(start: data, count: size))))
    let tree = generator.scene()
    // LAMINA_FUZZ_DUMP=1 prints the generated file (as JSON, which YAML reads) to see a finding.
    if getenv("LAMINA_FUZZ_DUMP") != nil, let json = try? JSONEncoder().encode(tree) {
        print(String(decoding: json, as: UTF8.self))
    }
    guard let document = try? SceneFiles.compile(tree, file: SceneStructure.folder + "/scene.yaml") else { return 0 }
    // Accepted: it must build (check-config and run agree) and draw.
    do {
        try SceneStructure.runtime.install(FileScene.self, settings: FileScene.Settings(document: document))
    } catch {
        fatalError("an accepted scene file did not build: \(error)")
    }
    SceneStructure.runtime.run(exitAfter: 2.0 / 60, untilSettled: false)
    // The scene goes, and a frame without it is drawn: nothing of it may outlive it (a scene
    // that leaks shows at exit), and what LeakSanitizer sees at exit is the runtime's own.
    SceneStructure.runtime.removeScene()
    SceneStructure.runtime.run(exitAfter: 1.0 / 60, untilSettled: false)
    return 0
}
