import SystemPackage

/// File paths as the command line and config files give them (strings), joined and split
/// through swift-system's `FilePath`.
public enum Paths {
    /// `name` inside `directory`; an absolute `name` stays as it is, an empty `directory`
    /// leaves `name` relative.
    public static func joined(_ directory: String, _ name: String) -> String {
        FilePath(directory).pushing(FilePath(name)).string
    }

    /// The folder holding `path` (empty for a bare file name).
    public static func directory(of path: String) -> String {
        FilePath(path).removingLastComponent().string
    }
}

#if canImport(Glibc)
import Glibc
#endif

extension Paths {
    /// Whether `path` is a directory; nil when nothing is there.
    public static func isDirectory(_ path: String) -> Bool? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return info.st_mode & S_IFMT == S_IFDIR
    }

    /// Creates the directory `path` and any missing parents (mode 0755); one that exists is
    /// fine.
    public static func createDirectory(_ path: String) throws(Errno) {
        if isDirectory(path) == true { return }
        let parent = directory(of: path)
        if !parent.isEmpty && parent != path { try createDirectory(parent) }
        guard mkdir(path, 0o755) == 0 || errno == EEXIST && isDirectory(path) == true else { throw Errno(rawValue: errno) }
    }
}

extension Paths {
    /// `path` made absolute with every symbolic link, `.` and `..` resolved (`realpath`);
    /// nil when it does not exist. What a check "inside this folder" compares.
    public static func resolvingLinks(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}

extension Paths {
    /// The size in bytes of the regular file at `path`; nil when something else is there
    /// (a folder, a device); throws when nothing can be read there.
    public static func regularFileSize(_ path: String) throws(Errno) -> Int? {
        var info = stat()
        guard stat(path, &info) == 0 else { throw Errno(rawValue: errno) }
        return info.st_mode & S_IFMT == S_IFREG ? Int(info.st_size) : nil
    }

    /// Whether `path` is a file this process may execute.
    public static func isExecutable(_ path: String) -> Bool {
        access(path, X_OK) == 0 && isDirectory(path) == false
    }
}

extension Paths {
    /// Removes the file at `path` (`unlink`); false when nothing was removed.
    @discardableResult
    public static func remove(_ path: String) -> Bool {
        unlink(path) == 0
    }
}

extension Paths {
    /// Sets the permission bits of `path` (`chmod`); false when that failed.
    @discardableResult
    public static func setPermissions(_ path: String, _ mode: UInt32) -> Bool {
        chmod(path, mode_t(mode)) == 0
    }
}

extension Paths {
    /// The permission bits of `path` (`stat`); nil when it cannot be read.
    public static func permissions(_ path: String) -> UInt32? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return UInt32(info.st_mode) & 0o7777
    }

    /// Moves `source` over `destination` in one step (`rename`): a reader sees the old file
    /// or the new one, never half of either.
    public static func rename(_ source: String, over destination: String) throws(Errno) {
        guard Glibc.rename(source, destination) == 0 else { throw Errno(rawValue: errno) }
    }
}

extension Paths {
    /// The names in the directory `path` (`opendir`/`readdir`), without `.` and `..`, in no
    /// particular order; at most `limit` (more is an error, `E2BIG`).
    public static func entries(of path: String, limit: Int = 4096) throws(Errno) -> [String] {
        guard let directory = opendir(path) else { throw Errno(rawValue: errno) }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard name != ".", name != ".." else { continue }
            guard names.count < limit else { throw Errno(rawValue: E2BIG) }
            names.append(name)
        }
        return names
    }
}
