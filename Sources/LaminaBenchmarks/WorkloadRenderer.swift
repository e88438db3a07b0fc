import Dispatch
import LaminaGeometry
import LaminaRaster

/// Renders one workload into its own premultiplied frame, the same way every time: clear to
/// the background, then every op src-over. With `threads > 1` the frame is split into that
/// many horizontal bands drawn at once, each by its own canvas (rasterizer, clip, glyph
/// caches) on disjoint rows; the result is pixel-identical to one thread.
public final class WorkloadRenderer {
    public let workload: Workload
    public let frame: PixelBuffer
    private let bands: [Band]

    /// One band's drawing state; only its own thread touches it during a frame.
    final class Band: @unchecked Sendable {
        let canvas: Canvas
        let rows: (y0: Int, y1: Int)
        let fonts: [String: Font]

        init(canvas: Canvas, rows: (y0: Int, y1: Int), fonts: [String: Font]) {
            self.canvas = canvas
            self.rows = rows
            self.fonts = fonts
        }
    }

    /// What Lamina can draw today; a workload needing more is reported as not supported.
    public static let supportedFeatures: Set<String> = ["stroke", "image", "text"]

    private let images: [String: PixelBuffer]

    /// Nil when the workload needs a feature Lamina does not draw yet, or an image or font
    /// it cannot find.
    public init?(_ workload: Workload, images: [String: PixelBuffer] = [:], fontPaths: [String: String] = [:],
                 threads: Int = 1) {
        guard workload.neededFeatures.isSubset(of: Self.supportedFeatures) else { return nil }
        var fontNames: Set<String> = []
        for op in workload.ops {
            switch op {
            case .drawImage(let name, _, _):
                if images[name] == nil { return nil }
            case .drawText(let name, _, _, _, _):
                guard fontPaths[name] != nil else { return nil }
                fontNames.insert(name)
            default:
                break
            }
        }
        self.workload = workload
        self.images = images
        frame = PixelBuffer(width: workload.width, height: workload.height)
        let count = max(1, min(threads, workload.height))
        var bands: [Band] = []
        for i in 0..<count {
            let y0 = workload.height * i / count, y1 = workload.height * (i + 1) / count
            let canvas = Canvas(target: frame)
            canvas.clip(to: Rect(x: 0, y: Double(y0), width: Double(workload.width), height: Double(y1 - y0)))
            var fonts: [String: Font] = [:]
            for name in fontNames {
                guard let path = fontPaths[name], let font = try? Font(path: path) else { return nil }
                fonts[name] = font
            }
            bands.append(Band(canvas: canvas, rows: (y0, y1), fonts: fonts))
        }
        self.bands = bands
    }

    /// Features missing for `workload`, sorted.
    public static func missingFeatures(_ workload: Workload) -> [String] {
        workload.neededFeatures.subtracting(supportedFeatures).sorted()
    }

    /// Draws one whole frame.
    public func renderFrame() {
        if bands.count == 1 {
            render(bands[0])
            return
        }
        let bands = self.bands
        let renderer = UncheckedRenderer(self)
        DispatchQueue.concurrentPerform(iterations: bands.count) { renderer.value.render(bands[$0]) }
    }

    private func render(_ band: Band) {
        let canvas = band.canvas
        frame.fill(pixel: workload.background.premultiplied.pixel32, x0: 0, y0: band.rows.y0,
                   x1: workload.width, y1: band.rows.y1)
        for op in workload.ops {
            switch op {
            case .fill(let path, let rule, let color):
                canvas.fill(path, color: color, rule: rule)
            case .stroke(let path, let style, let color):
                canvas.stroke(path, style: style, color: color)
            case .drawImage(let name, let transform, let opacity):
                canvas.draw(images[name]!, transform: transform, opacity: opacity, filter: .bilinear)
            case .drawText(let font, let size, let origin, let text, let color):
                canvas.draw(text: text, font: band.fonts[font]!, size: size, origin: origin, color: color)
            }
        }
    }
}

/// Lets the bands' threads call back into the renderer; each touches only its own band.
private struct UncheckedRenderer: @unchecked Sendable {
    let value: WorkloadRenderer
    init(_ value: WorkloadRenderer) { self.value = value }
}
