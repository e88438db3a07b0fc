import CFreeType
import LaminaGeometry
import LaminaSystem

/// Why a font could not be used.
public struct FontError: Error, CustomStringConvertible {
    /// The font file.
    public var path: String
    /// Why it cannot be used.
    public var reason: String
    public var description: String { "\(path): \(reason)" }
}

/// A scalable font face read with FreeType. Glyph outlines are loaded unhinted and filled by
/// Lamina's own coverage rasterizer (greyscale, exact area, no hinting), so text and shapes
/// share one anti-aliasing model. Outlines are cached per glyph and size.
public final class Font {
    /// The font file this face was loaded from.
    public let path: String
    private var library: FT_Library?
    private(set) var face: FT_Face?
    var currentSize = 0.0
    /// Glyph outlines and coverage masks, per size; the size drawn last is kept at hand, since
    /// text comes in runs of one size.
    /// At most `maximumCachedSizes`, the least recently used dropped first (text whose size
    /// animates would otherwise add a cache every frame).
    private var caches: [Double: SizeCache] = [:]
    /// Cached sizes, least recently used first.
    private var cacheOrder: [Double] = []
    private var lastCache: SizeCache?
    /// Glyph indices of the ASCII scalars, `.max` until first asked for.
    private var asciiGlyphs = [UInt32](repeating: .max, count: 128)

    /// The face as HarfBuzz reads it for shaping, made on first use (nil when HarfBuzz
    /// cannot read the file; such a face is laid out a glyph per scalar).
    lazy var harfBuzz: HarfBuzzFont? = HarfBuzzFont(path: path, faceIndex: faceIndex)

    /// Faces tried in order for a character this face has no glyph for, before fontconfig
    /// is asked (`findsFallbacks`): a kiosk's own list (Arabic, then CJK, then emoji...).
    /// Setting it drops the shaped paragraphs.
    public var fallbacks: [Font] = [] {
        didSet { shapedParagraphs.removeAll() }
    }
    /// Whether fontconfig is asked for an installed face that has a character neither this
    /// face nor `fallbacks` has (true by default): text in any installed script, and colour
    /// emoji, without naming their fonts. Fontconfig is loaded the first time it is asked.
    public var findsFallbacks = true {
        didSet { shapedParagraphs.removeAll() }
    }
    /// The faces fontconfig found for this face's text so far (at most
    /// `maximumFoundFallbacks`), tried after `fallbacks`.
    var foundFallbacks: [Font] = []
    /// Characters fontconfig had no face for: not asked again (at most
    /// `maximumUncoveredScalars`, then forgotten together).
    var uncoveredScalars: Set<UInt32> = []
    /// The most faces fontconfig adds to one face's fallbacks.
    public static let maximumFoundFallbacks = 16
    /// The most characters remembered as having no face.
    static let maximumUncoveredScalars = 4096
    /// Fontconfig lookups this face has made: at most `maximumFallbackLookups` in its life,
    /// and `maximumFallbackLookupsPerParagraph` for one paragraph (each sorts every installed
    /// face: text of thousands of characters no face has must not stall a frame).
    var fallbackLookups = 0
    /// Where `fallbackLookups` stops for the paragraph being shaped.
    var lookupLimit = 0
    /// The most fontconfig lookups one face makes.
    public static let maximumFallbackLookups = 1024
    /// The most fontconfig lookups shaping one paragraph makes.
    public static let maximumFallbackLookupsPerParagraph = 16
    /// Paragraphs shaped, by text and forced direction: a label drawn again, at any size, is
    /// not shaped again. Emptied when it holds `maximumShapedParagraphs`.
    private var shapedParagraphs: [ShapingKey: ShapedParagraph] = [:]
    private struct ShapingKey: Hashable {
        var text: String
        var direction: TextDirection?
    }

    /// How many paragraphs this face has shaped (not found in its cache).
    private(set) var paragraphsShaped = 0
    /// How many shaped paragraphs the cache holds now.
    var shapedParagraphCount: Int { shapedParagraphs.count }

    /// How many shaped paragraphs a face keeps.
    public static let maximumShapedParagraphs = 1024
    /// Texts longer than this (in UTF-8 bytes) are shaped every time rather than kept.
    public static let maximumCachedParagraphBytes = 1024

