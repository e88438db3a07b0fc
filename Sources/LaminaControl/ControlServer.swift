import Logging
import LaminaSystem
import CLinux
import SystemPackage
#if canImport(Glibc)
import Glibc
#endif

/// The control socket (`docs/control.md`): a Unix stream socket speaking one JSON object per
/// line, request and reply, so a shell script or a service on the board can drive the UI.
///
/// It never blocks the frame loop: every descriptor is non-blocking, each turn reads at most
/// `readBudget` bytes from a client, a reply that cannot be written now waits in the client's
/// queue, and a client whose queue passes `maximumQueued` (a reader that stopped reading) is
/// dropped with a log line. Lines are bounded (`maximumLine`): a longer one gets an error
/// reply and is skipped to its end, the connection kept. At most `maximumClients` at once.
/// Only the socket's permissions and the peer's credentials (`SO_PEERCRED`: root, this
/// process's user, or a member of the allowed group) let a peer in.
public final class ControlServer {
    /// Turns a request into its reply, given a way to subscribe the client to events and the
    /// address a reply given later goes to; nil when the reply will come later (`reply(_:to:)`).
    typealias Responder = (_ request: [String: ControlValue], _ subscribe: (Set<String>) -> Void,
                           _ address: ReplyAddress) -> ControlValue?

    /// Where a reply given later goes: the client (if still connected) and the request's `id`.
    struct ReplyAddress: Sendable {
        let client: Int
        let id: ControlValue?
        /// Who asked (`SO_PEERCRED` when it connected): what it may do on its own, such as
        /// write in a folder, is what the daemon does for it.
        var peer: UnixSocket.Credentials? = nil
    }

    /// The protocol's version, in every `version` reply and the greeting.
    public static let protocolVersion = 1
    /// The longest request line, in bytes.
    public static let maximumLine = 64 * 1024
    /// Clients connected at once, besides the reserved ones.
    public static let maximumClients = 16
    /// Places kept beyond `maximumClients` for root and the daemon's own user, so clients
    /// that hold every place (idle or subscribed) never lock the operator out.
    public static let reservedClients = 4
    /// A client that has asked nothing for this long, and subscribed to nothing, is
    /// disconnected (seconds): an idle connection does not hold a place for ever.
    public static let idleTimeout = 60.0
    /// Bytes waiting to be written to one client before it is dropped.
    public static let maximumQueued = 4 << 20
    /// The reply to a line over `maximumLine` (after a read, or whole). Computed, not stored:
    /// a stored enum keeps its payload's pointer with tag bits LeakSanitizer cannot follow.
    static var lineTooLong: ControlValue {
        .object(["ok": .bool(false), "error": .string("a request line is at most \(maximumLine) bytes")])
    }
    /// Bytes read from one client in one turn of the loop.
    static let readBudget = 64 * 1024
    /// Requests answered in one turn of the loop, from all clients together.
    static let requestsPerTurn = 32
    /// Requests answered from one client in one turn of the loop.
    static let requestsPerClientPerTurn = 8

    /// The socket's path.
    public let path: String
    private let listener: UnixSocket
    /// The group whose members may connect (besides root and this process's user).
    private let allowedGroup: UInt32
    private let logger: Logger
    private var clients: [Client] = []
    private var nextClientID = 1
    /// Connections refused so far (for the log's pacing).
    private var refusals = 0
    /// Counts calls to `service`, to start with a different client each time.
    private var turn = 0
    private var readBuffer = [UInt8](repeating: 0, count: 64 * 1024)

    /// One connection.
    final class Client {
        let socket: UnixSocket
        let id: Int
        /// The peer's credentials when it connected.
        let peer: UnixSocket.Credentials
        /// Bytes received and not yet answered: whole lines, then the start of the next.
        private var input: [UInt8] = []
        /// Where the next line starts in `input`.
        private var consumed = 0
        /// Skipping the rest of an over-long line.
        private var discarding = false
        var output: [UInt8] = []
        var subscriptions: Set<String> = []
        var isClosing = false
        /// When it connected or last sent a request.
        var lastRequest: Double

