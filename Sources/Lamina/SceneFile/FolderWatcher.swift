#if canImport(Glibc)
import Glibc
#endif
import CLinux

/// Watches one folder with inotify for files written and closed, or renamed into it (an
/// editor's or a deploy script's atomic rename-over), so a scene file's edits are seen
/// without polling. The descriptor is non-blocking: the event loop polls it in real time and
/// reads it between events on a virtual clock, as it does the signal descriptor.
final class FolderWatcher {
    let descriptor: Int32
    let folder: String

    /// Watches `folder`; nil when inotify is unavailable or the folder cannot be watched
    /// (logged by the caller: live reload is then off, SIGHUP still reloads).
    init?(folder: String) {
        let fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard fd >= 0 else { return nil }
        guard inotify_add_watch(fd, folder, UInt32(IN_CLOSE_WRITE | IN_MOVED_TO)) >= 0 else {
            close(fd)
            return nil
        }
        descriptor = fd
        self.folder = folder
    }

    deinit { close(descriptor) }

    /// The names of the files written or moved in since the last call, each once.
    func drain() -> Set<String> {
        var names: Set<String> = []
        let header = MemoryLayout<inotify_event>.size
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            guard n > 0 else { break }
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
