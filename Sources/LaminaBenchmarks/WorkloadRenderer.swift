import Dispatch
import LaminaGeometry
import LaminaRaster

/// Renders one workload into its own premultiplied frame, the same way every time: clear to
/// the background, then every op src-over. With `threads > 1` the frame is split into that
/// many horizontal bands drawn at once, each by its own canvas (rasterizer, clip, glyph
/// caches) on disjoint rows; the result is pixel-identical to one thread. Each fill's and
/// stroke's device polygons are then made once a frame, the ops shared out among the threads,
/// before the bands fill them: a shape across a band's edge is flattened or stroked once, not
/// once per band it reaches (as Blend2D's workers build a path's edges once, then the bands).
public final class WorkloadRenderer {
    public let workload: Workload
    public let frame: PixelBuffer
    private let bands: [Band]
    /// With bands: each op's polygons for this frame (nil for images and text), written by
    /// one thread each before any band reads them.
    private let shapes: UnsafeMutableBufferPointer<Shape?>

    /// A fill or stroke made ready for the bands: its device polygons, how to fill them, and
    /// the rows they span.
    struct Shape {
        let polygons: [[Point]]
        let rule: FillRule
        let color: Color
        let minY: Double, maxY: Double
    }

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
        shapes = .allocate(capacity: bands.count > 1 ? workload.ops.count : 0)
        shapes.initialize(repeating: nil)
    }

    deinit {
        shapes.deinitialize()
        shapes.deallocate()
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
        DispatchQueue.concurrentPerform(iterations: bands.count) { renderer.value.prepareShapes(part: $0, of: bands.count) }
        DispatchQueue.concurrentPerform(iterations: bands.count) { renderer.value.render(bands[$0]) }
    }

    /// Makes the polygons of every `parts`-th fill and stroke from op `part` on, as the
    /// canvas would (a fill's curves wholly off the canvas as chords, decision 157; a
    /// stroke's outline at the canvas's tolerance).
    private func prepareShapes(part: Int, of parts: Int) {
        let tolerance = bands[0].canvas.flatteningTolerance
        let canvasRect = Rect(x: 0, y: 0, width: Double(workload.width), height: Double(workload.height))
        for index in stride(from: part, to: workload.ops.count, by: parts) {
            switch workload.ops[index] {
            case .fill(let path, let rule, let color):
                shapes[index] = Self.shape(path.fillPolygons(tolerance: tolerance, inside: canvasRect), rule, color)
            case .stroke(let path, let style, let color):
                shapes[index] = Self.shape(path.stroked(style, tolerance: tolerance), .nonZero, color)
            case .drawImage, .drawText:
                shapes[index] = nil
            }
        }
    }

    private static func shape(_ polygons: [[Point]], _ rule: FillRule, _ color: Color) -> Shape {
        var minY = Double.infinity, maxY = -Double.infinity
        for polygon in polygons {
            for p in polygon {
                minY = min(minY, p.y)
                maxY = max(maxY, p.y)
            }
        }
        return Shape(polygons: polygons, rule: rule, color: color, minY: minY, maxY: maxY)
    }

    private func render(_ band: Band) {
        let canvas = band.canvas
        frame.fill(pixel: workload.background.premultiplied.pixel32, x0: 0, y0: band.rows.y0,
                   x1: workload.width, y1: band.rows.y1)
        let shared = bands.count > 1
        for (index, op) in workload.ops.enumerated() {
            switch op {
            case .fill(let path, let rule, let color):
                if shared { fill(shapes[index]!, in: band) } else { canvas.fill(path, color: color, rule: rule) }
            case .stroke(let path, let style, let color):
                if shared { fill(shapes[index]!, in: band) } else { canvas.stroke(path, style: style, color: color) }
            case .drawImage(let name, let transform, let opacity):
                canvas.draw(images[name]!, transform: transform, opacity: opacity, filter: .bilinear)
            case .drawText(let font, let size, let origin, let text, let color):
                canvas.draw(text: text, font: band.fonts[font]!, size: size, origin: origin, color: color)
            }
        }
    }

    /// A prepared shape into `band`, when its rows reach the band's (a row's coverage comes
    /// from the edges in that row alone). The bounds pass over a point that is not finite;
    /// the canvas culls such a shape wherever it is handed on.
    private func fill(_ shape: Shape, in band: Band) {
        if shape.maxY < Double(band.rows.y0) - 1 || shape.minY > Double(band.rows.y1) + 1 { return }
        band.canvas.fill(polygons: shape.polygons, color: shape.color, rule: shape.rule)
    }
}

/// Lets the bands' threads call back into the renderer; each touches only its own band.
private struct UncheckedRenderer: @unchecked Sendable {
    let value: WorkloadRenderer
    init(_ value: WorkloadRenderer) { self.value = value }
}
