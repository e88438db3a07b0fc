// lamina-scene: reads a scene file's YAML for the daemon (decision 107). The daemon links no
// full Foundation and Yams does, so parsing happens here, in a short-lived process:
//
//   lamina-scene FILE      prints one JSON object, {"node": tree} or {"error": {...}}
//
// Exit 0 with a tree, 65 (EX_DATAERR) with a syntax error, 66 (EX_NOINPUT) when the file
// cannot be read, 64 on a wrong command line. The process limits its own address space and
// CPU time, so a pathological file ends it, never the daemon.
import FoundationEssentials
import Glibc
import LaminaSceneSyntax
import LaminaSceneYAML
import LaminaSystem
import SystemPackage

func emit(_ result: SceneReadResult, status: Int32) -> Never {
    if let data = try? JSONEncoder().encode(result) { _ = try? FileDescriptor.standardOutput.writeAll(Array(data) + [0x0A]) }
    exit(status)
}

let arguments = CommandLine.arguments
guard arguments.count == 2, !arguments[1].hasPrefix("-") else {
    StandardError.write("usage: lamina-scene FILE (prints the scene file's tree as JSON)\n")
    exit(64)
}
// AddressSanitizer (the sanitizer run's build) reserves terabytes of shadow address space at
// start, so an address-space limit would stop it before it reads anything.
if dlsym(UnsafeMutableRawPointer(bitPattern: 0), "__asan_init") == nil {
    try? ResourceLimit.addressSpace.set(1 << 30)
}
try? ResourceLimit.cpuSeconds.set(10)

let path = arguments[1]
// Read as every input is (InputFile): opened non-blocking, a regular file only, so a FIFO or
// a device put where the scene file was is refused, never waited on.
let bytes: [UInt8]
do {
    bytes = try InputFile.bytes(atPath: path, limit: SceneFileLimits.maximumFileBytes)
} catch {
    emit(SceneReadResult(error: SceneSyntaxError(at: nil, "cannot be read: \(error.reason)")), status: 66)
}
guard let text = String(validating: bytes, as: UTF8.self) else {
    emit(SceneReadResult(error: SceneSyntaxError(at: nil, "the file is not UTF-8 text")), status: 65)
}
switch YAMLSceneReader.read(text) {
case .success(let node): emit(SceneReadResult(node: node), status: 0)
case .failure(let error): emit(SceneReadResult(error: error), status: 65)
}
