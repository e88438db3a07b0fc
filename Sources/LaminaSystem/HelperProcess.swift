import SystemPackage
#if canImport(Glibc)
import Glibc
#endif

/// A short-lived helper program run to completion: the daemon hands work that needs a
/// library it does not link (the scene files' YAML reader, decision 107) to a child process,
/// so a crash or a runaway there costs the child, never the frame loop's process.
///
/// Output is bounded (what is beyond `outputLimit` is not kept and the run counts as failed)
/// and so is time: a child still running at `timeout` seconds is killed.
public enum HelperProcess {
    /// How a run ended.
    public struct Outcome: Sendable {
        /// The exit status, or 128 + the signal that ended it.
        public var status: Int32
        /// Standard output, up to the limit.
        public var output: [UInt8]
        /// Standard error, up to 4 KiB.
        public var errorOutput: [UInt8]
        /// True when the output passed the limit or the time ran out (the child was killed).
        public var exceededLimits: Bool
    }

    /// Runs `executable` with `arguments` and the daemon's environment, standard input from
    /// `/dev/null`. Throws when the program cannot be started.
    public static func run(_ executable: String, _ arguments: [String], outputLimit: Int,
                           timeout: Double) throws(Errno) -> Outcome {
        let child = try SpawnedProcess(executable, arguments)
        var outcome = Outcome(status: 0, output: [], errorOutput: [], exceededLimits: false)
        var fds = [pollfd(fd: child.output, events: Int16(POLLIN), revents: 0),
                   pollfd(fd: child.errorOutput, events: Int16(POLLIN), revents: 0)]
        let clock = SystemClock()
        let deadline = clock.now + timeout
        var buffer = [UInt8](repeating: 0, count: 65536)
        while fds.contains(where: { $0.fd >= 0 }) {
            let left = deadline - clock.now
            if left <= 0 {
                outcome.exceededLimits = true
                break
            }
            if poll(&fds, 2, Int32(min(left * 1000 + 1, 60_000))) < 0 && errno != EINTR { break }
            for i in 0..<2 where fds[i].fd >= 0 && fds[i].revents != 0 {
                let n = read(fds[i].fd, &buffer, buffer.count)
                if n > 0 {
                    if i == 0 {
                        outcome.output += buffer[0..<n].prefix(max(0, outputLimit - outcome.output.count))
                        if outcome.output.count >= outputLimit { outcome.exceededLimits = true }
                    } else {
                        outcome.errorOutput += buffer[0..<n].prefix(max(0, 4096 - outcome.errorOutput.count))
                    }
                } else if n == 0 || errno != EINTR {
                    close(fds[i].fd)
                    fds[i].fd = -1
                }
            }
            if outcome.exceededLimits { break }
        }
        for fd in fds where fd.fd >= 0 { close(fd.fd) }
        if outcome.exceededLimits { child.signal(SIGKILL) }
        outcome.status = child.wait()
        return outcome
    }

    /// The folder of the running program (`/proc/self/exe`'s), where its helpers are installed.
    public static var executableFolder: String? {
        Paths.resolvingLinks("/proc/self/exe").map(Paths.directory(of:))
    }
}
