#if canImport(Glibc)
import Glibc
#endif
@_exported import Lamina
@_exported import LaminaBenchmarks
@_exported import LaminaGeometry
@_exported import LaminaInput
@_exported import LaminaRaster
@_exported import LaminaScenes
@_exported import LaminaSceneYAML
@_exported import LaminaSceneGenerator

/// What every harness shares: the input as text or as a file (for readers that take a
/// path), written once per process into a private temporary directory.
public enum Fuzz {
    /// The input as UTF-8 (invalid bytes replaced, as a reader that validates would refuse).
    public static func text(_ data: UnsafePointer<UInt8>, _ size: Int) -> String {
        String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    }

    private static let directory: String = {
        var template = Array("/tmp/lamina-fuzz-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { fatalError("mkdtemp failed") }
        return String(cString: made)
    }()

    /// Writes the input to `name` in the harness's directory and returns its path.
    public static func file(_ data: UnsafePointer<UInt8>, _ size: Int, name: String) -> String {
        let path = directory + "/" + name
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        precondition(fd >= 0, "cannot write \(path)")
        var written = 0
        while written < size {
            let n = write(fd, data + written, size - written)
            precondition(n > 0, "cannot write \(path)")
            written += n
        }
        close(fd)
        return path
    }

    /// A small canvas to draw what a harness parsed, so geometry reaches the rasterizer.
    public static let canvasSize = (width: 96, height: 64)
}
