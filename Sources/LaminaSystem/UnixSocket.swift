import CLinux
import SystemPackage
#if canImport(Glibc)
import Glibc
#endif

/// A Unix stream socket: the control socket's listener and its clients (non-blocking), and
/// `lamina ctl`'s connection (blocking). One thin wrapper per call; the file descriptor is
/// the caller's to close with `close()`.
public struct UnixSocket: Sendable {
    /// The socket's descriptor.
    public let descriptor: Int32

    /// What a peer is, from the kernel (`SO_PEERCRED`): fixed when it connected.
    public struct Credentials: Sendable, Equatable {
        /// The peer's process.
        public var pid: Int32
        /// The peer's user.
        public var uid: UInt32
        /// The peer's primary group.
        public var gid: UInt32

        /// Credentials of process `pid` running as `uid`, `gid`.
        public init(pid: Int32, uid: UInt32, gid: UInt32) {
            self.pid = pid
            self.uid = uid
            self.gid = gid
        }
    }

    /// The outcome of a non-blocking read or write.
    public enum Transfer: Sendable, Equatable {
        /// This many bytes moved.
        case moved(Int)
        /// Nothing can move now (`EAGAIN`).
        case wouldBlock
        /// The peer closed its end.
        case closed
        /// The call failed.
        case failed(Errno)
    }

    private init(_ descriptor: Int32) { self.descriptor = descriptor }

    /// Longest path a socket address holds (`sun_path`, less its terminating zero).
    public static let maximumPathLength = MemoryLayout.size(ofValue: sockaddr_un().sun_path) - 1