    /// The paragraph shaped by HarfBuzz in font units (nil when HarfBuzz cannot read the face).
    func shaped(_ text: String, direction: TextDirection?) -> ShapedParagraph? {
        guard let harfBuzz else { return nil }
        let key = ShapingKey(text: text, direction: direction)
        if let cached = shapedParagraphs[key] { return cached }
        let shaped = shapeWithFallbacks(text, primary: harfBuzz, direction: direction)
        paragraphsShaped += 1
        if text.utf8.count <= Self.maximumCachedParagraphBytes {
            if shapedParagraphs.count >= Self.maximumShapedParagraphs { shapedParagraphs.removeAll(keepingCapacity: true) }
            shapedParagraphs[key] = shaped
        }
        return shaped
    }

    /// Font units per em of the shaping face (1 when HarfBuzz cannot read it).
    var shapingUnitsPerEm: Int { harfBuzz?.unitsPerEm ?? 1 }

    /// How many sizes keep their outlines and masks.
    public static let maximumCachedSizes = 8
    /// How many coverage masks one size keeps (glyphs × subpixel offsets); past it the
    /// size's masks are dropped and made again as needed.
    public static let maximumMasksPerSize = 4096
    /// Text sizes (pixels per em) accepted from files and scenes (decision 86).
    public static let sizes = 0.0...2048.0
    /// The longest run of text accepted from a file in one piece.
    public static let maximumRunLength = 4096

    /// What is cached for one size: outlines by glyph index, masks by glyph index and
    /// subpixel offset packed into one integer (a cheap key to hash).
    final class SizeCache {
        let size: Double
        var outlines: [UInt32: Glyph] = [:]
        /// The outlines' advances alone, so laying out a line copies no outline.
        var advances: [UInt32: Double] = [:]
        var masks: [Int: GlyphMask] = [:]
        /// Colour glyphs scaled to this size, by glyph index (nil: the glyph has none).
        var colorGlyphs: [UInt32: ColorGlyphImage?] = [:]
        init(size: Double) { self.size = size }
    }

    /// The cache of one size, made on first use; at most `maximumCachedSizes` are kept, least recently used first out.
    func cache(for size: Double) -> SizeCache {
        if let lastCache, lastCache.size == size { return lastCache }
        let found: SizeCache
        if let cached = caches[size] {
            found = cached
            cacheOrder.removeAll { $0 == size }
        } else {
            found = SizeCache(size: size)
            caches[size] = found
            if cacheOrder.count >= Self.maximumCachedSizes { caches[cacheOrder.removeFirst()] = nil }
        }
        cacheOrder.append(size)
        lastCache = found
        return found
    }

    /// Sizes with cached outlines and masks now (at most `maximumCachedSizes`).
    public var cachedSizeCount: Int { caches.count }

    /// Pen positions are rounded to 1/16 px across and 1/4 px down for cached glyph coverage
    /// (text runs along x, so x carries the fine fractions).
    public static let subpixelStepsX = 16
    /// Vertical subpixel positions cached per glyph (a quarter pixel apart).
    public static let subpixelStepsY = 4

    /// One glyph at one size: its outline with the origin on the baseline (y down) and its
    /// unhinted advance in pixels.
    public struct Glyph {
        /// The glyph's outline at the requested size, its origin on the baseline.
        public var path: Path
        /// How far the pen moves after the glyph.
        public var advance: Double
        /// The outline flattened once (at the default tolerance), for drawing by offset.
        public var polygons: [[Point]]
    }

    /// The largest font file read (Noto Sans CJK's collection is about 20 MB).
    public static let maximumFileBytes = 64 * 1024 * 1024

    /// The default face: DejaVu Sans from Debian's `fonts-dejavu-core`.
    public static let defaultPath = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"

    /// Which face of the file this is (a collection, `.ttc`, holds several; 0 otherwise), with
    /// a variable font's named instance above the low 16 bits, as FreeType and fontconfig
    /// number them.
    public let faceIndex: Int

