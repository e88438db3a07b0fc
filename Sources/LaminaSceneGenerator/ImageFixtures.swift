#if canImport(Glibc)
import Glibc
#endif
import Lamina

/// The folder of images `SceneFileGenerator` names: a small PNG, a PNG whose header asks for
/// 16384 x 16384 pixels, a FIFO, a link out of the folder, and nothing for `missing.png`.
public enum ImageFixtures {
    /// Makes the images in `folder` (which must exist); a file already there is left.
    public static func make(in folder: String) throws {
        let small = RGBAImage(width: 4, height: 4, bytes: [UInt8](repeating: 200, count: 64))
        try small.writePNG(to: folder + "/small.png")
        try OutputFile.write(headerOnlyPNG(width: 16384, height: 16384), toPath: folder + "/huge-header.png")
        _ = mkfifo(folder + "/pipe.png", 0o600)
        _ = symlink("/etc/hostname", folder + "/escape.png")
    }

    /// A PNG signature and an IHDR chunk of `width` x `height` (RGBA, 8 bits), and nothing
    /// else: enough for a reader to know the size, nothing to decode.
    public static func headerOnlyPNG(width: UInt32, height: UInt32) -> [UInt8] {
        func be(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        let body = Array("IHDR".utf8) + be(width) + be(height) + [8, 6, 0, 0, 0]
        var crc: UInt32 = 0xFFFF_FFFF
        for b in body {
            crc ^= UInt32(b)
            for _ in 0..<8 { crc = crc & 1 == 1 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1 }
        }
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + be(13) + body + be(crc ^ 0xFFFF_FFFF)
    }
}
