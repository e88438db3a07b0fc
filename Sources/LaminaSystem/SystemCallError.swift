import SystemPackage

/// A system call that failed (opening a console, a VT ioctl, a libdrm call: `KMSError` is
/// this type), with its error number and what it was called on.
public struct SystemCallError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The call, such as `"open"` or `"VT_SETMODE"`.
    public var call: String
    /// The error number the call set.
    public var errno: Errno
    /// What it was called on (a path), or more about why.
    public var detail: String

    /// A failure of `call` with `errno`, and optionally what it was working on.
    public init(call: String, errno: Errno, detail: String = "") {
        self.call = call
        self.errno = errno
        self.detail = detail
    }

    /// A failure a C call reported as a raw error number (its return value or `errno`).
    public init(call: String, errno: Int32, detail: String = "") {
        self.init(call: call, errno: Errno(rawValue: errno), detail: detail)
    }

    public var description: String {
        "\(call) failed: errno \(errno.rawValue), \(errno)" + (detail.isEmpty ? "" : " (\(detail))")
    }
}
