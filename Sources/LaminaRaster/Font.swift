import CFreeType
import LaminaGeometry

/// Why a font could not be used.
public struct FontError: Error, CustomStringConvertible {
    public var path: String
    public var reason: String
    public var description: String { "\(path): \(reason)" }
}

/// A scalable font face read with FreeType. Glyph outlines are loaded unhinted and filled by
/// Lamina's own coverage rasterizer (greyscale, exact area, no hinting), so text and shapes
/// share one anti-aliasing model. Outlines are cached per glyph and size.
public final class Font {
    public let path: String
    private var library: FT_Library?
    private var face: FT_Face?
    private var currentSize = 0.0
    private var outlines: [GlyphKey: Glyph] = [:]

    struct GlyphKey: Hashable {
        var index: UInt32
        var size: Double
    }

    /// One glyph at one size: its outline with the origin on the baseline (y down) and its
    /// unhinted advance in pixels.
    public struct Glyph {
        public var path: Path
        public var advance: Double
    }

    /// The default face: DejaVu Sans from Debian's `fonts-dejavu-core`.
    public static let defaultPath = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"

    public init(path: String = Font.defaultPath) throws(FontError) {
        self.path = path
        var lib: FT_Library?
        guard FT_Init_FreeType(&lib) == 0, let lib else { throw FontError(path: path, reason: "FreeType failed to start") }
        library = lib
        var f: FT_Face?
        let status = FT_New_Face(lib, path, 0, &f)
        guard status == 0, let f else {
            FT_Done_FreeType(lib)
            library = nil
            throw FontError(path: path, reason: "FreeType cannot open it (error \(status))")
        }
        face = f
    }

    deinit {
        if let face { FT_Done_Face(face) }
        if let library { FT_Done_FreeType(library) }
    }

    /// True when the face has a kerning table FreeType can read (`kern`).
    public var hasKerning: Bool {
        guard let face else { return false }
        return face.pointee.face_flags & FT_Long(FT_FACE_FLAG_KERNING) != 0
    }

    /// The glyph index for a Unicode scalar (0 = missing glyph).
    public func glyphIndex(for scalar: Unicode.Scalar) -> UInt32 {
        guard let face else { return 0 }
        return FT_Get_Char_Index(face, FT_ULong(scalar.value))
    }

    private func setSize(_ size: Double) {
        guard let face, size != currentSize else { return }
        // 26.6 fixed point at 72 dpi: one point is one pixel.
        FT_Set_Char_Size(face, 0, FT_F26Dot6((size * 64).rounded()), 72, 72)
        currentSize = size
    }

    /// The glyph's outline and advance at `size` pixels per em (cached).
    public func glyph(_ index: UInt32, size: Double) -> Glyph {
        let key = GlyphKey(index: index, size: size)
        if let cached = outlines[key] { return cached }
        var glyph = Glyph(path: Path(), advance: 0)
        if let face {
            setSize(size)
            if FT_Load_Glyph(face, index, lamina_ft_load_flags_unhinted()) == 0, let slot = face.pointee.glyph {
                glyph.advance = Double(slot.pointee.linearHoriAdvance) / 65536
                glyph.path = Self.path(of: &slot.pointee.outline)
            }
        }
        outlines[key] = glyph
        return glyph
    }

    /// The kerning adjustment between two glyphs at `size`, in pixels (unfitted).
    public func kerning(_ left: UInt32, _ right: UInt32, size: Double) -> Double {
        guard let face, hasKerning else { return 0 }
        setSize(size)
        var delta = FT_Vector()
        guard FT_Get_Kerning(face, left, right, UInt32(FT_KERNING_UNFITTED.rawValue), &delta) == 0 else { return 0 }
        return Double(delta.x) / 64
    }

    /// Converts a FreeType outline (26.6, y up) into a Path (pixels, y down).
    private static func path(of outline: UnsafeMutablePointer<FT_Outline>) -> Path {
        final class Builder { var path = Path() }
        let builder = Builder()
        var funcs = FT_Outline_Funcs()
        funcs.move_to = { to, user in
            let b = Unmanaged<Builder>.fromOpaque(user!).takeUnretainedValue()
            b.path.close()
            b.path.move(to: Point(x: Double(to!.pointee.x) / 64, y: -Double(to!.pointee.y) / 64))
            return 0
        }
        funcs.line_to = { to, user in
            let b = Unmanaged<Builder>.fromOpaque(user!).takeUnretainedValue()
            b.path.line(to: Point(x: Double(to!.pointee.x) / 64, y: -Double(to!.pointee.y) / 64))
            return 0
        }
        funcs.conic_to = { control, to, user in
            let b = Unmanaged<Builder>.fromOpaque(user!).takeUnretainedValue()
            b.path.quad(to: Point(x: Double(to!.pointee.x) / 64, y: -Double(to!.pointee.y) / 64),
                        control: Point(x: Double(control!.pointee.x) / 64, y: -Double(control!.pointee.y) / 64))
            return 0
        }
        funcs.cubic_to = { c1, c2, to, user in
            let b = Unmanaged<Builder>.fromOpaque(user!).takeUnretainedValue()
            b.path.cubic(to: Point(x: Double(to!.pointee.x) / 64, y: -Double(to!.pointee.y) / 64),
                         control1: Point(x: Double(c1!.pointee.x) / 64, y: -Double(c1!.pointee.y) / 64),
                         control2: Point(x: Double(c2!.pointee.x) / 64, y: -Double(c2!.pointee.y) / 64))
            return 0
        }
        let user = Unmanaged.passUnretained(builder).toOpaque()
        withExtendedLifetime(builder) {
            _ = FT_Outline_Decompose(outline, &funcs, user)
        }
        builder.path.close()
        return builder.path
    }
}

extension Canvas {
    /// Draws `text` left to right from `origin` (the left end of the baseline) at `size`
    /// pixels per em, by the font's unhinted advances plus kerning; greyscale, no hinting.
    /// Returns the advance width drawn.
    @discardableResult
    public func draw(text: String, font: Font, size: Double, origin: Point, color: Color) -> Double {
        var pen = origin.x
        var previous: UInt32?
        for scalar in text.unicodeScalars {
            let index = font.glyphIndex(for: scalar)
            if let previous { pen += font.kerning(previous, index, size: size) }
            let glyph = font.glyph(index, size: size)
            if !glyph.path.isEmpty {
                fill(glyph.path, color: color, rule: .nonZero, transform: AffineTransform(translationX: pen, y: origin.y))
            }
            pen += glyph.advance
            previous = index
        }
        return pen - origin.x
    }
}
