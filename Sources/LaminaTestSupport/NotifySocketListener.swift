import Foundation
import LaminaSystem

/// A bound datagram socket standing in for systemd's notify socket (`NOTIFY_SOCKET`).
public final class NotifySocketListener {
    private let socket: UnixSocket
    public var fd: Int32 { socket.descriptor }
    public let path: String

    public init() throws {
        path = NSTemporaryDirectory() + "lamina-notify-\(UUID().uuidString.prefix(8))"
        socket = try UnixSocket.bindDatagram(path: path)
    }

    deinit {
        socket.close()
        UnixSocket.removeFile(at: path)
    }

    /// Every datagram waiting, without blocking.
    public func messages() -> [String] {
        var out: [String] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while case .moved(let n) = socket.receive(into: &buffer) {
            out.append(String(decoding: buffer[0..<n], as: UTF8.self))
        }
        return out
    }

    /// Blocks until a datagram containing `text` arrives (true) or `limit` seconds pass
    /// (false): a bound on a hung process, not a timing check.
    public func wait(for text: String, limit: Double) -> Bool {
        let end = Date().addingTimeInterval(limit)
        while Date() < end {
            _ = socket.waitUntilReadable(seconds: max(0.001, end.timeIntervalSinceNow))
            if messages().contains(where: { $0.contains(text) }) { return true }
        }
        return false
    }
}
