import SystemPackage
#if canImport(Glibc)
import Glibc
#endif

/// Small attribute files in sysfs (`/sys/class/backlight/*/brightness`): read as a trimmed
/// line, written whole in one `write` (sysfs takes an attribute's value in one call).
public enum SysfsFile {
    /// The file's first line, trimmed; throws when it cannot be read.
    public static func read(_ path: String) throws(Errno) -> String {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw Errno(rawValue: errno) }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 256)
        let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
        guard n >= 0 else { throw Errno(rawValue: errno) }
        let line = buffer[0..<n].prefix { $0 != 0x0A }
        return String(decoding: line, as: UTF8.self).trimmingCharacters(in: " \t\r")
    }

    /// Writes `value` and a newline to the existing file at `path`.
    public static func write(_ value: String, to path: String) throws(Errno) {
        let fd = open(path, O_WRONLY | O_CLOEXEC | O_TRUNC)
        guard fd >= 0 else { throw Errno(rawValue: errno) }
        defer { close(fd) }
        let bytes = Array((value + "\n").utf8)
        let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        guard n == bytes.count else { throw n < 0 ? Errno(rawValue: errno) : Errno.ioError }
    }

    /// The names in the folder `path` (not `.` and `..`), sorted; empty when it cannot be read.
    public static func entries(of path: String) -> [String] {
        guard let dir = opendir(path) else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }
}

extension String {
    fileprivate func trimmingCharacters(in set: String) -> String {
        var s = Substring(self)
        while let c = s.first, set.contains(c) { s = s.dropFirst() }
        while let c = s.last, set.contains(c) { s = s.dropLast() }
        return String(s)
    }
}
