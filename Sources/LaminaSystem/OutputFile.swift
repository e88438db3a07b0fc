#if canImport(Glibc)
import Glibc
#endif
import SystemPackage

/// Writing a file Lamina produces (a recorded frame, a screenshot, a report): the bytes are
/// made in memory first, then written here, so how a path is opened — and what may stand
/// there already — is decided in one place, not by a library's `fopen`.
public enum OutputFile {
    /// Writes `bytes` to `path`, replacing what is there (created with `mode`, less the
    /// umask). For paths Lamina chooses itself (`--frames-out`, `--stats-json`, golden
    /// files); a path named by a client goes through `writeNew(_:in:name:mode:)`.
    public static func write(_ bytes: [UInt8], toPath path: String, mode: UInt32 = 0o644) throws(Errno) {
        let fd = try catchingErrno {
            try FileDescriptor.open(FilePath(path), .writeOnly, options: [.create, .truncate, .closeOnExec, .nonBlocking],
                                    permissions: FilePermissions(rawValue: CModeT(mode)))
        }
        defer { try? fd.close() }
        try requireRegular(fd)
        try writeAll(bytes, to: fd)
    }

    /// A folder opened to create files in (`O_DIRECTORY`): checks and creation then refer to
    /// the same folder even if its path is renamed or replaced meanwhile.
    public final class Folder: Sendable {
        /// The open folder.
        public let descriptor: FileDescriptor
        /// Its owner, group and permission bits when it was opened.
        public let owner: UInt32, group: UInt32, permissions: UInt32
        /// Its device and inode: which folder it is, whatever path led to it.
        public let identity: (device: UInt64, inode: UInt64)

        /// Opens the folder `path` (following symbolic links in the path: the folder is what
        /// it resolves to). Throws `ENOTDIR` when it is not a folder.
        public init(path: String) throws(Errno) {
            let fd = try OutputFile.catchingErrno { try FileDescriptor.open(FilePath(path), .readOnly, options: [.directory, .closeOnExec, .nonBlocking]) }
            var info = stat()
            guard fstat(fd.rawValue, &info) == 0 else {
                let error = Errno(rawValue: errno)
                try? fd.close()
                throw error
            }
            descriptor = fd
            owner = info.st_uid
            group = info.st_gid
            identity = (UInt64(info.st_dev), UInt64(info.st_ino))
            permissions = UInt32(info.st_mode) & 0o7777
        }

        deinit { try? descriptor.close() }

        /// Whether `other` is the same folder.
        public func isSame(as other: Folder) -> Bool { identity == other.identity }

        /// Whether a user with `uid`, primary group `gid` and membership `isMember` could
        /// create a file here by the permission bits (root always could).
        public func isWritable(uid: UInt32, gid: UInt32, isMember: (UInt32) -> Bool) -> Bool {
            if uid == 0 { return true }
            let bits: UInt32
            if uid == owner {
                bits = permissions >> 6
            } else if gid == group || isMember(group) {
                bits = permissions >> 3
            } else {
                bits = permissions
            }
            return bits & 0o3 == 0o3                  // write and search
        }
    }

    /// Writes `bytes` to a new file `name` in `folder`. The file is created with
    /// `O_CREAT | O_EXCL | O_NOFOLLOW`: nothing that exists there — a file, a symbolic link,
    /// a FIFO, a device — is opened, followed, truncated or has its mode changed (`EEXIST`).
    /// The new file gets exactly `mode` (`fchmod` on the file just made, whatever the umask).
    public static func writeNew(_ bytes: [UInt8], in folder: Folder, name: String, mode: UInt32) throws(Errno) {
        guard !name.isEmpty, !name.utf8.contains(UInt8(ascii: "/")), !name.utf8.contains(0), name != ".", name != ".." else {
            throw .invalidArgument
        }
        let flags = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC
        let raw = openat(folder.descriptor.rawValue, name, flags, mode_t(mode))
        guard raw >= 0 else { throw Errno(rawValue: errno) }
        let fd = FileDescriptor(rawValue: raw)
        defer { try? fd.close() }
        guard fchmod(raw, mode_t(mode)) == 0 else { throw Errno(rawValue: errno) }
        do {
            try writeAll(bytes, to: fd)
        } catch {
            _ = unlinkat(folder.descriptor.rawValue, name, 0)         // no half-written file left behind
            throw error
        }
    }

    /// Writes `bytes` as `name` in `folder`, replacing the directory entry that is there (a
    /// file, a link, a FIFO: the entry, never what it points at): they are written to a new
    /// file `.NAME.new` (`writeNew`) and renamed over `name` (`renameat`), so a reader sees
    /// the old file or the new one. For a name in a folder Lamina owns.
    public static func replace(_ bytes: [UInt8], in folder: Folder, name: String, mode: UInt32) throws(Errno) {
        let staged = ".\(name).new"
        _ = unlinkat(folder.descriptor.rawValue, staged, 0)          // one an interrupted run left
        try writeNew(bytes, in: folder, name: staged, mode: mode)
        guard renameat(folder.descriptor.rawValue, staged, folder.descriptor.rawValue, name) == 0 else {
            let error = Errno(rawValue: errno)
            _ = unlinkat(folder.descriptor.rawValue, staged, 0)
            throw error
        }
    }

    /// `body`'s result, its error as the `Errno` swift-system throws (anything else: EIO).
    fileprivate static func catchingErrno<T>(_ body: () throws -> T) throws(Errno) -> T {
        do {
            return try body()
        } catch let error as Errno {
            throw error
        } catch {
            throw .ioError
        }
    }

    private static func requireRegular(_ fd: FileDescriptor) throws(Errno) {
        var info = stat()
        guard fstat(fd.rawValue, &info) == 0 else { throw Errno(rawValue: errno) }
        guard info.st_mode & S_IFMT == S_IFREG else { throw .invalidArgument }
    }

    private static func writeAll(_ bytes: [UInt8], to fd: FileDescriptor) throws(Errno) {
        _ = try catchingErrno { try bytes.withUnsafeBytes { try fd.writeAll($0) } }
    }
}
