import LaminaGeometry
import LaminaRaster

/// Renders one workload into its own premultiplied frame, the same way every time: clear to
/// the background, then every op src-over, single-threaded.
public final class WorkloadRenderer {
    public let workload: Workload
    public let frame: PixelBuffer
    private let canvas: Canvas
    private let images: [String: PixelBuffer]
    private let fonts: [String: Font]

    /// What Lamina can draw today; a workload needing more is reported as not supported.
    public static let supportedFeatures: Set<String> = ["stroke", "image", "text"]

    /// Nil when the workload needs a feature Lamina does not draw yet, or an image or font
    /// it cannot find.
    public init?(_ workload: Workload, images: [String: PixelBuffer] = [:], fontPaths: [String: String] = [:]) {
        guard workload.neededFeatures.isSubset(of: Self.supportedFeatures) else { return nil }
        var fonts: [String: Font] = [:]
        for op in workload.ops {
            switch op {
            case .drawImage(let name, _, _):
                if images[name] == nil { return nil }
            case .drawText(let name, _, _, _, _):
                if fonts[name] == nil {
                    guard let path = fontPaths[name], let font = try? Font(path: path) else { return nil }
                    fonts[name] = font
                }
            default:
                break
            }
        }
        self.workload = workload
        self.images = images
        self.fonts = fonts
        frame = PixelBuffer(width: workload.width, height: workload.height)
        canvas = Canvas(target: frame)
    }

    /// Features missing for `workload`, sorted.
    public static func missingFeatures(_ workload: Workload) -> [String] {
        workload.neededFeatures.subtracting(supportedFeatures).sorted()
    }

    /// Draws one whole frame.
    public func renderFrame() {
        canvas.clear(workload.background)
        for op in workload.ops {
            switch op {
            case .fill(let path, let rule, let color):
                canvas.fill(path, color: color, rule: rule)
            case .stroke(let path, let style, let color):
                canvas.stroke(path, style: style, color: color)
            case .drawImage(let name, let transform, let opacity):
                canvas.draw(images[name]!, transform: transform, opacity: opacity, filter: .bilinear)
            case .drawText(let font, let size, let origin, let text, let color):
                canvas.draw(text: text, font: fonts[font]!, size: size, origin: origin, color: color)
            }
        }
    }
}
