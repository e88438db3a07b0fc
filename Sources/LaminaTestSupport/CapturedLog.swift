import Foundation
import Logging

/// A logger whose lines are kept for the test to read: "<level>: <message>" each.
public final class CapturedLog: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [String] = []

    public init() {}

    /// The lines logged so far.
    public var lines: [String] { lock.withLock { stored } }

    /// Lines containing `text`.
    public func count(containing text: String) -> Int { lines.filter { $0.contains(text) }.count }

    func append(_ line: String) { lock.withLock { stored.append(line) } }

    /// A logger writing into this log at `level` and above.
    public func logger(level: Logger.Level = .debug) -> Logger {
        var logger = Logger(label: "lamina-test") { _ in Handler(log: self) }
        logger.logLevel = level
        return logger
    }

    struct Handler: LogHandler {
        let log: CapturedLog
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .debug

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            log.append("\(event.level): \(event.message)")
        }
    }
}
