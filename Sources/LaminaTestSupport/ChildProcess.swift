import CLinux
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A child process started with `posix_spawn`, its stdout and stderr read through pipes.
/// Foundation's `Process` needs a CFRunLoop wake-up socket pair, which is not always there
/// (it hangs inside the test VM), so the tests that start `lamina` use this instead.
public final class ChildProcess {
    public let pid: pid_t
    private let stdoutFD: Int32
    private let stderrFD: Int32

    /// Starts `executable` with `arguments`, its environment the current one plus `environment`,
    /// in `directory` (the current one when nil).
    public init(_ executable: String, _ arguments: [String], environment: [String: String] = [:],
                directory: String? = nil) throws {
        var outPipe: [Int32] = [0, 0], errPipe: [Int32] = [0, 0]
        guard pipe(&outPipe) == 0, pipe(&errPipe) == 0 else { throw POSIXError(.EMFILE) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errPipe[1], 2)
        for fd in outPipe + errPipe { posix_spawn_file_actions_addclose(&actions, fd) }
        if let directory { lamina_spawn_addchdir(&actions, directory) }
        let env = ProcessInfo.processInfo.environment.merging(environment) { $1 }.map { "\($0)=\($1)" }
        let argv = [executable] + arguments
        var cArgs = argv.map { strdup($0) } + [nil]
        var cEnv = env.map { strdup($0) } + [nil]
        defer { (cArgs + cEnv).forEach { free($0) } }
        var child: pid_t = 0
        let status = posix_spawn(&child, executable, &actions, nil, &cArgs, &cEnv)
        close(outPipe[1])
        close(errPipe[1])
        guard status == 0 else {
            close(outPipe[0])
            close(errPipe[0])
            throw POSIXError(POSIXErrorCode(rawValue: status) ?? .ENOENT)
        }
        pid = child
        stdoutFD = outPipe[0]
        stderrFD = errPipe[0]
    }

    /// Sends `signal` (SIGTERM by default).
    public func signal(_ signal: Int32 = SIGTERM) {
        kill(pid, signal)
    }

    /// Reads both streams to their end, then reaps the child: its exit status (or 128 +
    /// the signal that killed it) and what it wrote.
    public func finish() -> (status: Int32, stdout: String, stderr: String) {
        var out = Data(), err = Data()
        var fds = [pollfd(fd: stdoutFD, events: Int16(POLLIN), revents: 0),
                   pollfd(fd: stderrFD, events: Int16(POLLIN), revents: 0)]
        var open = 2
        var buffer = [UInt8](repeating: 0, count: 65536)
        while open > 0 {
            if poll(&fds, 2, -1) < 0 && errno != EINTR { break }
            for i in 0..<2 where fds[i].fd >= 0 && fds[i].revents != 0 {
                let n = read(fds[i].fd, &buffer, buffer.count)
                if n > 0 {
                    if i == 0 { out.append(contentsOf: buffer[0..<n]) } else { err.append(contentsOf: buffer[0..<n]) }
                } else if n == 0 || errno != EINTR {
                    close(fds[i].fd)
                    fds[i].fd = -1
                    open -= 1
                }
            }
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let code = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        return (code, String(decoding: out, as: UTF8.self), String(decoding: err, as: UTF8.self))
    }
}
