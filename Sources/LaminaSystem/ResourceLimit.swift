#if canImport(Glibc)
import Glibc
#endif

/// The process's own resource limits (`setrlimit(2)`), for a short-lived helper that bounds
/// what a pathological input can cost it (the scene file reader).
public enum ResourceLimit {
    /// The address space, in bytes (`RLIMIT_AS`).
    case addressSpace
    /// CPU time, in seconds (`RLIMIT_CPU`).
    case cpuSeconds

    /// Sets both the soft and the hard limit to `value`; throws the call's error.
    public func set(_ value: UInt64) throws(SystemCallError) {
        var bound = rlimit(rlim_cur: rlim_t(value), rlim_max: rlim_t(value))
        let resource: __rlimit_resource_t
        switch self {
        case .addressSpace: resource = __rlimit_resource_t(RLIMIT_AS.rawValue)
        case .cpuSeconds: resource = __rlimit_resource_t(RLIMIT_CPU.rawValue)
        }
        guard setrlimit(resource, &bound) == 0 else { throw SystemCallError(call: "setrlimit", errno: errno) }
    }
}
