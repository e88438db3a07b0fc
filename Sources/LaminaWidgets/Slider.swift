import LaminaGeometry
import LaminaInput
import LaminaLayers
import LaminaRuntime

/// A value chosen along a track (`UISlider`): a touch anywhere on the track jumps the thumb
/// there, a drag moves it, and with `step` the value snaps to whole steps. `onChange` hears
/// every change a touch makes; `onCommit` hears the value when the finger lifts. A touch
/// taken by a scroll view around it puts the value back where it was.
public final class Slider {
    /// The track's thickness in pixels.
    public static let trackThickness = 8.0
    /// The thumb's diameter in pixels.
    public static let thumbDiameter = 32.0

    /// The touch target: place it. As wide as the slider and at least
    /// `Theme.minimumTouchTarget` tall.
    public let layer: Layer
    /// The whole track.
    public let track: Layer
    /// The track's part below the value, in the accent colour.
    public let fill: Layer
    /// The round thumb.
    public let thumb: Layer
    /// The theme it was made with.
    public let theme: Theme
    /// The values it spans.
    public let range: ClosedRange<Double>
    /// When set, the value is always `range.lowerBound` plus a whole number of steps.
    public var step: Double? {
        didSet { value = value }
    }
    /// Called with every change a touch makes.
    public var onChange: ((Slider) -> Void)?
    /// Called when the finger lifts, with the value it left.
    public var onCommit: ((Slider) -> Void)?
    /// Whether it takes touches.
    public var isEnabled = true {
        didSet { withoutActions { layer.opacity = isEnabled ? 1 : theme.disabledOpacity } }
    }
    /// True while a finger moves it.
    public private(set) var isTracking = false

    /// The value, kept in `range` (and on a step).
    public var value: Double {
        get { current }
        set {
            current = snapped(newValue)
            layOut()
        }
    }

    private var current: Double
    private var valueAtTouch: Double?

    /// A slider `width` pixels wide over `range`, at `value`.
    public init(context: SceneContext, width: Double, range: ClosedRange<Double> = 0...1, value: Double? = nil,
                step: Double? = nil, theme: Theme = .dark) {
        self.theme = theme
        self.range = range.lowerBound.isFinite && range.upperBound.isFinite ? range : 0...1
        self.step = step.flatMap { $0 > 0 && $0.isFinite ? $0 : nil }
        current = self.range.lowerBound
        layer = Layer()
        track = Layer()
        fill = Layer()
        thumb = Layer()
        let width = max(width.isFinite ? width : 0, Self.thumbDiameter)
        withoutActions {
            layer.bounds = Rect(x: 0, y: 0, width: width, height: max(Self.thumbDiameter, theme.minimumTouchTarget))
            track.bounds = Rect(x: 0, y: 0, width: width - Self.thumbDiameter, height: Self.trackThickness)
            track.position = Point(x: width / 2, y: layer.bounds.height / 2)
            track.cornerRadius = Self.trackThickness / 2
            track.backgroundColor = theme.surface
            fill.anchorPoint = Point(x: 0, y: 0)
            fill.cornerRadius = Self.trackThickness / 2
            fill.backgroundColor = theme.accent
            thumb.bounds = Rect(x: 0, y: 0, width: Self.thumbDiameter, height: Self.thumbDiameter)
            thumb.cornerRadius = Self.thumbDiameter / 2
            thumb.backgroundColor = theme.knob
            thumb.shadowOpacity = 0.3
            thumb.shadowRadius = 2
            thumb.shadowOffset = Size(width: 0, height: 1)
            layer.addSublayer(track)
            track.addSublayer(fill)
            layer.addSublayer(thumb)
        }
        self.value = value ?? self.range.lowerBound
        let relay = Relay()
        context.addTouchHandler(to: layer) { relay.slider?.touched($0) }
        relay.slider = self
    }

    private final class Relay {
        weak var slider: Slider?
    }

    /// `v` kept in the range and on a step.
    private func snapped(_ v: Double) -> Double {
        guard v.isFinite else { return current }
        var x = min(max(v, range.lowerBound), range.upperBound)
        if let step {
            x = range.lowerBound + ((x - range.lowerBound) / step).rounded() * step
            if x > range.upperBound { x -= step }
        }
        return x
    }

    /// The part of the range below the value, 0…1.
    public var fraction: Double {
        let span = range.upperBound - range.lowerBound
        return span > 0 ? (current - range.lowerBound) / span : 0
    }

    private func layOut() {
        let length = track.bounds.width
        withoutActions {
            fill.bounds = Rect(x: 0, y: 0, width: length * fraction, height: Self.trackThickness)
            fill.position = .zero
            thumb.position = Point(x: Self.thumbDiameter / 2 + length * fraction, y: layer.bounds.height / 2)
        }
    }

    /// The value under the finger.
    private func value(at touch: Touch) -> Double {
        let x = touch.location(in: track).x
        let length = track.bounds.width
        let f = length > 0 ? min(max(x / length, 0), 1) : 0
        return range.lowerBound + f * (range.upperBound - range.lowerBound)
    }

    private func touched(_ touch: Touch) {
        guard isEnabled else { return }
        switch touch.phase {
        case .began:
            valueAtTouch = current
            isTracking = true
            change(to: value(at: touch))
        case .moved:
            guard isTracking else { return }
            change(to: value(at: touch))
        case .stationary:
            break
        case .ended:
            guard isTracking else { return }
            change(to: value(at: touch))
            isTracking = false
            valueAtTouch = nil
            onCommit?(self)
        case .cancelled:
            guard isTracking else { return }
            isTracking = false
            if let before = valueAtTouch { change(to: before) }
            valueAtTouch = nil
        }
    }

    private func change(to v: Double) {
        let old = current
        value = v
        if current != old { onChange?(self) }
    }
}
