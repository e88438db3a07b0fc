import LaminaAnimation
import LaminaGeometry
import LaminaInput
import LaminaLayers
import LaminaRuntime

/// An on/off switch (`UISwitch`): a pill-shaped track, the accent when on, with a round knob
/// that springs to the side it is on. A tap flips it and calls `onChange`; so does a slide
/// of the knob toward the other side. Its touch target is at least `Theme.minimumTouchTarget`.
public final class Toggle {
    /// The track's size in pixels.
    public static let trackSize = Size(width: 68, height: 38)
    /// The gap between the knob and the track's edge, in pixels.
    public static let knobInset = 4.0

    /// The touch target: place it.
    public let layer: Layer
    /// The pill.
    public let track: Layer
    /// The round knob.
    public let knob: Layer
    /// Called when a touch flips it (not when `isOn` is set).
    public var onChange: ((Toggle) -> Void)?
    /// The theme it was made with.
    public let theme: Theme
    /// Whether it takes touches.
    public var isEnabled = true {
        didSet { withoutActions { layer.opacity = isEnabled ? 1 : theme.disabledOpacity } }
    }

    /// Whether it is on. Setting it moves the knob at once.
    public var isOn: Bool {
        get { on }
        set { setOn(newValue, animated: false) }
    }

    private var on: Bool
    /// Where the finger landed, to tell a slide from a tap.
    private var touchStart: Point?

    /// A toggle, off unless `isOn`.
    public init(context: SceneContext, isOn: Bool = false, theme: Theme = .dark) {
        self.theme = theme
        on = isOn
        layer = Layer()
        track = Layer()
        knob = Layer()
        let size = Self.trackSize
        let side = size.height - 2 * Self.knobInset
        withoutActions {
            layer.bounds = Rect(x: 0, y: 0, width: max(size.width, theme.minimumTouchTarget),
                                height: max(size.height, theme.minimumTouchTarget))
            track.bounds = Rect(origin: .zero, size: size)
            track.position = Point(x: layer.bounds.width / 2, y: layer.bounds.height / 2)
            track.cornerRadius = size.height / 2
            knob.bounds = Rect(x: 0, y: 0, width: side, height: side)
            knob.cornerRadius = side / 2
            knob.backgroundColor = theme.knob
            knob.shadowOpacity = 0.3
            knob.shadowRadius = 2
            knob.shadowOffset = Size(width: 0, height: 1)
            layer.addSublayer(track)
            track.addSublayer(knob)
        }
        show(animated: false)
        let relay = Relay()
        context.addTouchHandler(to: layer) { relay.toggle?.touched($0) }
        relay.toggle = self
    }

    private final class Relay {
        weak var toggle: Toggle?
    }

    /// Turns it on or off, the knob springing over when `animated`.
    public func setOn(_ isOn: Bool, animated: Bool) {
        guard isOn != on else { return }
        on = isOn
        show(animated: animated)
    }

    /// The knob's centre for a side.
    private func knobCentre(on: Bool) -> Point {
        let size = Self.trackSize, inset = Self.knobInset, r = (size.height - 2 * inset) / 2
        return Point(x: on ? size.width - inset - r : inset + r, y: size.height / 2)
    }

    private func show(animated: Bool) {
        let target = knobCentre(on: on)
        withoutActions {
            if animated {
                let spring = BasicAnimation(keyPath: "position", from: .point(knob.presentation()?.position ?? knob.position),
                                            to: .point(target), spring: Spring(dampingRatio: 0.75, duration: 0.3), duration: 0.3)
                knob.add(spring, forKey: "toggle")
            }
            knob.position = target
            track.backgroundColor = on ? theme.accent : theme.surface
        }
    }

    private func touched(_ touch: Touch) {
        guard isEnabled else { return }
        let p = touch.location(in: track)
        switch touch.phase {
        case .began:
            touchStart = p
        case .ended:
            guard let start = touchStart else { return }
            touchStart = nil
            let slid = p.x - start.x
            // A slide of more than a quarter of the track goes its way; anything else taps.
            let flipped = abs(slid) > Self.trackSize.width / 4 ? (slid > 0) != on : true
            guard flipped else { return }
            setOn(!on, animated: true)
            onChange?(self)
        case .cancelled:
            touchStart = nil
        case .moved, .stationary:
            break
        }
    }
}
