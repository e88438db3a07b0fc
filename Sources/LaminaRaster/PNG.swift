import CLaminaPNG
import LaminaGeometry
import LaminaSystem

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

    /// The image as PNG file bytes: RGBA, or RGB when every pixel is opaque.
    /// `compression` is zlib's level 0…9.
    public func pngData(compression: Int = 6) throws(PNGError) -> [UInt8] {
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
        var out: UnsafeMutablePointer<UInt8>?
        var count = 0
        let status = rows.withUnsafeBufferPointer { rowBuffer in
            lamina_png_encode(rowBuffer.baseAddress, UInt32(width), UInt32(height), width * channels, Int32(channels),
                              Int32(compression), &out, &count, &message, message.count)
        }
        guard status == 0, let out else { throw PNGError(path: "", reason: Self.text(message)) }
        defer { lamina_png_free(out) }
        return Array(UnsafeBufferPointer(start: out, count: count))
    }

    /// Writes the image as a PNG to `path`, replacing what is there (see `pngData`).
    public func writePNG(to path: String, compression: Int = 6) throws(PNGError) {
        let data = try pngData(compression: compression)
        do {
            try OutputFile.write(data, toPath: path)
        } catch {
            throw PNGError(path: path, reason: "\(error)")
        }
    }

    /// The largest image decoded: Lamina's largest buffer (`GeometryLimits.maximumPixels`).
    public static let maximumPixels = 64 * 1024 * 1024

    /// Decodes PNG file bytes of any colour type as 8-bit straight RGBA. An image of more than
    /// `maximumPixels` is refused from its header, before any pixel is decoded.
    public static func decodePNG(_ data: [UInt8], maximumPixels: Int = maximumPixels) throws(PNGError) -> RGBAImage {
        var pixels: UnsafeMutablePointer<UInt8>?
        var width: UInt32 = 0, height: UInt32 = 0
        var message = [CChar](repeating: 0, count: 256)
        let status = data.withUnsafeBufferPointer { buffer in
            lamina_png_decode_rgba(buffer.baseAddress, buffer.count, UInt64(max(0, maximumPixels)), &pixels, &width, &height,
                                   &message, message.count)
        }
        guard status == 0, let pixels else { throw PNGError(path: "", reason: text(message)) }
        defer { lamina_png_free(pixels) }
        let count = Int(width) * Int(height) * 4
        return RGBAImage(width: Int(width), height: Int(height), bytes: Array(UnsafeBufferPointer(start: pixels, count: count)))
    }

    /// Reads a PNG of any colour type as 8-bit straight RGBA. The file is read as every input
    /// is (`InputFile`: opened non-blocking, a regular file only, at most 16 MiB), then
    /// decoded; an image of more than `maximumPixels` is refused from its header.
    public static func readPNG(from path: String, maximumPixels: Int = maximumPixels) throws(PNGError) -> RGBAImage {
        let data: [UInt8]
        do {
            data = try InputFile.bytes(atPath: path)
        } catch {
            throw PNGError(path: path, reason: error.reason)
        }
        do {
            return try decodePNG(data, maximumPixels: maximumPixels)
        } catch {
            throw PNGError(path: path, reason: error.reason)
        }
    }

    private static func text(_ message: [CChar]) -> String {
        String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

extension PixelBuffer {
    /// Writes the buffer as a PNG (straight alpha; RGB when opaque).
    public func writePNG(to path: String, compression: Int = 6) throws(PNGError) {
        try RGBAImage(self).writePNG(to: path, compression: compression)
    }
}
