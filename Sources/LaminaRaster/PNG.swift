import CLaminaPNG
import LaminaGeometry

/// Why a PNG could not be written or read.
public struct PNGError: Error, CustomStringConvertible {
    /// The file.
    public let path: String
    /// Why it could not be read or written.
    public let reason: String
    public var description: String { "\(path): \(reason)" }
}

/// An 8-bit straight-alpha RGBA image, as PNG files hold it.
public struct RGBAImage: Equatable, Sendable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// `width · height · 4` bytes, row-major, R G B A.
    public var bytes: [UInt8]

    /// An image from 4 bytes per pixel (straight RGBA), row by row.
    public init(width: Int, height: Int, bytes: [UInt8]) {
        precondition(bytes.count == width * height * 4, "RGBA byte count must be width·height·4")
        self.width = width
        self.height = height
        self.bytes = bytes
    }

    /// The buffer's pixels un-premultiplied to straight RGBA (8-bit, rounded).
    public init(_ buffer: PixelBuffer) {
        var out = [UInt8](repeating: 0, count: buffer.width * buffer.height * 4)
        var i = 0
        for y in 0..<buffer.height {
            for x in 0..<buffer.width {
                let p = buffer[x, y]
                let a = p >> 24
                func un(_ c: UInt32) -> UInt8 {
                    if a == 255 { return UInt8(c) }
                    if a == 0 { return 0 }
                    return UInt8(min(255, (c * 255 + a / 2) / a))
                }
                out[i] = un(p >> 16 & 0xFF)
                out[i + 1] = un(p >> 8 & 0xFF)
                out[i + 2] = un(p & 0xFF)
                out[i + 3] = UInt8(a)
                i += 4
            }
        }
        self.init(width: buffer.width, height: buffer.height, bytes: out)
    }

    /// Writes the image as an RGBA PNG (or RGB when every pixel is opaque).
    /// `compression` is zlib's level 0…9.
    public func writePNG(to path: String, compression: Int = 6) throws(PNGError) {
        let opaque = stride(from: 3, to: bytes.count, by: 4).allSatisfy { bytes[$0] == 255 }
        var rows: [UInt8]
        let channels: Int
        if opaque {
            channels = 3
            rows = [UInt8](repeating: 0, count: width * height * 3)
            var o = 0
            for i in stride(from: 0, to: bytes.count, by: 4) {
                rows[o] = bytes[i]; rows[o + 1] = bytes[i + 1]; rows[o + 2] = bytes[i + 2]
                o += 3
            }
        } else {
            channels = 4
            rows = bytes
        }
        var message = [CChar](repeating: 0, count: 256)
        let status = rows.withUnsafeBufferPointer { rowBuffer in
            lamina_png_write(path, rowBuffer.baseAddress, UInt32(width), UInt32(height),
                             width * channels, Int32(channels), Int32(compression), &message, message.count)
        }
        guard status == 0 else {
            throw PNGError(path: path, reason: String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
    }

    /// Reads a PNG of any colour type as 8-bit straight RGBA.
    public static func readPNG(from path: String) throws(PNGError) -> RGBAImage {
        var pixels: UnsafeMutablePointer<UInt8>?
        var width: UInt32 = 0, height: UInt32 = 0
        var message = [CChar](repeating: 0, count: 256)
        let status = lamina_png_read_rgba(path, &pixels, &width, &height, &message, message.count)
        guard status == 0, let pixels else {
            throw PNGError(path: path, reason: String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        defer { lamina_png_free(pixels) }
        let count = Int(width) * Int(height) * 4
        return RGBAImage(width: Int(width), height: Int(height),
                         bytes: Array(UnsafeBufferPointer(start: pixels, count: count)))
    }
}

extension PixelBuffer {
    /// Writes the buffer as a PNG (straight alpha; RGB when opaque).
    public func writePNG(to path: String, compression: Int = 6) throws(PNGError) {
        try RGBAImage(self).writePNG(to: path, compression: compression)
    }
}
