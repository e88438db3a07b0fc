#if canImport(Glibc)
import Glibc
#endif
import SystemPackage

/// An exclusive `flock(2)` on a file, held while the value lives: a second process asking
/// for the same lock is told at once instead of waiting (two runs writing one folder).
public final class LockFile {
    /// The lock file's path.
    public let path: String
    private let descriptor: FileDescriptor

    /// Why a lock was not taken.
    public enum Failure: Error, Equatable, Sendable {
        /// The file could not be opened or created.
        case cannotOpen(Errno)
        /// Another process holds the lock.
        case held
    }

    /// Opens (creating with mode 0644) `path` and locks it without waiting.
    public init(path: String) throws(Failure) {
        let fd: FileDescriptor
        do {
            fd = try FileDescriptor.open(FilePath(path), .readWrite, options: [.create, .closeOnExec],
                                         permissions: FilePermissions(rawValue: 0o644))
        } catch {
            throw .cannotOpen(error as? Errno ?? .ioError)
        }
        guard flock(fd.rawValue, LOCK_EX | LOCK_NB) == 0 else {
            try? fd.close()
            throw .held
        }
        self.path = path
        descriptor = fd
    }

    deinit { try? descriptor.close() }                      // closing releases the lock
}
