import Logging
import LaminaSystem
import SystemPackage

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
    /// The protocol's version, in every `version` reply and the greeting.
    public static let protocolVersion = 1
    /// The longest request line, in bytes.
    public static let maximumLine = 64 * 1024
    /// Clients connected at once.
    public static let maximumClients = 16
    /// Bytes waiting to be written to one client before it is dropped.
    public static let maximumQueued = 4 << 20
    /// Bytes read from one client in one turn of the loop.
    static let readBudget = 256 * 1024

    /// The socket's path.
    public let path: String
    private let listener: UnixSocket
    /// The group whose members may connect (besides root and this process's user).
    private let allowedGroup: UInt32
    private let logger: Logger
    private var clients: [Client] = []
    private var nextClientID = 1

    /// One connection.
    final class Client {
        let socket: UnixSocket
        let id: Int
        var input: [UInt8] = []
        /// Skipping the rest of an over-long line.
        var discarding = false
        var output: [UInt8] = []
        var subscriptions: Set<String> = []
        var isClosing = false

        init(socket: UnixSocket, id: Int) {
            self.socket = socket
            self.id = id
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
    /// reply, and may subscribe the client to events.
    func service(_ respond: (_ request: [String: ControlValue], _ subscribe: (Set<String>) -> Void) -> ControlValue) {
        acceptWaiting()
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        for client in clients where !client.isClosing {
            var budget = Self.readBudget
            reading: while budget > 0 {
                switch client.socket.receive(into: &buffer) {
                case .moved(let n):
                    budget -= n
                    take(buffer[0..<n], from: client, respond)
                case .wouldBlock:
                    break reading
                case .closed, .failed:
                    client.isClosing = true
                    break reading
                }
            }
        }
        flush()
    }

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

    private func acceptWaiting() {
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
                logger.warning("control socket: refused \(who): not root, not this user, not in the allowed group")
                _ = socket.send(ArraySlice(Array((ControlValue.object(["ok": .bool(false), "error": .string("permission denied")]).jsonLine + "\n").utf8)))
                socket.close()
                continue
            }
            guard clients.count < Self.maximumClients else {
                logger.warning("control socket: refused uid \(peer.uid) pid \(peer.pid): \(Self.maximumClients) clients already")
                _ = socket.send(ArraySlice(Array((ControlValue.object(["ok": .bool(false), "error": .string("too many clients")]).jsonLine + "\n").utf8)))
                socket.close()
                continue
            }
            let client = Client(socket: socket, id: id)
            clients.append(client)
            logger.debug("control socket: client \(id) (uid \(peer.uid), pid \(peer.pid)) connected")
        }
    }

    private func admits(_ peer: UnixSocket.Credentials) -> Bool {
        Self.admits(peer, ownUser: UnixSocket.ownIdentity.uid, allowedGroup: allowedGroup)
    }

    /// Whether `peer` may use the socket: root, the daemon's own user, or a member of
    /// `allowedGroup` (as its primary group or a supplementary one).
    public static func admits(_ peer: UnixSocket.Credentials, ownUser: UInt32, allowedGroup: UInt32) -> Bool {
        peer.uid == 0 || peer.uid == ownUser || peer.gid == allowedGroup
            || UnixSocket.user(peer.uid, isInGroup: allowedGroup)
    }

    /// Splits what arrived into lines and answers each.
    private func take(_ bytes: ArraySlice<UInt8>, from client: Client,
                      _ respond: (_ request: [String: ControlValue], _ subscribe: (Set<String>) -> Void) -> ControlValue) {
        var rest = bytes
        while !rest.isEmpty {
            guard let newline = rest.firstIndex(of: 0x0A) else {
                if !client.discarding { client.input += rest }
                if client.input.count > Self.maximumLine {
                    reply(.object(["ok": .bool(false), "error": .string("a request line is at most \(Self.maximumLine) bytes")]), to: client)
                    client.input = []
                    client.discarding = true
                }
                return
            }
            let line = client.discarding ? [] : client.input + rest[rest.startIndex..<newline]
            let wasDiscarding = client.discarding
            client.input = []
            client.discarding = false
            rest = rest[rest.index(after: newline)...]
            if wasDiscarding || line.allSatisfy({ $0 == 0x20 || $0 == 0x0D || $0 == 0x09 }) { continue }
            guard line.count <= Self.maximumLine else {
                reply(.object(["ok": .bool(false), "error": .string("a request line is at most \(Self.maximumLine) bytes")]), to: client)
                continue
            }
            let request: ControlValue
            do {
                request = try ControlValue.parse(line)
            } catch {
                reply(.object(["ok": .bool(false), "error": .string("not a JSON object: \(Self.describe(error))")]), to: client)
                continue
            }
            guard case .object(let fields) = request else {
                reply(.object(["ok": .bool(false), "error": .string("a request is a JSON object")]), to: client)
                continue
            }
            var answer = respond(fields) { client.subscriptions.formUnion($0) }
            if let id = fields["id"], case .object(var reply) = answer {
                reply["id"] = id
                answer = .object(reply)
            }
            self.reply(answer, to: client)
        }
    }

    private static func describe(_ error: any Error) -> String {
        let text = "\(error)"
        return text.count > 200 ? String(text.prefix(200)) + "…" : text
    }

    private func reply(_ value: ControlValue, to client: Client) {
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
