import SystemPackage

/// The process's standard error, for the one-line messages a command ends with.
public enum StandardError {
    /// Writes `text` whole (short writes continued, EINTR retried); a failure is ignored,
    /// as there is nowhere left to report it.
    public static func write(_ text: String) {
        _ = try? FileDescriptor.standardError.writeAll(Array(text.utf8))
    }

    /// Writes `bytes` (one call where the kernel takes them whole, so a journal line stays
    /// one entry); a failure is ignored, as there is nowhere left to report it.
    public static func write(bytes: [UInt8]) {
        _ = try? FileDescriptor.standardError.writeAll(bytes)
    }
}
