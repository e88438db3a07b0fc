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
        let collected = child.collectOutput(outputLimit: outputLimit, errorLimit: 4096, timeout: timeout)
        if collected.exceededLimits { child.signal(SIGKILL) }
        return Outcome(status: child.wait(), output: collected.output, errorOutput: collected.errorOutput,
                       exceededLimits: collected.exceededLimits)
    }

    /// The folder of the running program (`/proc/self/exe`'s), where its helpers are installed.
    public static var executableFolder: String? {
        Paths.resolvingLinks("/proc/self/exe").map(Paths.directory(of:))
    }
}
