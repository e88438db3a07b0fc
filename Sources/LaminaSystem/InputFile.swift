#if canImport(Glibc)
import Glibc
#endif
import SystemPackage

/// Reading a file a person or a program handed Lamina (a config, a touch script, a
/// workload): only a regular file, only up to a size limit, and a failure that says why in
/// a few plain words (decision 86). It lives in the system layer so every reader of input
/// shares it.
public enum InputFile {
    /// The largest input file read: 16 MiB.
    public static let defaultLimit = 16 * 1024 * 1024

    /// Why a file could not be read, in a few words ("is a directory", "permission denied").
    public struct Failure: Error, CustomStringConvertible, Sendable {
        /// Why the file cannot be read, in a few words ("is a directory", "permission denied").
        public var reason: String
        public var description: String { reason }
    }

    /// The file's bytes. A directory, a FIFO, a device or a socket is refused without being
    /// read (opening is non-blocking, so a FIFO with no writer does not hang), as is a file
    /// larger than `limit`.
    public static func bytes(atPath path: String, limit: Int = defaultLimit) throws(Failure) -> [UInt8] {
        let fd: FileDescriptor
        do {
            fd = try FileDescriptor.open(FilePath(path), .readOnly, options: [.nonBlocking, .closeOnExec])
        } catch {
            throw Failure(reason: describe(error))
        }
        defer { try? fd.close() }
        var info = stat()
        guard fstat(fd.rawValue, &info) == 0 else { throw Failure(reason: describe(Errno(rawValue: errno))) }
        switch info.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: throw Failure(reason: "is a directory")
        case S_IFIFO: throw Failure(reason: "is a FIFO, not a regular file")
        case S_IFCHR, S_IFBLK: throw Failure(reason: "is a device, not a regular file")
        case S_IFSOCK: throw Failure(reason: "is a socket, not a regular file")
        default: throw Failure(reason: "is not a regular file")
        }
        guard Int(info.st_size) <= limit else {
            throw Failure(reason: "is \(info.st_size) bytes, more than the \(limit) read")
        }
        var bytes = [UInt8](repeating: 0, count: Int(info.st_size))
        var filled = 0
        while filled < bytes.count {
            let n: Int
            do {
                n = try bytes.withUnsafeMutableBytes { buffer in
                    try fd.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled...]))   // EINTR retried
                }
            } catch {
                throw Failure(reason: describe(error))
            }
            if n == 0 { break }                                  // shrank while read
            filled += n
        }
        return Array(bytes.prefix(filled))
    }

    /// The file as UTF-8 text; bytes that are not UTF-8 are refused rather than replaced.
    public static func text(atPath path: String, limit: Int = defaultLimit) throws(Failure) -> String {
        let data = try bytes(atPath: path, limit: limit)
        guard let text = String(validating: data, as: UTF8.self) else { throw Failure(reason: "is not UTF-8 text") }
        return text
    }

    private static func describe(_ error: any Error) -> String {
        guard let code = error as? Errno else { return "\(error)" }
        switch code {
        case .noSuchFileOrDirectory: return "no such file"
        case .permissionDenied, .notPermitted: return "permission denied"
        case .notDirectory: return "a part of the path is not a directory"
        case .fileNameTooLong: return "the path is too long"
        case .tooManySymbolicLinkLevels: return "too many symbolic links"
        default: return "\(code)".lowercased()
        }
    }
}
