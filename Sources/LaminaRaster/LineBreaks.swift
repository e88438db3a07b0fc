import CUnibreak

/// Where a paragraph may be broken into lines: the opportunities of the Unicode line breaking
/// algorithm (UAX #14) from libunibreak (after a space, after a hyphen, between ideographs,
/// never before closing punctuation), kept only where an extended grapheme cluster ends, so
/// no line ever splits an emoji sequence or a base from its marks whatever Unicode version
/// the library's tables come from (Debian 12's is older than emoji ZWJ sequences).
/// Grapheme clusters are Swift's `Character`s.
enum LineBreaks {
    /// A place a line may end: before the scalar at `offset`.
    struct Opportunity: Equatable {
        /// The scalar offset where the next line would begin (0 < offset < count).
        var offset: Int
        /// True when the line must end there (a line or paragraph separator inside the text).
        var isMandatory: Bool
    }

    /// libunibreak's tables, set up once per process (the call is idempotent, not locked).
    private static let tablesReady: Void = init_linebreak()

    /// The opportunities inside `text`, in order (not its start or end).
    static func opportunities(in text: String) -> [Opportunity] {
        let scalars = text.unicodeScalars.map(\.value)
        guard scalars.count > 1 else { return [] }
        _ = tablesReady
        var kinds = [CChar](repeating: 0, count: scalars.count)
        scalars.withUnsafeBufferPointer { text in
            kinds.withUnsafeMutableBufferPointer { kinds in
                set_linebreaks_utf32(text.baseAddress, text.count, nil, kinds.baseAddress)
            }
        }
        var found: [Opportunity] = []
        // kinds[i] says whether a line may end after scalar i.
        for end in graphemeEnds(of: text) where end < scalars.count {
            switch Int32(kinds[end - 1]) {
            case LINEBREAK_MUSTBREAK: found.append(Opportunity(offset: end, isMandatory: true))
            case LINEBREAK_ALLOWBREAK: found.append(Opportunity(offset: end, isMandatory: false))
            default: break
            }
        }
        return found
    }

    /// The scalar offsets where each of `text`'s grapheme clusters ends, ascending.
    static func graphemeEnds(of text: String) -> [Int] {
        var ends: [Int] = []
        var offset = 0
        for character in text {
            offset += character.unicodeScalars.count
            ends.append(offset)
        }
        return ends
    }
}
