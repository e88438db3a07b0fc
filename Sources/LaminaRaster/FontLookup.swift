import CFontconfig

/// How heavy a face is, by fontconfig's names for the OpenType weight classes.
public enum FontWeight: String, CaseIterable, Sendable {
    /// Weight class 100.
    case thin
    /// Weight class 200.
    case extraLight
    /// Weight class 300.
    case light
    /// Weight class 400: the face text is set in.
    case regular
    /// Weight class 500.
    case medium
    /// Weight class 600.
    case semibold
    /// Weight class 700.
    case bold
    /// Weight class 800.
    case extraBold
    /// Weight class 900.
    case black

    /// Fontconfig's number for the weight (`FC_WEIGHT_*`).
    var fontconfigWeight: Int32 {
        switch self {
        case .thin: 0
        case .extraLight: 40
        case .light: 50
        case .regular: 80
        case .medium: 100
        case .semibold: 180
        case .bold: 200
        case .extraBold: 205
        case .black: 210
        }
    }
}

extension Font {
    /// The installed face of `family` nearest to `weight`, found by fontconfig (as
    /// `fc-match "FAMILY:weight=N"` finds it). Fontconfig answers every question with some
    /// face; a family that is not installed is an error here rather than another family.
    public convenience init(family: String, weight: FontWeight = .regular) throws(FontError) {
        let found = try FontLookup.face(family: family, weight: weight)
        try self.init(path: found.path, faceIndex: found.index)
    }
}

/// Fontconfig's configuration, loaded on first use (a daemon whose scenes name no family never
/// reads it), and its matching.
enum FontLookup {
    /// The longest family name looked up.
    static let maximumFamilyLength = 256

    nonisolated(unsafe) static let config: OpaquePointer? = FcInitLoadConfigAndFonts()

    /// The file and face index of the installed face of `family` nearest to `weight`.
    static func face(family: String, weight: FontWeight) throws(FontError) -> (path: String, index: Int) {
        let name = "family \"\(family)\""
        guard !family.isEmpty, family.utf8.count <= maximumFamilyLength, !family.utf8.contains(0) else {
            throw FontError(path: name, reason: "a family name has 1…\(maximumFamilyLength) bytes and no NUL")
        }
        guard let config, let pattern = FcPatternCreate() else {
            throw FontError(path: name, reason: "fontconfig could not load its configuration")
        }
        defer { FcPatternDestroy(pattern) }
        _ = family.withCString { FcPatternAddString(pattern, FC_FAMILY, UnsafeRawPointer($0).assumingMemoryBound(to: FcChar8.self)) }
        _ = FcPatternAddInteger(pattern, FC_WEIGHT, weight.fontconfigWeight)
        _ = FcConfigSubstitute(config, pattern, FcMatchPattern)
        FcDefaultSubstitute(pattern)
        var result = FcResultMatch
        guard let match = FcFontMatch(config, pattern, &result) else {
            throw FontError(path: name, reason: "fontconfig finds no face at all")
        }
        defer { FcPatternDestroy(match) }
        var families: [String] = []
        var value: UnsafeMutablePointer<FcChar8>?
        while FcPatternGetString(match, FC_FAMILY, Int32(families.count), &value) == FcResultMatch, let value {
            families.append(String(cString: UnsafeRawPointer(value).assumingMemoryBound(to: CChar.self)))
        }
        guard families.contains(where: { $0.lowercased() == family.lowercased() }) else {
            let nearest = families.first.map { "; the nearest installed is \"\($0)\"" } ?? ""
            throw FontError(path: name, reason: "no face of this family is installed\(nearest)")
        }
        var file: UnsafeMutablePointer<FcChar8>?
        guard FcPatternGetString(match, FC_FILE, 0, &file) == FcResultMatch, let file else {
            throw FontError(path: name, reason: "fontconfig's match has no file")
        }
        var index: Int32 = 0
        if FcPatternGetInteger(match, FC_INDEX, 0, &index) != FcResultMatch { index = 0 }
        return (String(cString: UnsafeRawPointer(file).assumingMemoryBound(to: CChar.self)), Int(index))
    }
}
