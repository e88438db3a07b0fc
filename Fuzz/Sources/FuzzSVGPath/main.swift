import FuzzSupport

/// SVG path data: parsed, written back as path data that must parse again, then filled and
/// stroked on a small canvas.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSVGPath(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    guard size <= 4096, let path = try? Path(svgPathData: Fuzz.text(data, size)) else { return 0 }
    let written = path.svgPathData
    do {
        _ = try Path(svgPathData: written)
    } catch {
        preconditionFailure("path data Lamina wrote does not parse: \(written.prefix(200)): \(error)")
    }
    let canvas = Canvas(target: PixelBuffer(width: Fuzz.canvasSize.width, height: Fuzz.canvasSize.height))
    canvas.fill(path, color: .white)
    canvas.stroke(path, style: StrokeStyle(width: 3, cap: .round, join: .round), color: .black)
    return 0
}
