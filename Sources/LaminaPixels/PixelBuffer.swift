import LaminaGeometry

/// A premultiplied 32-bit image in memory, the rasterizer's working buffer.
///
/// Each pixel is a `UInt32` `0xAARRGGBB`: on little-endian machines the bytes are B, G, R, A,
/// the XRGB8888 / ARGB8888 layout DRM scanout buffers use. Rows are `stride` pixels apart
/// (`stride ≥ width`), so a buffer can also describe padded memory.
///
/// A reference type: frames are large and are drawn into in place.
public final class PixelBuffer {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// Pixels from one row to the next.
    public let stride: Int
    /// The pixels, row-major, `stride · height` of them.
    public let pixels: UnsafeMutableBufferPointer<UInt32>
    /// Whether every pixel's alpha is 255, as whoever filled the buffer promises (a decoded
    /// video frame): drawn at its own size on whole pixels at full opacity, such an image is
    /// copied row by row instead of sampled and blended. False unless set.
    public var isOpaque = false

    /// A buffer filled with transparent black.
    public convenience init(width: Int, height: Int, stride: Int? = nil) {
        self.init(width: width, height: height, stride: stride, zeroed: true)
    }

    /// A `width × height` buffer whose memory is left as allocated, for a caller that writes
    /// every pixel before anything reads one (a video frame copied in whole: 8 MiB a frame
    /// at 1080p not cleared first).
    public convenience init(unclearedWidth width: Int, height: Int) {
        self.init(width: width, height: height, stride: nil, zeroed: false)
    }

    private init(width: Int, height: Int, stride: Int?, zeroed: Bool) {
        precondition(width >= 0 && height >= 0, "a pixel buffer needs a non-negative size")
        let rowPixels = stride ?? width
        precondition(rowPixels >= width, "stride must be at least the width")
        self.width = width
        self.height = height
        self.stride = rowPixels
        let count = max(rowPixels * height, 1)
        // On a cache line: a large allocation from malloc starts 16 bytes into its page, so
        // every 64-byte vector load and store of a row whose length is whole cache lines
        // (1920 pixels) would straddle two lines.
        let memory = UnsafeMutableRawPointer.allocate(byteCount: count * MemoryLayout<UInt32>.stride,
                                                      alignment: PixelBuffer.alignment)
        pixels = UnsafeMutableBufferPointer(start: memory.bindMemory(to: UInt32.self, capacity: count), count: count)
        if zeroed { pixels.initialize(repeating: 0) }
        release = nil
    }

    /// Memory another owner lends (nil: the buffer allocated its own), given back on deinit.
    private let release: (() -> Void)?

    /// Pixels in memory another owner holds (a decoded video frame in GStreamer's buffer,
    /// read in place): `stride · height` of them from `memory`, which must stay valid, and
    /// not be written by anyone, until `release` runs when the buffer goes away. Lamina
    /// only reads such a buffer (it is an image's contents, never a canvas's target).
    public init(borrowing memory: UnsafeMutablePointer<UInt32>, width: Int, height: Int, stride: Int,
                release: @escaping () -> Void) {
        precondition(width > 0 && height > 0 && stride >= width, "a borrowed buffer has pixels and a stride at least its width")
        self.width = width
        self.height = height
        self.stride = stride
        pixels = UnsafeMutableBufferPointer(start: memory, count: stride * height)
        self.release = release
    }

    deinit {
        if let release { release() } else { UnsafeMutableRawPointer(pixels.baseAddress!).deallocate() }
    }

    /// Bytes the pixels of a buffer that allocates its own are aligned to: a cache line.
    static let alignment = 64

    /// The whole buffer as a rectangle at the origin.
    public var bounds: Rect { Rect(x: 0, y: 0, width: Double(width), height: Double(height)) }

    /// The premultiplied ARGB pixel at (`x`, `y`), which must be inside the buffer.
    public subscript(x: Int, y: Int) -> UInt32 {
        get { pixels[y * stride + x] }
        set { pixels[y * stride + x] = newValue }
    }

    /// Replaces every pixel with `color` (source copy, not blended).
    public func fill(_ color: Color) {
        fill(pixel: color.premultiplied.pixel32)
    }

    /// Replaces every pixel with a packed premultiplied value.
    public func fill(pixel: UInt32) {
        if stride == width {
            pixels.update(repeating: pixel)
        } else {
            for y in 0..<height {
                let row = UnsafeMutableBufferPointer(rebasing: pixels[(y * stride)..<(y * stride + width)])
                row.update(repeating: pixel)
            }
        }
    }

    /// Replaces the pixels of the integer rectangle `[x0, x1) × [y0, y1)` (clipped) with `pixel`.
    public func fill(pixel: UInt32, x0: Int, y0: Int, x1: Int, y1: Int) {
        let ax = max(0, x0), bx = min(width, x1), ay = max(0, y0), by = min(height, y1)
        guard ax < bx, ay < by else { return }
        for y in ay..<by {
            let row = UnsafeMutableBufferPointer(rebasing: pixels[(y * stride + ax)..<(y * stride + bx)])
            row.update(repeating: pixel)
        }
    }

    /// A copy with the same size and a tight stride.
    public func copy() -> PixelBuffer {
        let c = PixelBuffer(width: width, height: height)
        c.copyPixels(from: self)
        return c
    }

    /// Copies all pixels of `source`, which must have the same size.
    public func copyPixels(from source: PixelBuffer) {
        precondition(source.width == width && source.height == height, "sizes differ")
        for y in 0..<height {
            let src = UnsafeBufferPointer(rebasing: source.pixels[(y * source.stride)..<(y * source.stride + width)])
            let dst = UnsafeMutableBufferPointer(rebasing: pixels[(y * stride)..<(y * stride + width)])
            _ = dst.initialize(from: src)
        }
    }

    /// Straight-alpha colour of one pixel (8-bit precision).
    public func color(x: Int, y: Int) -> Color {
        let p = self[x, y]
        return PremultipliedColor(
            red: Double(p >> 16 & 0xFF) / 255, green: Double(p >> 8 & 0xFF) / 255,
            blue: Double(p & 0xFF) / 255, alpha: Double(p >> 24) / 255
        ).unpremultiplied
    }
}
