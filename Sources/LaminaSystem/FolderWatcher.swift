#if canImport(Glibc)
import Glibc
#endif
import SystemPackage

/// Watches one folder with inotify for files written and closed, or renamed into it (an
/// editor's or a deploy script's atomic rename-over), so a scene file's edits are seen
/// without polling. The descriptor is non-blocking: the event loop polls it in real time and
/// reads it between events on a virtual clock, as it does the signal descriptor.
public final class FolderWatcher {
    /// The inotify descriptor to poll.
    public let descriptor: FileDescriptor
    /// The folder watched.
    public let folder: String

    /// Watches `folder`; throws when inotify is unavailable or the folder cannot be watched
    /// (the caller logs it: live reload is then off, SIGHUP still reloads).
    public init(folder: String) throws(SystemCallError) {
        let fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard fd >= 0 else { throw SystemCallError(call: "inotify_init1", errno: Glibc.errno) }
        guard inotify_add_watch(fd, folder, UInt32(IN_CLOSE_WRITE | IN_MOVED_TO)) >= 0 else {
            let error = SystemCallError(call: "inotify_add_watch", errno: Glibc.errno, detail: folder)
            close(fd)
            throw error
        }
        descriptor = FileDescriptor(rawValue: fd)
        self.folder = folder
    }

    deinit { try? descriptor.close() }

    /// The names of the files written or moved in since the last call, each once.
    public func drain() -> Set<String> {
        var names: Set<String> = []
        let header = MemoryLayout<inotify_event>.size
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let read = try? buffer.withUnsafeMutableBytes { try descriptor.read(into: $0) }
            guard let n = read, n > 0 else { break }
            var offset = 0
            while offset + header <= n {
                let length = buffer.withUnsafeBytes { raw in
                    Int(raw.loadUnaligned(fromByteOffset: offset, as: inotify_event.self).len)
                }
                let nameBytes = buffer[(offset + header)..<min(offset + header + length, n)].prefix { $0 != 0 }
                if !nameBytes.isEmpty { names.insert(String(decoding: nameBytes, as: UTF8.self)) }
                offset += header + length
            }
        }
        return names
    }
}
