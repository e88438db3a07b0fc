import LaminaAnimation
import LaminaGeometry
import LaminaLayers
import LaminaRaster

/// How far something has got (`UIProgressView`, and the ring iOS draws for downloads): a bar
/// or a ring filled to `progress`, or, when nothing can say how far (`isIndeterminate`), a
/// segment that runs along the bar or around the ring for as long as it shows.
///
/// Setting `progress` moves the fill over 0.25 s (`setProgress(_:animated:)` says otherwise).
/// An indeterminate one animates forever and so keeps frames coming: hide it, or make it
/// determinate, when the wait is over.
public final class ProgressView {
    /// The two shapes.
    public enum Style: String, Sendable {
        /// A rounded bar filling from the left.
        case bar
        /// A ring filling clockwise from the top.
        case ring
    }

    /// Seconds the indeterminate segment takes to run the bar or turn the ring once.
    public static let indeterminatePeriod = 1.2

    /// Place it.
    public let layer: Layer
    /// The empty track: a bar, or a ring's full circle.
    public let track: Layer
    /// The filled part: a bar, or the ring's arc (a `ShapeLayer` whose `strokeEnd` is the progress).
    public let fill: Layer
    /// Bar or ring.
    public let style: Style
    /// The theme it was made with.
    public let theme: Theme

    /// How far, 0…1 (clamped). Setting it animates the fill over 0.25 s.
    public var progress: Double {
        get { current }
        set { setProgress(newValue, animated: true) }
    }

    /// Whether it shows a running segment instead of a fill.
    public var isIndeterminate = false {
        didSet { if isIndeterminate != oldValue { show(animated: false) } }
    }

    private var current = 0.0

    /// A bar `size` large (its height the bar's thickness), or a ring whose diameter is the
    /// smaller side, with a stroke a tenth of that.
    public init(style: Style, size: Size, progress: Double = 0, theme: Theme = .dark) {
        self.style = style
        self.theme = theme
        layer = Layer()
        let w = max(size.width.isFinite ? size.width : 0, 1), h = max(size.height.isFinite ? size.height : 0, 1)
        switch style {
        case .bar:
            track = Layer()
            fill = Layer()
        case .ring:
            track = ShapeLayer()
            fill = ShapeLayer()
        }
        withoutActions {
            layer.bounds = Rect(x: 0, y: 0, width: w, height: h)
            switch style {
            case .bar:
                track.bounds = layer.bounds
                track.position = Point(x: w / 2, y: h / 2)
                track.cornerRadius = h / 2
                track.masksToBounds = true
                track.backgroundColor = theme.surface
                fill.anchorPoint = .zero
                fill.cornerRadius = h / 2
                fill.backgroundColor = theme.accent
                track.addSublayer(fill)
            case .ring:
                let side = min(w, h), lineWidth = max(side / 10, 1)
                let circle = Path(ovalIn: Rect(x: lineWidth / 2, y: lineWidth / 2, width: side - lineWidth, height: side - lineWidth))
                for (shape, color) in [(track, theme.surface), (fill, theme.accent)] {
                    guard let shape = shape as? ShapeLayer else { continue }
                    shape.bounds = Rect(x: 0, y: 0, width: side, height: side)
                    shape.position = Point(x: w / 2, y: h / 2)
                    shape.path = circle
                    shape.fillColor = nil
                    shape.strokeColor = color
                    shape.lineWidth = lineWidth
                    shape.lineCap = .round
                }
                // The oval starts at 3 o'clock and runs clockwise on screen: turned back a
                // quarter, the fill starts at 12.
                fill.transform = Transform3D(rotationAngle: -Double.pi / 2, x: 0, y: 0, z: 1)
            }
            layer.addSublayer(track)
            if style == .ring { layer.addSublayer(fill) }
        }
        current = Self.clamped(progress)
        show(animated: false)
    }

    /// Sets how far, moving the fill over 0.25 s when `animated`.
    public func setProgress(_ progress: Double, animated: Bool) {
        current = Self.clamped(progress)
        show(animated: animated)
    }

    private static func clamped(_ p: Double) -> Double { p.isFinite ? min(max(p, 0), 1) : 0 }

    private func show(animated: Bool) {
        Transaction.begin()
        Transaction.disableActions = !animated
        Transaction.animationDuration = 0.25
        fill.removeAnimation(forKey: "indeterminate")
        switch style {
        case .bar:
            let w = track.bounds.width, h = track.bounds.height
            if isIndeterminate {
                let segment = w * 0.3
                fill.bounds = Rect(x: 0, y: 0, width: segment, height: h)
                var run = BasicAnimation(keyPath: "position.x", from: .scalar(-segment), to: .scalar(w), duration: Self.indeterminatePeriod)
                run.timing.repeatCount = .infinity
                run.timingFunction = .easeInEaseOut
                fill.add(run, forKey: "indeterminate")
                fill.position = Point(x: -segment, y: 0)
            } else {
                fill.bounds = Rect(x: 0, y: 0, width: w * current, height: h)
                fill.position = .zero
            }
        case .ring:
            guard let arc = fill as? ShapeLayer else { break }
            if isIndeterminate {
                arc.strokeEnd = 0.25
                var turn = BasicAnimation(keyPath: "transform.rotation.z", from: .scalar(-Double.pi / 2),
                                          to: .scalar(3 * Double.pi / 2), duration: Self.indeterminatePeriod)
                turn.timing.repeatCount = .infinity
                arc.add(turn, forKey: "indeterminate")
            } else {
                arc.strokeEnd = current
            }
        }
        Transaction.commit()
    }
}
