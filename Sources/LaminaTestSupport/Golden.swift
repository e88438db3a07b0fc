import Foundation
import LaminaRaster

/// Compares a rendered buffer with a frozen golden PNG. A golden is written once (when the
/// file is missing and `LAMINA_RECORD_GOLDENS=1`), checked by eye, and committed; from then
/// on any pixel that differs by more than `tolerance` (in 1/255) fails.
public enum Golden {
    public struct Mismatch: Error, CustomStringConvertible {
        public var description: String
    }

    /// Returns nil when `buffer` matches `path`, else what differs.
    public static func compare(_ buffer: PixelBuffer, to path: String, tolerance: Int = 0) throws -> String? {
        try compare(RGBAImage(buffer), to: path, tolerance: tolerance)
    }

    /// Returns nil when the image `actual` (a PNG read back, such as a contact sheet) matches
    /// `path`, else what differs.
    public static func compare(_ actual: RGBAImage, to path: String, tolerance: Int = 0) throws -> String? {
        if !FileManager.default.fileExists(atPath: path) {
            if ProcessInfo.processInfo.environment["LAMINA_RECORD_GOLDENS"] == "1" {
                try actual.writePNG(to: path)
                return "recorded a new golden at \(path); look at it, then commit it"
            }
            return "no golden at \(path) (record with LAMINA_RECORD_GOLDENS=1)"
        }
        let expected = try RGBAImage.readPNG(from: path)
        guard expected.width == actual.width, expected.height == actual.height else {
            return "size \(actual.width)x\(actual.height) differs from the golden's \(expected.width)x\(expected.height)"
        }
        var worst = 0, count = 0, first: (Int, Int)?
        for i in 0..<(actual.width * actual.height) {
            var d = 0
            for c in 0..<4 { d = max(d, abs(Int(actual.bytes[i * 4 + c]) - Int(expected.bytes[i * 4 + c]))) }
            if d > tolerance {
                count += 1
                worst = max(worst, d)
                if first == nil { first = (i % actual.width, i / actual.width) }
            }
        }
        guard count > 0, let first else { return nil }
        return "\(count) pixels differ by more than \(tolerance) (worst \(worst), first at \(first.0),\(first.1))"
    }
}

/// Pixel-by-pixel comparisons for differential tests.
public enum Pixels {
    /// How many pixels of two same-size buffers differ (any bit).
    public static func differing(_ a: PixelBuffer, _ b: PixelBuffer) -> Int {
        precondition(a.width == b.width && a.height == b.height, "buffers of different sizes")
        var count = 0
        for y in 0..<a.height {
            for x in 0..<a.width where a[x, y] != b[x, y] { count += 1 }
        }
        return count
    }

    /// The largest difference of any channel of any pixel of two same-size buffers, in 1/255.
    public static func worstChannelDifference(_ a: PixelBuffer, _ b: PixelBuffer) -> Int {
        precondition(a.width == b.width && a.height == b.height, "buffers of different sizes")
        var worst = 0
        for y in 0..<a.height {
            for x in 0..<a.width {
                for shift: UInt32 in [0, 8, 16, 24] {
                    worst = max(worst, abs(Int((a[x, y] >> shift) & 255) - Int((b[x, y] >> shift) & 255)))
                }
            }
        }
        return worst
    }
}
