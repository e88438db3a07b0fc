import LaminaGeometry
import LaminaRaster

/// Contents an overlay plane shows instead of the renderer drawing them: which part of the
/// image (`source`, in its pixels) lands on which device pixels (`destination`).
public struct OverlayContents {
    /// The image (a video layer's frame).
    public let image: PixelBuffer
    /// The part of the image shown.
    public let source: Rect
    /// Where it is shown, in device pixels.
    public let destination: PixelRect
}

/// Choosing contents for an overlay plane, every frame (decision 146): of the contents the
/// walk found drawn as a plane could show them (`ScanoutCandidate`), the largest that lands
/// on whole pixels with nothing painted over it. The caller asks the display whether it
/// takes it; when it does, the layer's record loses the image's identity (a new frame
/// damages nothing) and painting skips the image.
extension Renderer {
    /// The candidate an overlay plane could take this frame, with its placement.
    static func overlayChoice(_ list: DisplayList) -> (candidate: ScanoutCandidate, contents: OverlayContents)? {
        var best: (candidate: ScanoutCandidate, contents: OverlayContents)?
        for candidate in list.scanoutCandidates {
            guard let whole = DrawingGeometry.wholePixels(candidate.imageRect) else { continue }
            let destination = whole.intersection(candidate.clip)
            guard !destination.isEmpty, destination.area > best?.contents.destination.area ?? 0 else { continue }
            let covered = list.records.entries(afterOwn: candidate.record).contains { _, record in
                record.paintBox.map { !$0.intersection(destination).isEmpty } ?? false
            }
            guard !covered else { continue }
            let sx = Double(candidate.image.width) / Double(whole.width)
            let sy = Double(candidate.image.height) / Double(whole.height)
            let source = Rect(x: Double(destination.x0 - whole.x0) * sx, y: Double(destination.y0 - whole.y0) * sy,
                              width: Double(destination.width) * sx, height: Double(destination.height) * sy)
            best = (candidate, OverlayContents(image: candidate.image, source: source, destination: destination))
        }
        return best
    }
}
