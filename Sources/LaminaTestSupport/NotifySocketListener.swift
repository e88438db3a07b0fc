import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A bound datagram socket standing in for systemd's notify socket (`NOTIFY_SOCKET`).
public final class NotifySocketListener {
    public let fd: Int32
    public let path: String

    public init() throws {
        path = NSTemporaryDirectory() + "lamina-notify-\(UUID().uuidString.prefix(8))"
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, b) in path.utf8.enumerated() { raw[i] = b }
        }
        let status = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard status == 0 else { throw POSIXError(.EADDRINUSE) }
    }

    deinit {
        close(fd)
        unlink(path)
    }

    /// Every datagram waiting, without blocking.
    public func messages() -> [String] {
        var out: [String] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = recv(fd, &buffer, buffer.count, Int32(MSG_DONTWAIT))
            if n <= 0 { break }
            out.append(String(decoding: buffer[0..<n], as: UTF8.self))
        }
        return out
    }

    /// Blocks until a datagram containing `text` arrives (true) or `limit` seconds pass
    /// (false): a bound on a hung process, not a timing check.
    public func wait(for text: String, limit: Double) -> Bool {
        let end = Date().addingTimeInterval(limit)
        while Date() < end {
            var pending = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            _ = poll(&pending, 1, Int32(max(1, end.timeIntervalSinceNow * 1000)))
            if messages().contains(where: { $0.contains(text) }) { return true }
        }
        return false
    }
}
