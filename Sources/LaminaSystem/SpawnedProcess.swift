import CLinux
import SystemPackage
#if canImport(Glibc)
import Glibc
#endif

/// A child process started with `posix_spawn`: standard input from `/dev/null`, standard
/// output and standard error on pipes whose read ends the parent holds (closed on exec, so
/// no other child inherits them). The one place a process is started (the scene files'
/// helper; the tests' child processes).
public struct SpawnedProcess: Sendable {
    /// The child's process id.
    public let pid: pid_t
    /// The read end of the child's standard output.
    public let output: Int32
    /// The read end of the child's standard error.
    public let errorOutput: Int32

    /// Starts `executable` with `arguments`, with `environment` (`KEY=VALUE` entries; nil
    /// passes this process's own) in `directory` (nil: this process's). Throws when it
    /// cannot be started.
    public init(_ executable: String, _ arguments: [String], environment: [String]? = nil,
                directory: String? = nil) throws(Errno) {
        var outPipe: [Int32] = [0, 0], errPipe: [Int32] = [0, 0]
        guard pipe(&outPipe) == 0 else { throw Errno(rawValue: errno) }
        guard pipe(&errPipe) == 0 else {
            let e = errno
            close(outPipe[0]); close(outPipe[1])
            throw Errno(rawValue: e)
        }
        // Closed on exec: the child gets them only as its 1 and 2 (dup2 clears the flag).
        for fd in outPipe + errPipe { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errPipe[1], 2)
        if let directory { lamina_spawn_addchdir(&actions, directory) }
        var cArgs = ([executable] + arguments).map { strdup($0) } + [nil]
        var cEnv = (environment ?? []).map { strdup($0) } + [nil]
        defer { (cArgs + cEnv).forEach { free($0) } }
        var child: pid_t = 0
        let status = environment == nil
            ? posix_spawn(&child, executable, &actions, nil, &cArgs, environ)
            : posix_spawn(&child, executable, &actions, nil, &cArgs, &cEnv)
        close(outPipe[1])
        close(errPipe[1])
        guard status == 0 else {
            close(outPipe[0])
            close(errPipe[0])
            throw Errno(rawValue: status)
        }
        pid = child
        output = outPipe[0]
        errorOutput = errPipe[0]
    }

    /// Reads the child's standard output and error until both end, at most `outputLimit` and
    /// `errorLimit` bytes of each kept, or until `timeout` seconds pass (then, or when the
    /// output passes its limit, `exceededLimits` is true and the caller decides the child's
    /// fate). Both pipes are closed when it returns.
    public func collectOutput(outputLimit: Int = .max, errorLimit: Int = .max,
                              timeout: Double? = nil) -> (output: [UInt8], errorOutput: [UInt8], exceededLimits: Bool) {
        var output: [UInt8] = [], errorOutput: [UInt8] = [], exceeded = false
        var fds = [pollfd(fd: self.output, events: Int16(POLLIN), revents: 0),
                   pollfd(fd: self.errorOutput, events: Int16(POLLIN), revents: 0)]
        let clock = SystemClock()
        let deadline = timeout.map { clock.now + $0 }
        var buffer = [UInt8](repeating: 0, count: 65536)
        while fds.contains(where: { $0.fd >= 0 }) {
            var wait: Int32 = -1
            if let deadline {
                let left = deadline - clock.now
                if left <= 0 {
                    exceeded = true
                    break
                }
                wait = Int32(min(left * 1000 + 1, 60_000))
            }
            if poll(&fds, 2, wait) < 0 && errno != EINTR { break }
            for i in 0..<2 where fds[i].fd >= 0 && fds[i].revents != 0 {
                let n = read(fds[i].fd, &buffer, buffer.count)
                if n > 0 {
                    if i == 0 {
                        output += buffer[0..<n].prefix(max(0, outputLimit - output.count))
                        if output.count >= outputLimit { exceeded = true }
                    } else {
                        errorOutput += buffer[0..<n].prefix(max(0, errorLimit - errorOutput.count))
                    }
                } else if n == 0 || errno != EINTR {
                    close(fds[i].fd)
                    fds[i].fd = -1
                }
            }
            if exceeded { break }
        }
        for fd in fds where fd.fd >= 0 { close(fd.fd) }
        return (output, errorOutput, exceeded)
    }

    /// Sends `signal` to the child.
    public func signal(_ signal: Int32) {
        kill(pid, signal)
    }

    /// Waits for the child to end (the caller has closed or drained the pipes): its exit
    /// status, or 128 + the signal that ended it.
    public func wait() -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    }
}
