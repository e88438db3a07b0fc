import LaminaGeometry
import LaminaRaster

/// Lays frames out in a grid, each cropped to the union of the pixels that differ between
/// any frame and the first (plus a margin): the part of the screen that moved.
enum ContactSheet {
    static let columns = 6
    static let maximumTileWidth = 320
    static let gap = 6
    static let margin = 12
    static let background = Color(red8: 0x30, green8: 0x30, blue8: 0x30)

    /// The pixel rectangle `[x0, x1) × [y0, y1)` in which any frame differs from the first,
    /// grown by `margin`; the whole frame when none differs.
    static func changedRegion(_ frames: [PixelBuffer]) -> PixelRect {
        let first = frames[0]
        var x0 = Int.max, y0 = Int.max, x1 = Int.min, y1 = Int.min
        for frame in frames.dropFirst() where frame.width == first.width && frame.height == first.height {
            for y in 0..<first.height {
                for x in 0..<first.width where frame[x, y] != first[x, y] {
                    x0 = min(x0, x); x1 = max(x1, x + 1)
                    y0 = min(y0, y); y1 = max(y1, y + 1)
                }
            }
        }
        let whole = PixelRect(width: first.width, height: first.height)
        guard x0 <= x1 else { return whole }
        return PixelRect(x0: x0 - margin, y0: y0 - margin, x1: x1 + margin, y1: y1 + margin).intersection(whole)
    }

    /// The sheet: frames in reading order, cropped and scaled down to fit the tile width.
    static func make(from frames: [PixelBuffer]) -> PixelBuffer {
        precondition(!frames.isEmpty, "a contact sheet needs frames")
        let crop = changedRegion(frames)
        let cropWidth = crop.x1 - crop.x0, cropHeight = crop.y1 - crop.y0
        let scale = min(1, Double(maximumTileWidth) / Double(cropWidth))
        let tileWidth = max(1, Int(Double(cropWidth) * scale)), tileHeight = max(1, Int(Double(cropHeight) * scale))
        let cols = min(columns, frames.count)
        let rows = (frames.count + cols - 1) / cols
        let sheet = PixelBuffer(width: cols * tileWidth + (cols + 1) * gap, height: rows * tileHeight + (rows + 1) * gap)
        sheet.fill(background)
        for (i, frame) in frames.enumerated() {
            let ox = gap + (i % cols) * (tileWidth + gap), oy = gap + (i / cols) * (tileHeight + gap)
            for ty in 0..<tileHeight {
                // Box filter over the source pixels that fall in this tile pixel.
                let sy0 = crop.y0 + Int(Double(ty) / scale), sy1 = max(sy0 + 1, crop.y0 + Int(Double(ty + 1) / scale))
                for tx in 0..<tileWidth {
                    let sx0 = crop.x0 + Int(Double(tx) / scale), sx1 = max(sx0 + 1, crop.x0 + Int(Double(tx + 1) / scale))
                    var sums: [UInt32] = [0, 0, 0, 0]
                    var count: UInt32 = 0
                    for sy in sy0..<min(sy1, frame.height) {
                        for sx in sx0..<min(sx1, frame.width) {
                            let p = frame[sx, sy]
                            sums[0] += p & 0xFF; sums[1] += p >> 8 & 0xFF; sums[2] += p >> 16 & 0xFF; sums[3] += p >> 24
                            count += 1
                        }
                    }
                    guard count > 0 else { continue }
                    func mean(_ sum: UInt32) -> UInt32 { (sum + count / 2) / count }
                    let pixel = (mean(sums[3]) << 24) | (mean(sums[2]) << 16) | (mean(sums[1]) << 8) | mean(sums[0])
                    sheet[ox + tx, oy + ty] = pixel
                }
            }
        }
        return sheet
    }
}