        init(socket: UnixSocket, id: Int, peer: UnixSocket.Credentials, now: Double) {
            self.socket = socket
            self.id = id
            self.peer = peer
            lastRequest = now
        }

        /// Whether `input` holds a newline past `consumed` (kept up to date, so the loop can
        /// ask every turn for nothing).
        private(set) var hasCompleteLine = false

        /// Adds received bytes; true when that made a line longer than `maximumLine` (it is
        /// then skipped up to its newline, and the caller replies with an error once).
        func append(_ bytes: ArraySlice<UInt8>) -> Bool {
            var bytes = bytes
            if discarding {
                guard let newline = Self.firstNewline(in: bytes) else { return false }
                discarding = false
                bytes = bytes[(newline + 1)...]
            }
            if consumed > 0 {
                input.removeSubrange(0..<consumed)
                consumed = 0
            }
            let lastNewline = Self.lastNewline(in: bytes).map { input.count + ($0 - bytes.startIndex) }
            input += bytes
            if lastNewline != nil { hasCompleteLine = true }
            let unfinished = lastNewline.map { $0 + 1 } ?? Self.lastNewline(in: input[...]).map { $0 + 1 } ?? 0
            guard input.count - unfinished > ControlServer.maximumLine else { return false }
            // The line being received is already too long: drop it and skip to its end.
            input.removeSubrange(unfinished...)
            discarding = true
            return true
        }

        /// The next whole line that is not blank (without its newline), consumed; nil when
        /// none is waiting. (A whole line may pass the limit by up to one read; the caller
        /// refuses it.)
        func nextLine() -> ArraySlice<UInt8>? {
            while let newline = Self.firstNewline(in: input[consumed...]) {
                let line = input[consumed..<newline]
                consumed = newline + 1
                if line.allSatisfy({ $0 == 0x20 || $0 == 0x0D || $0 == 0x09 }) { continue }
                hasCompleteLine = Self.firstNewline(in: input[consumed...]) != nil
                return line
            }
            hasCompleteLine = false
            return nil
        }

        /// The index of the first newline in `bytes` (`memchr`: the buffers are up to
        /// 128 KiB and searched every turn).
        static func firstNewline(in bytes: ArraySlice<UInt8>) -> Int? {
            bytes.withUnsafeBufferPointer { buffer in
                guard let base = buffer.baseAddress, let hit = memchr(base, 0x0A, buffer.count) else { return nil }
                return bytes.startIndex + (UnsafeRawPointer(hit) - UnsafeRawPointer(base))
            }
        }

        /// The index of the last newline in `bytes` (`memrchr`).
        static func lastNewline(in bytes: ArraySlice<UInt8>) -> Int? {
            bytes.withUnsafeBufferPointer { buffer in
                guard let base = buffer.baseAddress, let hit = lamina_memrchr(base, 0x0A, buffer.count) else { return nil }
                return bytes.startIndex + (UnsafeRawPointer(hit) - UnsafeRawPointer(base))
            }
        }
    }

    /// Listens at `path` with mode `mode` (0660: the owner and the group), letting in root,
    /// this process's user and members of `group` (nil: this process's group).
    public init(path: String, mode: UInt32 = 0o660, group: UInt32? = nil, logger: Logger) throws(Errno) {
        listener = try UnixSocket.listen(path: path, mode: mode)
        self.path = path
        allowedGroup = group ?? UnixSocket.ownIdentity.gid
        self.logger = logger
    }

    deinit {
        for client in clients { client.socket.close() }
        listener.close()
        _ = Paths.remove(path)
    }

    /// Connected clients.
    public var clientCount: Int { clients.count }

    /// What the loop waits on: the listener and every client.
    var descriptors: [Int32] { [listener.descriptor] + clients.map(\.socket.descriptor) }

    /// Whether some reply is still waiting to be written (the loop then wakes again soon).
    var hasPendingOutput: Bool { clients.contains { !$0.output.isEmpty } }

