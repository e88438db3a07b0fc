import FuzzSupport

/// A GNU message catalog (`.mo`, a scene file's `translations:` or `[run] translations`):
/// read and checked, either byte order; every offset and length must stay in the file.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMessageCatalog(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let path = Fuzz.file(data, size, name: "de.mo")
    if let catalog = try? MessageCatalog(path: path) {
        precondition(catalog.translations.count <= MessageCatalog.maximumEntries, "more entries than a catalog may hold")
        precondition(catalog.translations.keys.allSatisfy { !$0.isEmpty }, "the header kept as a translation")
    }
    return 0
}
