import LaminaSystem
import Logging

/// The translations of one program's or one scene file's strings into the language in use:
/// the catalog `<folder>/<language>.mo` (`msgfmt de.po -o locale/de.mo`), found for a
/// language tag with its region or without it (`de_AT.UTF-8` finds `de_AT.mo`, then
/// `de.mo`). Strings it has no translation for stay as written, each logged once per
/// language.
public final class Translations {
    /// The folder the catalogs are in.
    public let folder: String
    /// The language asked for last (nil: the strings as written).
    public private(set) var language: String?
    /// The catalog in use (nil: none for the language).
    public private(set) var catalog: MessageCatalog?
    /// Where missing translations are logged.
    private let logger: Logger?
    /// Strings reported missing in the language in use (at most `maximumReported`).
    private var reported: Set<String> = []
    /// The most missing strings logged for one language.
    public static let maximumReported = 1024

    /// Translations from the catalogs in `folder`, in no language until `use(language:)`.
    public init(folder: String, logger: Logger? = nil) {
        self.folder = folder
        self.logger = logger
    }

    /// Switches to `language` (nil or `C`: the strings as written), reading its catalog; a
    /// language with no catalog in the folder shows the strings as written. A catalog that
    /// cannot be read is an error, and the language in use is kept.
    public func use(language: String?) throws(MessageCatalogError) {
        var found: MessageCatalog?
        if let language, language != "C", language != "POSIX" {
            for tag in Self.candidates(language) {
                let path = Paths.joined(folder, tag + ".mo")
                guard (try? Paths.regularFileSize(path)) ?? nil != nil else { continue }
                found = try MessageCatalog(path: path)
                break
            }
            if found == nil { logger?.notice("translations: no catalog for '\(language)' in \(folder): strings as written") }
        }
        self.language = language
        catalog = found
        reported.removeAll()
    }

    /// `source` in the language in use; as written when the catalog has no translation
    /// (logged the first time).
    public func translate(_ source: String) -> String {
        if let translated = catalog?.translation(of: source) { return translated }
        if catalog != nil, !source.isEmpty, reported.count < Self.maximumReported, reported.insert(source).inserted {
            logger?.notice("translations: no \(language ?? "") translation for \"\(Escaped(source))\" in \(folder)")
        }
        return source
    }

    /// The catalog names a language tag is looked for under: `de_AT.UTF-8@euro` → `de_AT`,
    /// `de`.
    public static func candidates(_ language: String) -> [String] {
        let bare = String(language.prefix { $0 != "." && $0 != "@" })
        guard let underscore = bare.firstIndex(where: { $0 == "_" || $0 == "-" }) else { return [bare] }
        return [bare, String(bare[..<underscore])]
    }

    /// True for a language tag Lamina accepts: 1…64 ASCII letters, digits and `_-.@`
    /// (`de`, `pt_BR`, `sr@latin`, `de_AT.UTF-8`).
    public static func isLanguageTag(_ text: String) -> Bool {
        (1...64).contains(text.utf8.count) && text.first?.isLetter == true
            && text.utf8.allSatisfy { $0 < 0x80 && (Character(Unicode.Scalar($0)).isLetter || Character(Unicode.Scalar($0)).isNumber || "_-.@".utf8.contains($0)) }
    }
}