    /// Accepts, reads and answers: `respond` turns each request (a JSON object) into its
    /// reply, and may subscribe the client to events. At most `requestsPerTurn` requests are
    /// answered in one call, `requestsPerClientPerTurn` from any one client, the clients taken
    /// in turn from a different first one each call; what is left waits in the client's buffer
    /// (or the kernel's: a client with a complete line waiting is not read), and
    /// `hasPendingInput` asks the loop to come back at once.
    func service(now: Double, _ respond: Responder) {
        acceptWaiting(now: now)
        for client in clients where client.subscriptions.isEmpty && now - client.lastRequest >= Self.idleTimeout {
            logger.debug("control socket: client \(client.id) asked nothing for \(Int(Self.idleTimeout)) s: disconnected")
            client.isClosing = true
        }
        var answered = 0
        let first = clients.isEmpty ? 0 : turn % clients.count
        turn &+= 1
        for client in clients[first...] + clients[..<first] where !client.isClosing {
            guard answered < Self.requestsPerTurn else { break }
            var budget = min(Self.requestsPerClientPerTurn, Self.requestsPerTurn - answered)
            var received = 0
            while budget > 0 {
                if let line = client.nextLine() {
                    client.lastRequest = now
                    answer(line, from: client, respond)
                    budget -= 1
                    answered += 1
                    continue
                }
                guard received < Self.readBudget else { break }
                switch client.socket.receive(into: &readBuffer) {
                case .moved(let n):
                    received += n
                    if client.append(readBuffer[0..<n]) {
                        reply(Self.lineTooLong, to: client)
                    }
                    continue
                case .wouldBlock:
                    break
                case .closed, .failed:
                    client.isClosing = true
                }
                break
            }
        }
        flush()
    }

    /// Whether a client has a whole request waiting in its buffer (the loop comes back for it
    /// at once rather than sleeping: the kernel will not say the socket is readable).
    var hasPendingInput: Bool { clients.contains { !$0.isClosing && $0.hasCompleteLine } }

    /// Sends `event` to every client subscribed to its kind.
    func publish(_ kind: String, _ fields: [String: ControlValue]) {
        var event = fields
        event["event"] = .string(kind)
        let line = ControlValue.object(event).jsonLine
        for client in clients where client.subscriptions.contains(kind) || client.subscriptions.contains("all") {
            queue(line, to: client)
        }
        flush()
    }

    /// When the next idle client is due to be disconnected, if any.
    var nextIdleDeadline: Double? {
        clients.filter { $0.subscriptions.isEmpty && !$0.isClosing }.map { $0.lastRequest + Self.idleTimeout }.min()
    }

    private func acceptWaiting(now: Double) {
        while true {
            let socket: UnixSocket?
            do {
                socket = try listener.accept()
            } catch {
                logger.warning("control socket: accept failed: \(error)")
                return
            }
            guard let socket else { return }
            let id = nextClientID
            nextClientID += 1
            guard let peer = socket.peerCredentials(), admits(peer) else {
                let who = socket.peerCredentials().map { "uid \($0.uid) pid \($0.pid)" } ?? "unknown peer"
                noteRefusal("refused \(who): not root, not this user, not in the allowed group")
                _ = socket.send(ArraySlice(Array((ControlValue.object(["ok": .bool(false), "error": .string("permission denied")]).jsonLine + "\n").utf8)))
                socket.close()
                continue
            }
            let reserved = Self.mayUseReservedPlace(peer, ownUser: UnixSocket.ownIdentity.uid)
            guard clients.count < Self.maximumClients || reserved && clients.count < Self.maximumClients + Self.reservedClients else {
                noteRefusal("refused uid \(peer.uid) pid \(peer.pid): \(clients.count) clients already")
                _ = socket.send(ArraySlice(Array((ControlValue.object(["ok": .bool(false), "error": .string("too many clients")]).jsonLine + "\n").utf8)))
                socket.close()
                continue
            }
            let client = Client(socket: socket, id: id, peer: peer, now: now)
            clients.append(client)
            logger.debug("control socket: client \(id) (uid \(peer.uid), pid \(peer.pid)) connected")
        }
    }

