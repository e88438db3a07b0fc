/// A clip as 8-bit coverage per pixel (0 = clipped away, 255 = fully inside), for clips that
/// are not pixel-aligned rectangles: rounded rects (`masksToBounds` with `cornerRadius`) and
/// arbitrary paths. Outside `bounds` everything is clipped.
///
/// Only `bounds` is stored: a small rounded button's clip costs its own area, not a screen's
/// (a 1080p screen-sized mask was 2 MB allocated and zeroed per clipped layer per frame). A
/// mask is not changed once a canvas clips by it, so a saved clip shares it.
public final class ClipMask {
    /// Width in pixels of the target the mask clips.
    public let width: Int
    /// Height in pixels of the target the mask clips.
    public let height: Int
    /// The pixel rectangle outside which the mask is 0.
    public private(set) var bounds: PixelRect
    /// Coverage over `bounds`, row by row (`bounds.width` a row).
    private var alpha: [UInt8]

    init(width: Int, height: Int, bounds: PixelRect) {
        self.width = width
        self.height = height
        self.bounds = bounds.isEmpty ? PixelRect(width: 0, height: 0) : bounds
        alpha = [UInt8](repeating: 0, count: self.bounds.width * self.bounds.height)
    }

    /// The mask value at a pixel (0…255).
    public subscript(x: Int, y: Int) -> UInt8 {
        guard x >= bounds.x0, x < bounds.x1, y >= bounds.y0, y < bounds.y1 else { return 0 }
        return alpha[(y - bounds.y0) * bounds.width + (x - bounds.x0)]
    }

    /// Sets a pixel inside `bounds`.
    func set(_ value: UInt8, x: Int, y: Int) {
        precondition(x >= bounds.x0 && x < bounds.x1 && y >= bounds.y0 && y < bounds.y1, "a clip mask pixel outside its bounds")
        alpha[(y - bounds.y0) * bounds.width + (x - bounds.x0)] = value
    }

    /// Sets row `y` from `x0` on to the coverages `values` (0…1), rounded to 8 bits; what
    /// falls outside `bounds` is dropped.
    func setRow(_ values: UnsafeBufferPointer<Float>, x0: Int, y: Int) {
        let lo = max(x0, bounds.x0), hi = min(x0 + values.count, bounds.x1)
        guard y >= bounds.y0, y < bounds.y1, lo < hi else { return }
        let start = (y - bounds.y0) * bounds.width - bounds.x0
        alpha.withUnsafeMutableBufferPointer { out in
            for x in lo..<hi { out[start + x] = UInt8(values[x - x0] * 255 + 0.5) }
        }
    }

    /// Multiplies by another mask (the intersection of two clips); the bounds shrink to both's.
    func intersect(with other: ClipMask) {
        let b = bounds.intersection(other.bounds)
        let kept = b.isEmpty ? PixelRect(width: 0, height: 0) : b
        var product = [UInt8](repeating: 0, count: kept.width * kept.height)
        if !kept.isEmpty {
            for y in kept.y0..<kept.y1 {
                let out = (y - kept.y0) * kept.width
                for x in kept.x0..<kept.x1 {
                    product[out + x - kept.x0] = UInt8((UInt32(self[x, y]) * UInt32(other[x, y]) + 127) / 255)
                }
            }
        }
        bounds = kept
        alpha = product
    }

    /// A coverage `m` (0…255) through the mask at a pixel, rounded.
    @inline(__always)
    func apply(_ m: UInt32, x: Int, y: Int) -> UInt32 {
        (m * UInt32(self[x, y]) + 127) / 255
    }
}
