import LaminaGeometry
import LaminaRaster

/// Renders one workload into its own premultiplied frame, the same way every time: clear to
/// the background, then every op src-over, single-threaded.
public final class WorkloadRenderer {
    public let workload: Workload
    public let frame: PixelBuffer
    private let canvas: Canvas

    /// What Lamina can draw today; a workload needing more is reported as not supported.
    public static let supportedFeatures: Set<String> = ["stroke"]

    /// Nil when the workload needs a feature Lamina does not draw yet.
    public init?(_ workload: Workload) {
        guard workload.neededFeatures.isSubset(of: Self.supportedFeatures) else { return nil }
        self.workload = workload
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
            case .drawImage, .drawText:
                preconditionFailure("unsupported ops are refused in init")
            }
        }
    }
}
