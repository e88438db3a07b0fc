import FuzzSupport

/// A configuration file, checked completely as `lamina check-config` does (every table, the
/// scene's settings; a touch script it names is read too).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzConfig(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let path = Fuzz.file(data, size, name: "lamina.toml")
    _ = try? Daemon.check(path: path, catalog: Gallery.registry)
    return 0
}
