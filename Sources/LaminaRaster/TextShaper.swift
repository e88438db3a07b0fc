import CHarfBuzz

/// Which way a paragraph runs: its base direction (UAX #9), resolved from its first strong
/// character unless given.
public enum TextDirection: String, Sendable {
    /// Latin, Cyrillic, Greek, Thai, Devanagari, CJK, ...
    case leftToRight
    /// Arabic, Hebrew, Persian, ...
    case rightToLeft
}

/// One glyph as HarfBuzz shaped it, in font units (y up, as OpenType has it).
struct ShapedGlyph: Equatable {
    /// The glyph's index in the face.
    var index: UInt32
    /// The offset of the first Unicode scalar of the glyph's cluster in the paragraph.
    var cluster: Int
    /// How far the pen moves after the glyph.
    var advance: Int32
    /// Where the glyph is drawn from the pen (a mark's place on its base, a kerning pair's).
    var offsetX: Int32, offsetY: Int32
    /// True inside a right-to-left run (its clusters run from right to left).
    var isRightToLeft: Bool
    /// Which face drew it: 0 the paragraph's own, k ≥ 1 its `fallbacks[k − 1]`.
    var face: UInt16 = 0
}

/// A paragraph shaped: its glyphs in visual order (left to right on the line).
struct ShapedParagraph {
    var glyphs: [ShapedGlyph]
    /// The paragraph's base direction.
    var direction: TextDirection
    /// The paragraph's length in Unicode scalars.
    var scalarCount: Int
    /// The faces of the characters the paragraph's own face lacks (`ShapedGlyph.face`).
    var fallbacks: [Font] = []
}

/// A face read by HarfBuzz from the font file (its OpenType tables: cmap, GSUB, GPOS, kern,
/// hmtx), at one unit per font unit, as `hb-shape` reads it: shaping is done once per text,
/// whatever the size, and scaled. FreeType keeps drawing the outlines of the glyphs it picks.
final class HarfBuzzFont {
    private let font: OpaquePointer
    /// Font units per em: a glyph position times `size / unitsPerEm` is pixels.
    let unitsPerEm: Int

    /// Face `faceIndex & 0xFFFF` of the file, at named instance `(faceIndex >> 16) − 1` of a
    /// variable font when the high bits are set (FreeType's numbering).
    init?(path: String, faceIndex: Int = 0) {
        guard let blob = hb_blob_create_from_file(path) else { return nil }
        defer { hb_blob_destroy(blob) }
        guard hb_blob_get_length(blob) > 0, let face = hb_face_create(blob, UInt32(faceIndex & 0xFFFF)) else { return nil }
        defer { hb_face_destroy(face) }
        let upem = Int(hb_face_get_upem(face))
        guard upem > 0, hb_face_get_glyph_count(face) > 0, let font = hb_font_create(face) else { return nil }
        hb_font_set_scale(font, Int32(upem), Int32(upem))
        if faceIndex >> 16 > 0 { hb_font_set_var_named_instance(font, UInt32((faceIndex >> 16) - 1)) }
        self.font = font
        unitsPerEm = upem
    }

    deinit { hb_font_destroy(font) }

    /// True when the face maps `scalar` to a glyph (its cmap has it).
    func hasGlyph(_ scalar: UInt32) -> Bool {
        var glyph: hb_codepoint_t = 0
        return hb_font_get_nominal_glyph(font, scalar, &glyph) != 0
    }

    /// Shapes `scalars` (a whole paragraph, the context of every run) from `start` for
    /// `count` scalars as one run of one script and direction; clusters are offsets in
    /// `scalars`. The glyphs come in visual order, as HarfBuzz gives them.
    func shape(_ scalars: [UInt32], start: Int, count: Int, script: hb_script_t, rightToLeft: Bool, face: UInt16 = 0) -> [ShapedGlyph] {
        guard let buffer = hb_buffer_create() else { return [] }
        defer { hb_buffer_destroy(buffer) }
        scalars.withUnsafeBufferPointer { text in
            hb_buffer_add_utf32(buffer, text.baseAddress, Int32(text.count), UInt32(start), Int32(count))
        }
        hb_buffer_set_direction(buffer, rightToLeft ? HB_DIRECTION_RTL : HB_DIRECTION_LTR)
        hb_buffer_set_script(buffer, script)
        hb_buffer_guess_segment_properties(buffer)         // the language: the default one
        hb_shape(font, buffer, nil, 0)
        var length: UInt32 = 0
        guard let infos = hb_buffer_get_glyph_infos(buffer, &length),
              let positions = hb_buffer_get_glyph_positions(buffer, &length) else { return [] }
        return (0..<Int(length)).map { i in
            ShapedGlyph(index: infos[i].codepoint, cluster: Int(infos[i].cluster), advance: positions[i].x_advance,
                        offsetX: positions[i].x_offset, offsetY: positions[i].y_offset, isRightToLeft: rightToLeft, face: face)
        }
    }

