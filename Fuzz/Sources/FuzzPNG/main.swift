import FuzzSupport

/// PNG bytes: decoded through libpng (dimension limits, interlacing, every colour type).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPNG(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let path = Fuzz.file(data, size, name: "input.png")
    if let image = try? RGBAImage.readPNG(from: path) {
        precondition(image.bytes.count == image.width * image.height * 4, "a decoded image of the wrong size")
    }
    return 0
}
