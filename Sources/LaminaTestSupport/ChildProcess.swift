import LaminaSystem
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A child process started with `posix_spawn`, its stdout and stderr read through pipes.
/// Foundation's `Process` needs a CFRunLoop wake-up socket pair, which is not always there
/// (it hangs inside the test VM), so the tests that start `lamina` use this instead.
public final class ChildProcess {
    private let process: SpawnedProcess
    /// The child's process id.
    public var pid: pid_t { process.pid }

    /// Starts `executable` with `arguments`, its environment the current one plus `environment`,
    /// in `directory` (the current one when nil).
    public init(_ executable: String, _ arguments: [String], environment: [String: String] = [:],
                directory: String? = nil) throws {
        let env = ProcessInfo.processInfo.environment.merging(environment) { $1 }.map { "\($0)=\($1)" }
        process = try SpawnedProcess(executable, arguments, environment: env, directory: directory)
    }

    /// Sends `signal` (SIGTERM by default).
    public func signal(_ signal: Int32 = SIGTERM) {
        process.signal(signal)
    }

    /// Reads both streams to their end, then reaps the child: its exit status (or 128 +
    /// the signal that killed it) and what it wrote.
    public func finish() -> (status: Int32, stdout: String, stderr: String) {
        var out = Data(), err = Data()
        var fds = [pollfd(fd: process.output, events: Int16(POLLIN), revents: 0),
                   pollfd(fd: process.errorOutput, events: Int16(POLLIN), revents: 0)]
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
        return (process.wait(), String(decoding: out, as: UTF8.self), String(decoding: err, as: UTF8.self))
    }
}