    /// Loads face `faceIndex` of the file at `path` (DejaVu Sans by default) through FreeType.
    public init(path: String = Font.defaultPath, faceIndex: Int = 0) throws(FontError) {
        self.path = path
        self.faceIndex = faceIndex
        guard (0...0x7FFF_FFFF).contains(faceIndex) else { throw FontError(path: path, reason: "face \(faceIndex) is not a face index") }
        // Only a regular file (a FIFO would block FreeType's read), of a sane size.
        let size: Int?
        do { size = try Paths.regularFileSize(path) } catch { throw FontError(path: path, reason: "cannot be read (\(error))") }
        guard let size else { throw FontError(path: path, reason: "is not a regular file") }
        guard size <= Self.maximumFileBytes else {
            throw FontError(path: path, reason: "is \(size) bytes; a font file may have \(Self.maximumFileBytes)")
        }
        var lib: FT_Library?
        guard FT_Init_FreeType(&lib) == 0, let lib else { throw FontError(path: path, reason: "FreeType failed to start") }
        library = lib
        var f: FT_Face?
        let status = FT_New_Face(lib, path, FT_Long(faceIndex), &f)
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

    /// FreeType's flags for the face (`FT_FACE_FLAG_*`).
    var faceFlags: FT_Long { face?.pointee.face_flags ?? 0 }

    /// True when the face has a kerning table FreeType can read (`kern`).
    public var hasKerning: Bool {
        guard let face else { return false }
        return face.pointee.face_flags & FT_Long(FT_FACE_FLAG_KERNING) != 0
    }

    /// The distance from the baseline up to the top of the line at `size` (the face's
    /// ascender), and down to its bottom (the descender, positive), in pixels.
    public func lineMetrics(size: Double) -> (ascender: Double, descender: Double) {
        guard let face, face.pointee.units_per_EM > 0 else { return (size * 0.8, size * 0.2) }
        let em = Double(face.pointee.units_per_EM)
        return (Double(face.pointee.ascender) / em * size, -Double(face.pointee.descender) / em * size)
    }

    /// The glyph index for a Unicode scalar (0 = missing glyph); ASCII's are looked up once.
    public func glyphIndex(for scalar: Unicode.Scalar) -> UInt32 {
        guard let face else { return 0 }
        guard scalar.value < 128 else { return FT_Get_Char_Index(face, FT_ULong(scalar.value)) }
        let cached = asciiGlyphs[Int(scalar.value)]
        if cached != .max { return cached }
        let index = FT_Get_Char_Index(face, FT_ULong(scalar.value))
        asciiGlyphs[Int(scalar.value)] = index
        return index
    }

    func setSize(_ size: Double) {
        guard let face, size != currentSize else { return }
        // 26.6 fixed point at 72 dpi: one point is one pixel.
        FT_Set_Char_Size(face, 0, FT_F26Dot6((size * 64).rounded()), 72, 72)
        currentSize = size
    }

    /// The glyph's outline and advance at `size` pixels per em (cached).
    public func glyph(_ index: UInt32, size: Double) -> Glyph {
        let sized = cache(for: size)
        if let cached = sized.outlines[index] { return cached }
        var glyph = Glyph(path: Path(), advance: 0, polygons: [])
        if let face {
            setSize(size)
            if FT_Load_Glyph(face, index, lamina_ft_load_flags_unhinted()) == 0, let slot = face.pointee.glyph {
                glyph.advance = Double(slot.pointee.linearHoriAdvance) / 65536
                glyph.path = Self.path(of: &slot.pointee.outline)
                glyph.polygons = glyph.path.flattened()
            }
        }
        sized.outlines[index] = glyph
        sized.advances[index] = glyph.advance
        return glyph
    }

    /// The glyph's coverage rasterized once at the offset (subpixelX / 16, subpixelY / 4) px
    /// from an integer pen position (cached): exact-area coverage, 0…255.
    func mask(_ index: UInt32, size: Double, subpixelX: Int, subpixelY: Int) -> GlyphMask {
        mask(index, in: cache(for: size), subpixelX: subpixelX, subpixelY: subpixelY)
    }

    /// The same from a size's cache the caller holds (a line looks it up once, not per glyph).
    func mask(_ index: UInt32, in sized: SizeCache, subpixelX: Int, subpixelY: Int) -> GlyphMask {
        let size = sized.size
        let key = Int(index) << 8 | subpixelX << 4 | subpixelY
        if let cached = sized.masks[key] { return cached }
        let dx = Double(subpixelX) / Double(Self.subpixelStepsX), dy = Double(subpixelY) / Double(Self.subpixelStepsY)
        let polygons = glyph(index, size: size).polygons.map { $0.map { Point(x: $0.x + dx, y: $0.y + dy) } }
        let mask = GlyphMask(polygons: polygons)
        if sized.masks.count >= Self.maximumMasksPerSize { sized.masks.removeAll(keepingCapacity: true) }
        sized.masks[key] = mask
        return mask
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

/// A glyph's coverage in a small box: `left`/`top` place it relative to the integer pen
/// position; `coverage` is row-major, `width · height` bytes.
struct GlyphMask {
    var left = 0, top = 0, width = 0, height = 0
    var coverage: [UInt8] = []

    init(polygons: [[Point]]) {
        let points = polygons.flatMap { $0 }
        guard !points.isEmpty else { return }
        let bounds = Rect.boundingBox(of: points)
        let limit = GeometryLimits.coordinate
        guard bounds.minX >= -limit, bounds.minY >= -limit, bounds.maxX <= limit, bounds.maxY <= limit else { return }
        left = Int(bounds.minX.rounded(.down))
        top = Int(bounds.minY.rounded(.down))
        width = Int(bounds.maxX.rounded(.up)) - left + 1
        height = Int(bounds.maxY.rounded(.up)) - top + 1
        guard width > 0, height > 0, width < 4096, height < 4096 else { width = 0; height = 0; return }
        let shifted = polygons.map { $0.map { Point(x: $0.x - Double(left), y: $0.y - Double(top)) } }
        var cov = [UInt8](repeating: 0, count: width * height)
        let w = width
        CoverageRasterizer(width: width, height: height).rasterize(shifted, rule: .nonZero) { y, x0, row in
            for i in 0..<row.count { cov[y * w + x0 + i] = UInt8(row[i] * 255 + 0.5) }
        }
        coverage = cov
    }
}

extension Canvas {
    /// Draws a laid-out line with its baseline starting at `origin`; with `width`, the line
    /// is placed by `alignment` inside `[origin.x, origin.x + width]`.
    public func draw(_ line: TextLine, font: Font, origin: Point, width: Double? = nil,
                     alignment: TextAlignment = .left, color: Color) {
        var x = origin.x
        if let width {
            switch alignment {
            case .left: break
            case .center: x += (width - line.width) / 2
            case .right: x += width - line.width
            }
        }
        let ownSized = font.cache(for: line.size)
        let pixel = color.premultiplied.pixel32
        guard abs(origin.y) < 1e14 else { return }
        if line.fallbacks.isEmpty && !font.hasColorGlyphs {
            // One face of outlines (most text): no face to choose per glyph.
            for placed in line.glyphs { blitGlyph(placed, of: font, sized: ownSized, x: x, y: origin.y, pixel: pixel) }
            return
        }
        for placed in line.glyphs {
            let face = placed.face == 0 ? font : line.face(of: placed, in: font)
            let sized = face === font ? ownSized : face.cache(for: line.size)
            if face.hasColorGlyphs, let colored = face.colorGlyph(placed.index, in: sized) {
                // An emoji: its own colours on whole pixels, the text colour's alpha its opacity.
                let gx = x + placed.x, gy = origin.y + placed.y
                guard abs(gx) < 1e15, abs(gy) < 1e15 else { continue }
                composite(colored.image, at: (Int(gx.rounded()) + colored.left, Int(gy.rounded()) + colored.top), opacity: color.alpha)
                continue
            }
            blitGlyph(placed, of: face, sized: sized, x: x, y: origin.y, pixel: pixel)
        }
    }

    /// One glyph's coverage mask composited in `pixel`, its pen position (`x`, `y` plus the
    /// glyph's own) rounded to the subpixel grid, which selects the cached mask.
    @inline(__always)
    private func blitGlyph(_ placed: TextLine.PlacedGlyph, of face: Font, sized: Font.SizeCache, x: Double, y: Double, pixel: UInt32) {
        let sx = Font.subpixelStepsX, sy = Font.subpixelStepsY
        let px = (x + placed.x) * Double(sx), py = (y + placed.y) * Double(sy)
        guard abs(px) < 1e15, abs(py) < 1e15 else { return }
        let qx = roundedAwayFromZero(px), qy = roundedAwayFromZero(py)
        let ix = qx >= 0 ? qx / sx : -((-qx + sx - 1) / sx)
        let iy = qy >= 0 ? qy / sy : -((-qy + sy - 1) / sy)
        let mask = face.mask(placed.index, in: sized, subpixelX: qx - ix * sx, subpixelY: qy - iy * sy)
        blit(mask, x: ix + mask.left, y: iy + mask.top, pixel: pixel)
    }

    /// Draws `text` from `origin` (the left end of the baseline) at `size` pixels per em,
    /// shaped (`Font.layout`); greyscale, no hinting.
    /// Returns the advance width drawn.
    @discardableResult
    public func draw(text: String, font: Font, size: Double, origin: Point, color: Color) -> Double {
        let line = font.layout(text, size: size)
        draw(line, font: font, origin: origin, color: color)
        return line.width
    }
}
