import LaminaAnimation
import LaminaGeometry
import LaminaLayers
import LaminaRaster

/// One value of a motion curve.
public struct CurveSample: Hashable, Sendable, Codable {
    /// Seconds (or input progress for a timing function).
    public var t: Double
    public var value: Double
}

/// Values of timing functions, springs and whole animations over time, computed by the
/// engine itself (for `lamina curve`): a designer sees exactly what a layer would show.
public enum MotionCurves {
    /// The eased value of `function` at each input progress.
    public static func timing(_ function: TimingFunction, at inputs: [Double]) -> [CurveSample] {
        inputs.map { CurveSample(t: $0, value: function($0)) }
    }

    /// The spring's progress (0 at rest at the start, 1 at the target) at each time.
    public static func spring(_ spring: Spring, at times: [Double]) -> [CurveSample] {
        times.map { CurveSample(t: $0, value: spring.fraction(at: $0)) }
    }

    /// What a layer's `position.x` shows at each media time, with `model` as its model value
    /// and `animation` (on that key path) added and committed at media time 0: a real layer
    /// tree, committed and presented frame by frame in the order of `times`, so removal on
    /// completion, fills and begin times behave exactly as on screen.
    public static func basic(_ animation: BasicAnimation, model: Double, at times: [Double]) -> [CurveSample] {
        let root = Layer()
        let layer = Layer()
        layer.position = Point(x: model, y: 0)
        root.addSublayer(layer)
        let tree = LayerTree(root: root)
        var animation = animation
        animation.keyPath = "position.x"
        layer.add(animation, forKey: "curve")
        tree.commit(at: 0)
        return times.map { t in
            tree.updatePresentation(at: t)
            return CurveSample(t: t, value: layer.presentation()?.position.x ?? model)
        }
    }

    /// `count` evenly spaced times from `start` to `end`, both included.
    public static func evenly(from start: Double, to end: Double, count: Int) -> [Double] {
        guard count > 1 else { return [start] }
        return (0..<count).map { start + (end - start) * Double($0) / Double(count - 1) }
    }

    /// A plot of the samples joined by straight lines: light grid lines at values 0 and 1,
    /// the time axis at the bottom, the curve in blue, labelled with `title` and the ranges
    /// when the default font is installed.
    public static func plot(_ samples: [CurveSample], title: String, width: Int = 720, height: Int = 400) -> PixelBuffer {
        let image = PixelBuffer(width: width, height: height)
        let canvas = Canvas(target: image)
        canvas.clear(.white)
        guard let first = samples.first else { return image }
        let t0 = first.t, t1 = max(samples.last!.t, t0 + 1e-9)
        let lowest = min(samples.map(\.value).min()!, 0), highest = max(samples.map(\.value).max()!, 1)
        let span = max(highest - lowest, 1e-9)
        let left = 60.0, right = Double(width) - 20, top = 40.0, bottom = Double(height) - 40
        func x(_ t: Double) -> Double { left + (t - t0) / (t1 - t0) * (right - left) }
        func y(_ v: Double) -> Double { bottom - (v - lowest) / span * (bottom - top) }
        let grid = StrokeStyle(width: 1)
        for level in [0.0, 1.0] {
            var line = Path()
            line.move(to: Point(x: left, y: y(level)))
            line.line(to: Point(x: right, y: y(level)))
            canvas.stroke(line, style: grid, color: Color(red: 0.8, green: 0.82, blue: 0.86))
        }
        var axis = Path()
        axis.move(to: Point(x: left, y: top))
        axis.line(to: Point(x: left, y: bottom))
        axis.line(to: Point(x: right, y: bottom))
        canvas.stroke(axis, style: grid, color: Color(red: 0.3, green: 0.3, blue: 0.35))
        var curve = Path()
        curve.move(to: Point(x: x(first.t), y: y(first.value)))
        for s in samples.dropFirst() { curve.line(to: Point(x: x(s.t), y: y(s.value))) }
        canvas.stroke(curve, style: StrokeStyle(width: 2.5, cap: .round, join: .round),
                      color: Color(red8: 0x3B, green8: 0x82, blue8: 0xF6))
        if let font = try? Font() {
            let ink = Color(red: 0.15, green: 0.15, blue: 0.2)
            canvas.draw(text: title, font: font, size: 15, origin: Point(x: left, y: 24), color: ink)
            canvas.draw(text: format(t0), font: font, size: 12, origin: Point(x: left, y: bottom + 18), color: ink)
            let end = format(t1)
            let endWidth = font.layout(end, size: 12).width
            canvas.draw(text: end, font: font, size: 12, origin: Point(x: right - endWidth, y: bottom + 18), color: ink)
            for level in [0.0, 1.0] {
                let label = format(level)
                let w = font.layout(label, size: 12).width
                canvas.draw(text: label, font: font, size: 12, origin: Point(x: left - 8 - w, y: y(level) + 4), color: ink)
            }
        }
        return image
    }

    /// A short decimal for labels and text output.
    public static func format(_ v: Double) -> String {
        let rounded = (v * 1_000_000).rounded() / 1_000_000
        return abs(rounded) < 1e15 && rounded == rounded.rounded() ? String(Int(rounded)) : "\(rounded)"
    }
}
