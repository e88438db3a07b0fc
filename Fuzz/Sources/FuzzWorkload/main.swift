import FuzzSupport

/// A raster-bench-workloads/1 file: decoded, and each workload small enough rendered once.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzWorkload(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let path = Fuzz.file(data, size, name: "workloads.json")
    guard let file = try? WorkloadFile(path: path) else { return 0 }
    for workload in file.workloads where workload.width * workload.height <= 256 * 256 {
        WorkloadRenderer(workload, images: file.images, fontPaths: file.fontPaths)?.renderFrame()
    }
    return 0
}
