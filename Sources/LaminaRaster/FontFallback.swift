import CFontconfig
import CFreeType

extension Font {
    /// True when the face carries colour glyphs (emoji bitmaps, `CBDT`/`sbix`, or colour
    /// layers): a cluster asking for emoji presentation looks for such a face first.
    public var hasColorGlyphs: Bool { faceFlags & FT_Long(FT_FACE_FLAG_COLOR) != 0 }

    /// The paragraph shaped with each grapheme cluster in the first face that has all of its
    /// characters: this one, then `fallbacks`, then the faces fontconfig found (asked for
    /// the cluster's characters when none of those has them). A cluster asking for emoji
    /// presentation (U+FE0F, or an emoji that defaults to it) takes a colour face when one
    /// has it. A cluster no face has stays in this face (its missing-glyph box).
    func shapeWithFallbacks(_ text: String, primary: HarfBuzzFont, direction: TextDirection?) -> ShapedParagraph {
        var faceOf: [UInt16]?
        var used: [Font] = []                  // the fallbacks this paragraph uses, in face order
        var offset = 0
        lookupLimit = min(fallbackLookups + Self.maximumFallbackLookupsPerParagraph, Self.maximumFallbackLookups)
        for character in text {
            let scalars = character.unicodeScalars.map(\.value)
            defer { offset += scalars.count }
            let wantsColor = Self.wantsEmojiPresentation(character)
            if !(wantsColor && !hasColorGlyphs), Self.covers(primary, scalars) { continue }
            guard let fallback = fallback(for: scalars, color: wantsColor), let k = index(of: fallback, in: &used) else { continue }
            if faceOf == nil { faceOf = [UInt16](repeating: 0, count: text.unicodeScalars.count) }
            for i in offset..<(offset + scalars.count) { faceOf?[i] = k }
        }
        let faces = [primary] + used.compactMap(\.harfBuzz)
        var shaped = TextShaper.shape(text, faces: faces, faceOf: faceOf, direction: direction)
        shaped.fallbacks = used
        return shaped
    }

    /// The face index (1-based) of `font` among `used`, added when new.
    private func index(of font: Font, in used: inout [Font]) -> UInt16? {
        if let k = used.firstIndex(where: { $0 === font }) { return UInt16(k + 1) }
        guard used.count < Int(UInt16.max) - 1 else { return nil }
        used.append(font)
        return UInt16(used.count)
    }

    /// The first fallback face with all of `scalars` (a colour one first when `color`),
    /// asking fontconfig when none has; nil when no installed face has them.
    private func fallback(for scalars: [UInt32], color: Bool) -> Font? {
        let candidates = fallbacks.prefix(Self.maximumFallbacks).filter { $0 !== self } + foundFallbacks
        let needed = scalars.filter { !Self.isIgnorable($0) }
        guard let key = needed.first else { return nil }
        func covering(_ font: Font) -> Bool { font.harfBuzz.map { Self.covers($0, scalars) } ?? false }
        if color, let found = candidates.first(where: { $0.hasColorGlyphs && covering($0) }) { return found }
        if let found = candidates.first(where: covering) { return found }
        guard findsFallbacks, foundFallbacks.count < Self.maximumFoundFallbacks, !uncoveredScalars.contains(key),
              fallbackLookups < lookupLimit else { return nil }
        fallbackLookups += 1
        for wantColor in color ? [true, false] : [false] {
            guard let match = FontLookup.face(covering: needed, color: wantColor) else { continue }
            if let known = candidates.first(where: { $0.path == match.path && $0.faceIndex == match.index }) {
                if covering(known) { return known }
                continue
            }
            guard let font = try? Font(path: match.path, faceIndex: match.index), covering(font) else { continue }
            font.findsFallbacks = false
            foundFallbacks.append(font)
            return font
        }
        if uncoveredScalars.count >= Self.maximumUncoveredScalars { uncoveredScalars.removeAll() }
        uncoveredScalars.insert(key)
        return nil
    }

    /// The most of `fallbacks` tried.
    public static let maximumFallbacks = 64

    /// True when `font` has a glyph for every character of a cluster that needs one
    /// (joiners and variation selectors do not).
    static func covers(_ font: HarfBuzzFont, _ scalars: [UInt32]) -> Bool {
        scalars.allSatisfy { isIgnorable($0) || font.hasGlyph($0) }
    }

    /// Joiners, variation selectors and other default-ignorable characters: shaped away
    /// when a face lacks them.
    static func isIgnorable(_ scalar: UInt32) -> Bool {
        Unicode.Scalar(scalar)?.properties.isDefaultIgnorableCodePoint ?? true
    }

    /// A cluster shown as an emoji: with U+FE0F, or an emoji presented as one by default
    /// (`Emoji_Presentation`) without U+FE0E; a keycap or a flag.
    static func wantsEmojiPresentation(_ character: Character) -> Bool {
        let scalars = character.unicodeScalars
        if scalars.contains("\u{FE0F}") || scalars.contains("\u{20E3}") { return true }
        guard let first = scalars.first, !scalars.contains("\u{FE0E}") else { return false }
        return first.properties.isEmojiPresentation || first.properties.isEmojiModifier
            || (0x1F1E6...0x1F1FF).contains(first.value)
    }
}

extension FontLookup {
    /// The installed face fontconfig sorts first among those with every one of `scalars`,
    /// a colour one when `color` (as `fc-match ":charset=…:color=true"` would find it); nil
    /// when none has them all.
    static func face(covering scalars: [UInt32], color: Bool) -> (path: String, index: Int)? {
        guard let config, !scalars.isEmpty, let pattern = FcPatternCreate() else { return nil }
        defer { FcPatternDestroy(pattern) }
        guard let charset = FcCharSetCreate() else { return nil }
        defer { FcCharSetDestroy(charset) }
        for scalar in scalars { _ = FcCharSetAddChar(charset, scalar) }
        _ = FcPatternAddCharSet(pattern, FC_CHARSET, charset)
        if color { _ = FcPatternAddBool(pattern, FC_COLOR, 1) }
        _ = FcConfigSubstitute(config, pattern, FcMatchPattern)
        FcDefaultSubstitute(pattern)
        var result = FcResultMatch
        guard let sorted = FcFontSort(config, pattern, 1, nil, &result) else { return nil }
        defer { FcFontSetDestroy(sorted) }
        for i in 0..<Int(sorted.pointee.nfont) {
            guard let font = sorted.pointee.fonts[i] else { continue }
            var has: OpaquePointer?
            guard FcPatternGetCharSet(font, FC_CHARSET, 0, &has) == FcResultMatch, let has,
                  scalars.allSatisfy({ FcCharSetHasChar(has, $0) != 0 }) else { continue }
            if color {
                var isColor: FcBool = 0
                guard FcPatternGetBool(font, FC_COLOR, 0, &isColor) == FcResultMatch, isColor != 0 else { continue }
            }
            var file: UnsafeMutablePointer<FcChar8>?
            guard FcPatternGetString(font, FC_FILE, 0, &file) == FcResultMatch, let file else { continue }
            var index: Int32 = 0
            if FcPatternGetInteger(font, FC_INDEX, 0, &index) != FcResultMatch { index = 0 }
            return (String(cString: UnsafeRawPointer(file).assumingMemoryBound(to: CChar.self)), Int(index))
        }
        return nil
    }
}