    /// Logs a refused connection: the 1st, 2nd, 4th, 8th… of them, with the count, so a flood
    /// of connections cannot flood the journal.
    private func noteRefusal(_ what: String) {
        refusals += 1
        guard refusals & (refusals - 1) == 0 else { return }
        logger.warning("control socket: \(what) (\(refusals) connection\(refusals == 1 ? "" : "s") refused so far)")
    }

    private func admits(_ peer: UnixSocket.Credentials) -> Bool {
        Self.admits(peer, ownUser: UnixSocket.ownIdentity.uid, allowedGroup: allowedGroup)
    }

    /// Whether `peer` may take one of the places kept for the operator: root or the daemon's
    /// own user (not the group's members, who share the general places).
    public static func mayUseReservedPlace(_ peer: UnixSocket.Credentials, ownUser: UInt32) -> Bool {
        peer.uid == 0 || peer.uid == ownUser
    }

    /// Whether `peer` may use the socket: root, the daemon's own user, or a member of
    /// `allowedGroup` (as its primary group or a supplementary one).
    public static func admits(_ peer: UnixSocket.Credentials, ownUser: UInt32, allowedGroup: UInt32) -> Bool {
        peer.uid == 0 || peer.uid == ownUser || peer.gid == allowedGroup
            || UnixSocket.user(peer.uid, isInGroup: allowedGroup)
    }

    /// Answers one request line.
    private func answer(_ line: ArraySlice<UInt8>, from client: Client,
                        _ respond: Responder) {
        guard line.count <= Self.maximumLine else {
            return reply(Self.lineTooLong, to: client)
        }
        let request: ControlValue
        do {
            request = try ControlValue.parse(line)
        } catch {
            return reply(.object(["ok": .bool(false), "error": .string("not a JSON object: \(Self.describe(error))")]), to: client)
        }
        guard case .object(let fields) = request else {
            return reply(.object(["ok": .bool(false), "error": .string("a request is a JSON object")]), to: client)
        }
        let address = ReplyAddress(client: client.id, id: fields["id"], peer: client.peer)
        guard let answer = respond(fields, { client.subscriptions.formUnion($0) }, address) else { return }
        reply(answer, to: client, id: address.id)
    }

    /// Sends a reply given later to the client that asked (nothing if it has gone).
    func reply(_ answer: ControlValue, to address: ReplyAddress) {
        guard let client = clients.first(where: { $0.id == address.client }) else { return }
        reply(answer, to: client, id: address.id)
        flush()
    }

    private static func describe(_ error: any Error) -> String {
        let text = "\(error)"
        return text.count > 200 ? String(text.prefix(200)) + "…" : text
    }

    /// Queues `value` for `client`, carrying the request's `id` when it had one.
    private func reply(_ value: ControlValue, to client: Client, id: ControlValue? = nil) {
        var value = value
        if let id, case .object(var fields) = value {
            fields["id"] = id
            value = .object(fields)
        }
        queue(value.jsonLine, to: client)
    }

    private func queue(_ line: String, to client: Client) {
        guard !client.isClosing else { return }
        client.output += Array(line.utf8) + [0x0A]
        if client.output.count > Self.maximumQueued {
            logger.warning("control socket: client \(client.id) stopped reading (\(client.output.count) bytes waiting): dropped")
            client.isClosing = true
            client.output = []
        }
    }

    /// Writes what the sockets take now; closes clients that are done or gone.
    private func flush() {
        for client in clients where !client.output.isEmpty && !client.isClosing {
            switch client.socket.send(client.output[...]) {
            case .moved(let n): client.output.removeFirst(n)
            case .wouldBlock: break
            case .closed, .failed: client.isClosing = true
            }
        }
        for client in clients where client.isClosing {
            client.socket.close()
            logger.debug("control socket: client \(client.id) gone")
        }
        clients.removeAll { $0.isClosing }
    }
}