    /// The script HarfBuzz's Unicode data gives a scalar (Common and Inherited for the ones
    /// every script shares: spaces, digits, punctuation, combining marks).
    static func script(of scalar: UInt32) -> hb_script_t {
        hb_unicode_script(hb_unicode_funcs_get_default(), scalar)
    }
}

/// Shapes a paragraph: the bidirectional algorithm splits it into runs of one direction
/// (`BidiParagraph`, FriBidi), each run is split where its script changes (characters every
/// script shares go with their neighbours) and where the face changes (a character the
/// paragraph's face lacks is shaped in a fallback face), HarfBuzz shapes every piece with the
/// whole paragraph as context (Arabic joins across a piece's ends), and the runs are put in
/// visual order (UAX #9, rule L2).
enum TextShaper {
    /// `faces[0]` is the paragraph's own face; `faceOf[i]` (when given) picks scalar i's.
    static func shape(_ text: String, faces: [HarfBuzzFont], faceOf: [UInt16]? = nil,
                      direction: TextDirection? = nil) -> ShapedParagraph {
        let scalars = text.unicodeScalars.map(\.value)
        guard !scalars.isEmpty else {
            return ShapedParagraph(glyphs: [], direction: direction ?? .leftToRight, scalarCount: 0)
        }
        let bidi = BidiParagraph(scalars, direction: direction)
        var runs: [(start: Int, count: Int, script: hb_script_t, level: UInt8, face: UInt16)] = []
        for run in bidi.levelRuns {
            for piece in scriptPieces(scalars, start: run.start, count: run.count) {
                guard let faceOf else { runs.append((piece.start, piece.count, piece.script, run.level, 0)); continue }
                // Split again where the face changes.
                var start = piece.start
                for i in piece.start..<(piece.start + piece.count) where faceOf[i] != faceOf[start] {
                    runs.append((start, i - start, piece.script, run.level, faceOf[start]))
                    start = i
                }
                runs.append((start, piece.start + piece.count - start, piece.script, run.level, faceOf[start]))
            }
        }
        var glyphs: [ShapedGlyph] = []
        glyphs.reserveCapacity(scalars.count)
        for k in BidiParagraph.visualOrder(levels: runs.map(\.level)) {
            let run = runs[k]
            glyphs += faces[Int(run.face)].shape(scalars, start: run.start, count: run.count, script: run.script,
                                                 rightToLeft: run.level & 1 == 1, face: run.face)
        }
        return ShapedParagraph(glyphs: glyphs, direction: bidi.direction, scalarCount: scalars.count)
    }

    /// Splits `count` scalars from `start` where the script changes, with each piece's
    /// script; Common and Inherited scalars join the piece before them (or, at the start, the
    /// one after), and a piece of them alone (digits, punctuation) is Common.
    static func scriptPieces(_ scalars: [UInt32], start: Int, count: Int) -> [(start: Int, count: Int, script: hb_script_t)] {
        var pieces: [(start: Int, count: Int, script: hb_script_t)] = []
        var pieceStart = start
        var current: hb_script_t?
        for i in start..<(start + count) {
            let script = HarfBuzzFont.script(of: scalars[i])
            guard script != HB_SCRIPT_COMMON, script != HB_SCRIPT_INHERITED, script != HB_SCRIPT_UNKNOWN else { continue }
            if let known = current, known != script {
                pieces.append((pieceStart, i - pieceStart, known))
                pieceStart = i
            }
            current = script
        }
        pieces.append((pieceStart, start + count - pieceStart, current ?? HB_SCRIPT_COMMON))
        return pieces
    }
}
