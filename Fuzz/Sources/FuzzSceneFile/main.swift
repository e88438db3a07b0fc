import FuzzSupport

/// A scene file, read as the `lamina-scene` helper reads it (Yams, with the node, depth and
/// length bounds) and compiled as the daemon compiles it; images resolve in the harness's
/// folder. Neither may crash, hang or allocate without bound, whatever the bytes.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSceneFile(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let path = Fuzz.file(data, size, name: "scene.yaml")
    if case .success(let node) = YAMLSceneReader.read(Fuzz.text(data, size)) {
        _ = try? SceneFiles.compile(node, file: path)
    }
    return 0
}
