import CFreeType
import LaminaPixels

/// A colour glyph (an emoji from a bitmap strike, as Noto Color Emoji's `CBDT` table holds
/// them) scaled to one size: premultiplied pixels, and where their top-left corner sits from
/// the pen on the baseline, in whole pixels.
final class ColorGlyphImage {
    let image: PixelBuffer
    let left: Int, top: Int

    init(image: PixelBuffer, left: Int, top: Int) {
        self.image = image
        self.left = left
        self.top = top
    }
}

extension Font {
    /// The most colour glyphs one size keeps; past it they are dropped and made again.
    static let maximumColorGlyphsPerSize = 512

    /// Glyph `index` as a colour image at the size of `sized` (cached), or nil when the face
    /// has no colour bitmap for it: the strike nearest above the size (the largest when none
    /// is) is read through FreeType and scaled by area averaging, each target pixel the
    /// mean of the strike pixels its square covers.
    func colorGlyph(_ index: UInt32, in sized: SizeCache) -> ColorGlyphImage? {
        if let cached = sized.colorGlyphs[index] { return cached }
        let made = makeColorGlyph(index, size: sized.size)
        if sized.colorGlyphs.count >= Self.maximumColorGlyphsPerSize { sized.colorGlyphs.removeAll(keepingCapacity: true) }
        sized.colorGlyphs[index] = made
        return made
    }

    /// Glyph `index` as a colour image at `size` pixels per em (cached), with where its
    /// top-left corner sits from the pen on the baseline; nil when the face has no colour
    /// bitmap for it (draw its outline instead).
    public func colorGlyphImage(_ index: UInt32, size: Double) -> (image: PixelBuffer, left: Int, top: Int)? {
        guard hasColorGlyphs, let glyph = colorGlyph(index, in: cache(for: size)) else { return nil }
        return (glyph.image, glyph.left, glyph.top)
    }

    private func makeColorGlyph(_ index: UInt32, size: Double) -> ColorGlyphImage? {
        guard hasColorGlyphs, let face, size > 0, size <= Font.sizes.upperBound, face.pointee.num_fixed_sizes > 0,
              let strikes = face.pointee.available_sizes else { return nil }
        let ppems = (0..<Int(face.pointee.num_fixed_sizes)).map { Double(strikes[$0].y_ppem) / 64 }
        let strike = ppems.indices.filter { ppems[$0] >= size }.min { ppems[$0] < ppems[$1] }
            ?? ppems.indices.max { ppems[$0] < ppems[$1] }!
        guard ppems[strike] > 0, FT_Select_Size(face, Int32(strike)) == 0 else { return nil }
        currentSize = -1                                    // the outline size must be set again
        guard FT_Load_Glyph(face, index, lamina_ft_load_flags_color()) == 0, let slot = face.pointee.glyph,
              slot.pointee.bitmap.pixel_mode == UInt8(FT_PIXEL_MODE_BGRA.rawValue), let buffer = slot.pointee.bitmap.buffer
        else { return nil }
        let bitmap = slot.pointee.bitmap
        let width = Int(bitmap.width), height = Int(bitmap.rows), pitch = Int(bitmap.pitch)
        guard width > 0, height > 0, width <= 1024, height <= 1024, pitch >= width * 4 else { return nil }
        let scale = size / ppems[strike]
        // The strike's box in pixels from the pen (y down), and the whole pixels it touches.
        let x0 = Double(slot.pointee.bitmap_left) * scale, y0 = -Double(slot.pointee.bitmap_top) * scale
        let left = Int(x0.rounded(.down)), top = Int(y0.rounded(.down))
        let right = Int((x0 + Double(width) * scale).rounded(.up)), bottom = Int((y0 + Double(height) * scale).rounded(.up))
        let image = PixelBuffer(width: right - left, height: bottom - top)
        let footprint = 1 / scale                           // strike pixels across one target pixel
        for ty in 0..<image.height {
            let v0 = (Double(top + ty) - y0) / scale, v1 = v0 + footprint
            for tx in 0..<image.width {
                let u0 = (Double(left + tx) - x0) / scale, u1 = u0 + footprint
                var sum: (b: Double, g: Double, r: Double, a: Double) = (0, 0, 0, 0)
                for sy in max(Int(v0.rounded(.down)), 0)..<min(Int(v1.rounded(.up)), height) {
                    let wy = min(v1, Double(sy + 1)) - max(v0, Double(sy))
                    guard wy > 0 else { continue }
                    let row = buffer + sy * pitch
                    for sx in max(Int(u0.rounded(.down)), 0)..<min(Int(u1.rounded(.up)), width) {
                        let w = (min(u1, Double(sx + 1)) - max(u0, Double(sx))) * wy
                        guard w > 0 else { continue }
                        let p = row + sx * 4
                        sum.b += Double(p[0]) * w
                        sum.g += Double(p[1]) * w
                        sum.r += Double(p[2]) * w
                        sum.a += Double(p[3]) * w
                    }
                }
                let area = footprint * footprint
                func channel(_ v: Double) -> UInt32 { UInt32(min(max(v / area, 0), 255).rounded()) }
                image.pixels[ty * image.stride + tx] = channel(sum.a) << 24 | channel(sum.r) << 16 | channel(sum.g) << 8 | channel(sum.b)
            }
        }
        return ColorGlyphImage(image: image, left: left, top: top)
    }
}
