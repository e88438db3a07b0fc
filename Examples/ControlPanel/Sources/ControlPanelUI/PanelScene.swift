import Lamina

/// A boiler's control panel: a gauge and a readout of the setpoint, three preset buttons
/// with pressed states, and a slider dragged by the finger.
public final class PanelScene: Scene {
    public static let name = "panel"
    public static let summary = "a setpoint gauge, preset buttons and a slider"

    /// `[panel]`: `title`, `minimum`, `maximum`, `initial`, `accent`.
    public struct Settings: SceneSettings {
        public var title = "Boiler"
        public var minimum = 30.0
        public var maximum = 90.0
        public var initial = 55.0
        public var accent = Color(red8: 0x38, green8: 0xBD, blue8: 0xF8)

        public init() {}

        public init(from table: SettingsTable) throws(ConfigError) {
            title = try table.string("title", default: title, maxLength: 40)
            minimum = try table.number("minimum", default: minimum, in: -1000...1000)
            maximum = try table.number("maximum", default: maximum, in: -1000...1000)
            guard maximum > minimum else {
                throw ConfigError(file: table.file, field: "\(table.name).maximum",
                                  reason: "must be above minimum (\(minimum))")
            }
            initial = try table.number("initial", default: min(max(initial, minimum), maximum), in: minimum...maximum)
            accent = try table.color("accent", default: accent)
            try table.rejectUnknownKeys()
        }
    }

    /// The presets the buttons choose, as fractions of the range.
    static let presets: [(label: String, fraction: Double)] = [("Eco", 0.25), ("Comfort", 0.5), ("Boost", 0.9)]

    let settings: Settings
    public let gauge = GaugeLayer()
    public let readout = TextLayer()
    public private(set) var buttons: [Layer] = []
    let track = Layer()
    let fill = Layer()
    let knob = Layer()
    /// The setpoint, within the settings' range.
    public private(set) var value: Double

    public init(context: SceneContext, settings: Settings) {
        self.settings = settings
        value = settings.initial
        let screen = context.screenSize
        let root = context.rootLayer
        let unit = min(screen.width / 800, screen.height / 480)     // laid out for 800x480, scaled

        let title = TextLayer()
        title.string = settings.title
        title.fontSize = (28 * unit).rounded()
        title.foregroundColor = .white
        title.bounds = Rect(x: 0, y: 0, width: screen.width - 64 * unit, height: title.fontSize * 1.4)
        title.position = Point(x: screen.width / 2, y: 48 * unit)
        root.addSublayer(title)

        let gaugeSide = (240 * unit).rounded()
        gauge.bounds = Rect(x: 0, y: 0, width: gaugeSide, height: gaugeSide)
        gauge.position = Point(x: 200 * unit, y: 270 * unit)
        gauge.coolColor = settings.accent
        root.addSublayer(gauge)

        readout.fontSize = (40 * unit).rounded()
        readout.foregroundColor = .white
        readout.alignmentMode = .center
        readout.bounds = Rect(x: 0, y: 0, width: gaugeSide, height: readout.fontSize * 1.3)
        readout.position = gauge.position
        root.addSublayer(readout)

        // Preset buttons in a row on the right.
        let buttonSize = Size(width: 104 * unit, height: 64 * unit)
        for (i, preset) in Self.presets.enumerated() {
            let button = Layer()
            button.name = preset.label
            button.bounds = Rect(origin: .zero, size: buttonSize)
            button.position = Point(x: (460 + Double(i) * 124) * unit, y: 180 * unit)
            button.cornerRadius = 14 * unit
            button.backgroundColor = Self.buttonColor
            let label = TextLayer()
            label.string = preset.label
            label.fontSize = (22 * unit).rounded()
            label.foregroundColor = .white
            label.alignmentMode = .center
            label.bounds = Rect(x: 0, y: 0, width: buttonSize.width, height: label.fontSize * 1.3)
            label.position = Point(x: buttonSize.width / 2, y: buttonSize.height / 2)
            button.addSublayer(label)
            root.addSublayer(button)
            buttons.append(button)
            context.addTouchHandler(to: button) { touch in
                self.press(button, touch: touch, fraction: preset.fraction)
            }
        }

        // The slider: a track with the filled part, and a knob; a pan anywhere on it drags.
        let slider = Layer()
        slider.bounds = Rect(x: 0, y: 0, width: 372 * unit, height: 64 * unit)
        slider.position = Point(x: 584 * unit, y: 330 * unit)
        track.bounds = Rect(x: 0, y: 0, width: slider.bounds.width - 32 * unit, height: 8 * unit)
        track.position = Point(x: slider.bounds.width / 2, y: slider.bounds.height / 2)
        track.cornerRadius = 4 * unit
        track.backgroundColor = Color(red8: 0x2A, green8: 0x2F, blue8: 0x3A)
        fill.anchorPoint = Point(x: 0, y: 0.5)
        fill.cornerRadius = 4 * unit
        fill.backgroundColor = settings.accent
        fill.position = Point(x: 0, y: track.bounds.height / 2)
        track.addSublayer(fill)
        slider.addSublayer(track)
        let knobSide = 36 * unit
        knob.bounds = Rect(x: 0, y: 0, width: knobSide, height: knobSide)
        knob.cornerRadius = knobSide / 2
        knob.backgroundColor = .white
        slider.addSublayer(knob)
        root.addSublayer(slider)
        context.addGestureRecognizer(PanGestureRecognizer { pan in
            guard pan.state == .began || pan.state == .changed else { return }
            let x = pan.location(in: self.track).x
            self.setFraction(x / self.track.bounds.width, animated: false)
        }, to: slider)

        setFraction((value - settings.minimum) / (settings.maximum - settings.minimum), animated: false)
    }

    static let buttonColor = Color(red8: 0x1F, green8: 0x29, blue8: 0x37)
    static let pressedColor = Color(red8: 0x37, green8: 0x41, blue8: 0x51)

    /// A button's pressed state follows the finger; lifting inside chooses its preset.
    private func press(_ button: Layer, touch: Touch, fraction: Double) {
        switch touch.phase {
        case .began:
            Transaction.begin()
            Transaction.disableActions = true            // pressed at once, as a button does
            button.backgroundColor = Self.pressedColor
            button.transform = Transform3D(scaleX: 0.96, y: 0.96, z: 1)
            Transaction.commit()
        case .ended, .cancelled:
            button.backgroundColor = Self.buttonColor    // released with the implicit 0.25 s fade
            button.transform = .identity
            let p = touch.location(in: button)
            if touch.phase == .ended, button.bounds.contains(p) { setFraction(fraction, animated: true) }
        default:
            break
        }
    }

    /// Moves the setpoint to `fraction` of the range: the slider, the readout and the gauge.
    func setFraction(_ fraction: Double, animated: Bool) {
        let f = min(max(fraction.isFinite ? fraction : 0, 0), 1)
        value = settings.minimum + f * (settings.maximum - settings.minimum)
        Transaction.begin()
        Transaction.disableActions = !animated
        knob.position = Point(x: track.position.x - track.bounds.width / 2 + f * track.bounds.width, y: track.position.y)
        fill.bounds = Rect(x: 0, y: 0, width: f * track.bounds.width, height: track.bounds.height)
        Transaction.commit()
        Transaction.begin()
        Transaction.disableActions = true
        readout.string = "\(Int(value.rounded())) °C"
        Transaction.commit()
        gauge.fraction = f
    }
}
