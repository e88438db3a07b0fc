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
        let collected = process.collectOutput()
        return (process.wait(), String(decoding: collected.output, as: UTF8.self),
                String(decoding: collected.errorOutput, as: UTF8.self))
    }
}
