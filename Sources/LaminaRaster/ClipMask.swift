/// A clip as 8-bit coverage per pixel (0 = clipped away, 255 = fully inside), for clips that
/// are not pixel-aligned rectangles: rounded rects (`masksToBounds` with `cornerRadius`) and
/// arbitrary paths. Outside `bounds` everything is clipped.
public final class ClipMask {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// The pixel rectangle outside which the mask is 0.
    public private(set) var bounds: PixelRect
    private var alpha: [UInt8]

    init(width: Int, height: Int, bounds: PixelRect) {
        self.width = width
        self.height = height
        self.bounds = bounds
        alpha = [UInt8](repeating: 0, count: width * height)
    }

    func copy() -> ClipMask {
        let c = ClipMask(width: width, height: height, bounds: bounds)
        c.alpha = alpha
        return c
    }

    /// The mask value at a pixel (0…255).
    public subscript(x: Int, y: Int) -> UInt8 {
        guard x >= bounds.x0, x < bounds.x1, y >= bounds.y0, y < bounds.y1 else { return 0 }
        return alpha[y * width + x]
    }

    func set(_ value: UInt8, x: Int, y: Int) { alpha[y * width + x] = value }

    /// Multiplies by another mask (the intersection of two clips).
    func intersect(with other: ClipMask) {
        let b = bounds.intersection(other.bounds)
        bounds = b.isEmpty ? PixelRect(width: 0, height: 0) : b
        guard bounds.x0 < bounds.x1 else { return }
        for y in bounds.y0..<bounds.y1 {
            for x in bounds.x0..<bounds.x1 {
                let i = y * width + x
                alpha[i] = UInt8((UInt32(alpha[i]) * UInt32(other[x, y]) + 127) / 255)
            }
        }
    }

    /// A coverage `m` (0…255) through the mask at a pixel, rounded.
    @inline(__always)
    func apply(_ m: UInt32, x: Int, y: Int) -> UInt32 {
        (m * UInt32(self[x, y]) + 127) / 255
    }
}
