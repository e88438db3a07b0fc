/// Why a video cannot be played: a source that is not one, GStreamer missing, or what
/// GStreamer said while opening or decoding it.
public struct VideoError: Error, CustomStringConvertible, Equatable {
    /// One line saying what went wrong.
    public var description: String

    /// An error saying `description`.
    public init(_ description: String) { self.description = description }
}

/// Where a video comes from, checked where it enters: an absolute file path or a `file:`,
/// `http:`, `https:`, `rtsp:` or `rtsps:` URL, at most 4,096 bytes, with no control
/// characters. It is turned into the URI GStreamer opens, percent-encoded where a pipeline
/// description would read a character as its own (spaces, quotes, `!`).
public struct VideoSource: Equatable, Sendable, CustomStringConvertible {
    /// The most bytes a source may have.
    public static let maximumBytes = 4096
    /// The URL schemes a source may name.
    public static let schemes = ["file", "http", "https", "rtsp", "rtsps"]

    /// The source as written.
    public let text: String
    /// The URI GStreamer is given.
    public let uri: String

    public var description: String { text }

    /// A source from `text`: an absolute path, or a URL of one of ``schemes``.
    public init(_ text: String) throws(VideoError) {
        guard !text.isEmpty, text.utf8.count <= Self.maximumBytes else {
            throw VideoError("a video source has 1…\(Self.maximumBytes) bytes")
        }
        guard !text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
            throw VideoError("a video source has no control characters")
        }
        self.text = text
        if text.hasPrefix("/") {
            uri = "file://" + Self.percentEncoded(text)
            return
        }
        guard let colon = text.firstIndex(of: ":"),
              Self.schemes.contains(text[..<colon].lowercased()),
              text[colon...].hasPrefix("://") else {
            throw VideoError("'\(text.prefix(80))' is neither an absolute path nor a \(Self.schemes.joined(separator: ", ")) URL")
        }
        uri = Self.percentEncoded(text)
    }

    /// `text` with every byte a pipeline description reads specially (space, quotes,
    /// backslash, `!`) and every byte outside ASCII written as `%XX`.
    static func percentEncoded(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            if byte > 0x20 && byte < 0x7F && !"\"'\\! ".utf8.contains(byte) {
                out.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                out += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return out
    }
}

private extension String {
    func leftPadded(to width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
