import LaminaSystem
import Logging

/// Log lines for the systemd journal: each line on standard error starts with the syslog
/// priority in angle brackets (`<4>` warning, `<6>` info), which journald reads as the
/// entry's priority (`SyslogLevelPrefix=`), so `journalctl -p warning` and colouring work;
/// no timestamp (the journal has its own). Used when systemd connects standard error to the
/// journal (`$JOURNAL_STREAM`); a terminal gets swift-log's ordinary lines.
public struct JournalLogHandler: LogHandler {
    public var logLevel: Logger.Level = .info
    public var metadata: Logger.Metadata = [:]

    /// A handler writing to standard error, which systemd connects to the journal.
    public init() {}

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    /// The syslog priority of a level (RFC 5424: 2 critical … 7 debug).
    public static func priority(_ level: Logger.Level) -> Int {
        switch level {
        case .trace, .debug: return 7
        case .info: return 6
        case .notice: return 5
        case .warning: return 4
        case .error: return 3
        case .critical: return 2
        }
    }

    /// One journal line: priority prefix, message, metadata as `key=value`; newlines inside
    /// the message become spaces (one entry per event).
    public static func line(level: Logger.Level, message: Logger.Message, metadata: Logger.Metadata) -> String {
        let text = "\(message)".replacing("\n", with: " ")
        let extra = metadata.sorted { $0.key < $1.key }.map { " \($0.key)=\($0.value)" }.joined()
        return "<\(priority(level))>\(text)\(extra)\n"
    }

    /// Writes the event as one journal line, the handler's metadata under the event's.
    public func log(event: LogEvent) {
        let merged = metadata.merging(event.metadata ?? [:]) { $1 }
        let bytes = Array(Self.line(level: event.level, message: event.message, metadata: merged).utf8)
        StandardError.write(bytes: bytes)                               // one write per line
    }
}
