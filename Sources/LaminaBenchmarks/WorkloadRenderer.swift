import LaminaGeometry
import LaminaRaster

/// Renders one workload into its own premultiplied frame, the same way every time: clear to
/// the background, then every op src-over, single-threaded.
public final class WorkloadRenderer {
    public let workload: Workload
    public let frame: PixelBuffer
    private let canvas: Canvas
    private let images: [String: PixelBuffer]

    /// What Lamina can draw today; a workload needing more is reported as not supported.
    public static let supportedFeatures: Set<String> = ["stroke", "image"]

    /// Nil when the workload needs a feature Lamina does not draw yet, or an image it lacks.
    public init?(_ workload: Workload, images: [String: PixelBuffer] = [:]) {
        guard workload.neededFeatures.isSubset(of: Self.supportedFeatures) else { return nil }
        for op in workload.ops {
            if case .drawImage(let name, _, _) = op, images[name] == nil { return nil }
        }
        self.workload = workload
        self.images = images
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
            case .drawText:
                preconditionFailure("unsupported ops are refused in init")
            }
        }
    }
}
