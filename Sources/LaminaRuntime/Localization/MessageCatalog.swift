import LaminaSystem

/// Why a message catalog could not be read.
public struct MessageCatalogError: Error, CustomStringConvertible, Sendable {
    /// The catalog file.
    public var path: String
    /// What is wrong with it.
    public var reason: String
    public var description: String { "\(path): \(reason)" }
}

/// A GNU gettext message catalog: the `.mo` file `msgfmt` compiles a translator's `.po` file
/// into (the GNU gettext manual, "The Format of GNU MO Files"), read whole and checked: every
/// offset and length inside the file, every string UTF-8. Lookups are by the source string
/// (`msgid`); a plural entry answers with its first form, an entry with a context
/// (`msgctxt`) is not used, and the header (the empty `msgid`) is not a translation.
///
/// Lamina reads catalogs itself instead of through the C library's `gettext`: that one
/// translates only into a locale the system has generated, takes its language from
/// process-wide state that cannot change safely while other threads run, and reports nothing
/// about a bad file.
public struct MessageCatalog: Sendable {
    /// Translations by source string.
    public let translations: [String: String]

    /// The largest catalog read.
    public static let maximumBytes = 16 * 1024 * 1024
    /// The most entries one catalog may hold.
    public static let maximumEntries = 65_536

    /// The catalog in the file at `path`.
    public init(path: String) throws(MessageCatalogError) {
        let bytes: [UInt8]
        do { bytes = try InputFile.bytes(atPath: path, limit: Self.maximumBytes) } catch {
            throw MessageCatalogError(path: path, reason: error.reason)
        }
        do { translations = try Self.parse(bytes) } catch { throw MessageCatalogError(path: path, reason: error.reason) }
    }

    /// A catalog of the given translations (tests, and apps that build theirs in code).
    public init(translations: [String: String]) { self.translations = translations }

    /// The translation of `source`, or nil when the catalog has none.
    public func translation(of source: String) -> String? { translations[source] }

    struct ParseError: Error { var reason: String }

    static func parse(_ bytes: [UInt8]) throws(ParseError) -> [String: String] {
        func word(_ at: Int, swapped: Bool) throws(ParseError) -> Int {
            guard at >= 0, at + 4 <= bytes.count else { throw ParseError(reason: "ends inside its header or tables") }
            let value = UInt32(bytes[at]) | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at + 2]) << 16 | UInt32(bytes[at + 3]) << 24
            return Int(swapped ? value.byteSwapped : value)
        }
        guard bytes.count >= 28 else { throw ParseError(reason: "is \(bytes.count) bytes, shorter than a catalog's header") }
        let magic = try word(0, swapped: false)
        guard magic == 0x9504_12DE || magic == 0xDE12_0495 else {
            throw ParseError(reason: "is not a GNU message catalog (compile the .po file with msgfmt)")
        }
        let swapped = magic == 0xDE12_0495
        guard try word(4, swapped: swapped) >> 16 <= 1 else { throw ParseError(reason: "has a format revision this Lamina cannot read") }
        let count = try word(8, swapped: swapped)
        guard count <= maximumEntries else { throw ParseError(reason: "holds \(count) entries; a catalog may hold \(maximumEntries)") }
        let originals = try word(12, swapped: swapped), translated = try word(16, swapped: swapped)
        func string(_ table: Int, _ index: Int) throws(ParseError) -> [UInt8] {
            let length = try word(table + index * 8, swapped: swapped), offset = try word(table + index * 8 + 4, swapped: swapped)
            guard offset <= bytes.count, length < bytes.count - offset else {
                throw ParseError(reason: "entry \(index) points outside the file")
            }
            return Array(bytes[offset..<(offset + length)])
        }
        var found: [String: String] = [:]
        for index in 0..<count {
            let source = try string(originals, index), target = try string(translated, index)
            // The singular and the first plural form; context entries (with U+0004) are skipped.
            let key = source.split(separator: 0, maxSplits: 1, omittingEmptySubsequences: false)[0]
            let value = target.split(separator: 0, maxSplits: 1, omittingEmptySubsequences: false)[0]
            guard !key.isEmpty, !key.contains(4) else { continue }
            guard let k = String(validating: key, as: UTF8.self), let v = String(validating: value, as: UTF8.self) else {
                throw ParseError(reason: "entry \(index) is not UTF-8 (write `charset=UTF-8` in the .po file's header)")
            }
            if !v.isEmpty { found[k] = v }
        }
        return found
    }
}