    private static func withAddress<T>(_ path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) -> T) throws(Errno) -> T {
        let bytes = Array(path.utf8)
        guard !bytes.isEmpty, bytes.count <= maximumPathLength, !bytes.contains(0) else { throw Errno.fileNameTooLong }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, b) in bytes.enumerated() { raw[i] = b }
        }
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
    }

    /// A non-blocking listener at `path` with permissions `mode` (set before any peer can
    /// connect: the socket is made under a private name and renamed into place). A socket
    /// left at `path` by an earlier run is replaced; anything else there is an error.
    public static func listen(path: String, mode: UInt32, backlog: Int32 = 16) throws(Errno) -> UnixSocket {
        var info = stat()
        if lstat(path, &info) == 0 {
            guard info.st_mode & S_IFMT == S_IFSOCK else { throw Errno.fileExists }
        }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw Errno(rawValue: errno) }
        let staging = path + ".new"
        unlink(staging)
        func fail(_ error: Errno) -> Errno {
            Glibc.close(fd)
            unlink(staging)
            return error
        }
        let bound: Int32
        do {
            bound = try withAddress(staging) { bind(fd, $0, $1) }
        } catch {
            throw fail(error)
        }
        guard bound == 0 else { throw fail(Errno(rawValue: errno)) }
        guard chmod(staging, mode_t(mode)) == 0, rename(staging, path) == 0 else { throw fail(Errno(rawValue: errno)) }
        guard Glibc.listen(fd, backlog) == 0 else { throw fail(Errno(rawValue: errno)) }
        return UnixSocket(fd)
    }

    /// A connection to the listener at `path`: blocking (`lamina ctl`), or not (a client in
    /// the same thread as the daemon's loop: the tests).
    public static func connect(path: String, nonBlocking: Bool = false) throws(Errno) -> UnixSocket {
        try addressed(Int32(SOCK_STREAM.rawValue) | (nonBlocking ? Int32(SOCK_NONBLOCK.rawValue) : 0), path: path) {
            Glibc.connect($0, $1, $2)
        }
    }

    /// A new socket of `type` (close-on-exec) given to `call` with `path`'s address: bound or
    /// connected there; closed again when `call` fails.
    private static func addressed(_ type: Int32, path: String,
                                  _ call: (Int32, UnsafePointer<sockaddr>, socklen_t) -> Int32) throws(Errno) -> UnixSocket {
        let fd = socket(AF_UNIX, type | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw Errno(rawValue: errno) }
        let status: Int32
        do {
            status = try withAddress(path) { call(fd, $0, $1) }
        } catch {
            Glibc.close(fd)
            throw error
        }
        guard status == 0 else {
            let e = errno
            Glibc.close(fd)
            throw Errno(rawValue: e)
        }
        return UnixSocket(fd)
    }

    /// A non-blocking datagram socket bound at `path` (a stand-in for systemd's notify socket
    /// in tests); `removeFile(at:)` takes the path away after `close()`.
    public static func bindDatagram(path: String) throws(Errno) -> UnixSocket {
        try addressed(Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), path: path) { bind($0, $1, $2) }
    }

    /// Removes the socket file at `path` (nothing when there is none).
    public static func removeFile(at path: String) {
        unlink(path)
    }

    /// Waits up to `seconds` for something to read; true when there is.
    public func waitUntilReadable(seconds: Double) -> Bool {
        var pending = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        let result = poll(&pending, 1, Int32(max(0, min(seconds * 1000, Double(Int32.max)))))
        return result > 0
    }

    /// The next waiting connection, non-blocking; nil when none waits.
    public func accept() throws(Errno) -> UnixSocket? {
        let fd = lamina_accept_nonblocking(descriptor)
        guard fd >= 0 else {
            if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR || errno == ECONNABORTED { return nil }
            throw Errno(rawValue: errno)
        }
        return UnixSocket(fd)
    }

    /// The connected peer's process, user and group.
    public func peerCredentials() -> Credentials? {
        var pid: Int32 = 0, uid: UInt32 = 0, gid: UInt32 = 0
        guard lamina_peer_credentials(descriptor, &pid, &uid, &gid) == 0 else { return nil }
        return Credentials(pid: pid, uid: uid, gid: gid)
    }

    /// Reads what has arrived into `buffer` (up to its size).
    public func receive(into buffer: inout [UInt8]) -> Transfer {
        let n = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        if n > 0 { return .moved(n) }
        if n == 0 { return .closed }
        if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { return .wouldBlock }
        return .failed(Errno(rawValue: errno))
    }

    /// Writes as much of `bytes` as the socket takes now (never raising SIGPIPE).
    public func send(_ bytes: ArraySlice<UInt8>) -> Transfer {
        let n = bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        if n >= 0 { return .moved(n) }
        if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { return .wouldBlock }
        if errno == EPIPE || errno == ECONNRESET { return .closed }
        return .failed(Errno(rawValue: errno))
    }

    /// Closes the descriptor.
    public func close() {
        Glibc.close(descriptor)
    }

    /// Sends `bytes` as one datagram to the socket at `address` (a path's bytes, or with a
    /// leading 0 byte a name in the abstract namespace), from a socket of its own that is
    /// closed at once, never blocking (a full receiver drops it); true when all was sent.
    /// `sd_notify`'s transport.
    public static func sendDatagram(_ bytes: [UInt8], to address: [UInt8]) -> Bool {
        guard !address.isEmpty, address.count <= maximumPathLength else { return false }
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { Glibc.close(fd) }
        var target = sockaddr_un()
        target.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &target.sun_path) { raw in
            for (i, b) in address.enumerated() { raw[i] = b }
        }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + address.count)
        let sent = withUnsafePointer(to: &target) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
                sendto(fd, bytes, bytes.count, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT), generic, length)
            }
        }
        return sent == bytes.count
    }

    /// Whether user `uid` is in group `gid`, as its primary group or a supplementary one
    /// (the account database: `getpwuid_r`, `getgrouplist`).
    public static func user(_ uid: UInt32, isInGroup gid: UInt32) -> Bool {
        var record = passwd()
        var result: UnsafeMutablePointer<passwd>?
        var storage = [CChar](repeating: 0, count: 16 * 1024)
        guard getpwuid_r(uid, &record, &storage, storage.count, &result) == 0, result != nil, let name = record.pw_name else {
            return false
        }
        if record.pw_gid == gid { return true }
        var count: Int32 = 256
        var groups = [gid_t](repeating: 0, count: Int(count))
        guard getgrouplist(name, record.pw_gid, &groups, &count) >= 0 else { return false }
        return groups.prefix(Int(count)).contains(gid)
    }

    /// The id of the group named `name`, or nil.
    public static func groupID(named name: String) -> UInt32? {
        var record = group()
        var result: UnsafeMutablePointer<group>?
        var storage = [CChar](repeating: 0, count: 16 * 1024)
        guard getgrnam_r(name, &record, &storage, storage.count, &result) == 0, result != nil else { return nil }
        return record.gr_gid
    }

    /// This process's effective user and group.
    public static var ownIdentity: (uid: UInt32, gid: UInt32) { (geteuid(), getegid()) }
}
