import Lamina

/// Buttons with the button-animation tutorial's ripple: each tap adds a layer that runs a
/// group of opacity 1 → 0 and scale (0.5 s) and is removed from its superlayer by the group's
/// delegate when it stops. **Inner** buttons grow a filled circle from the touch point,
/// clipped to the button's rounded bounds; **outer** buttons grow their own rounded outline,
/// stroked, to 2.5 times the button beyond it. Quick taps overlap: every tap has its layer.
///
/// Written on the public app API only (`import Lamina`), as an app would.
public final class Ripple: Scene {
    public static let name = "ripple"
    public static let summary = "buttons whose taps ripple inside them or ring out beyond them"

    /// Which effect a button shows.
    public enum Effect: Sendable {
        /// A filled circle grows from the touch point, clipped to the button.
        case inner
        /// The button's outline grows beyond it and fades.
        case outer
    }

    /// A button: its layer, its colour and its effect.
    public struct Button {
        /// The button's layer (its label is its one sublayer until a ripple is added).
        public let layer: Layer
        /// The fill colour (the outer ring strokes in it).
        public let color: Color
        /// What a tap shows.
        public let effect: Effect
    }

    /// Seconds a ripple runs.
    public static let duration = 0.5
    /// How far an outer ring grows, in multiples of the button.
    public static let outerScale = 2.5
    /// The button's size and corner radius, in points.
    public static let buttonSize = Size(width: 320, height: 96)
    static let cornerRadius = 18.0

    /// The buttons: inner ones on the top row, outer ones below.
    public private(set) var buttons: [Button] = []
    /// Ripples started so far.
    public private(set) var ripplesStarted = 0
    private let context: SceneContext

    public init(context: SceneContext, settings: NoSettings) {
        self.context = context
        let kinds: [(String, Color, Effect)] = [
            ("Inner", Color(red8: 0x3B, green8: 0x82, blue8: 0xF6), .inner),
            ("Inner", Color(red8: 0x10, green8: 0xB9, blue8: 0x81), .inner),
            ("Outer", Color(red8: 0xF5, green8: 0x9E, blue8: 0x0B), .outer),
            ("Outer", Color(red8: 0xEC, green8: 0x48, blue8: 0x99), .outer),
        ]
        let size = Self.buttonSize, gap = 80.0
        let center = context.center
        for (i, (title, color, effect)) in kinds.enumerated() {
            let column = Double(i % 2) - 0.5, row = Double(i / 2) - 0.5
            let layer = Layer()
            layer.name = "\(title.lowercased())-\(i % 2)"
            layer.bounds = Rect(origin: .zero, size: size)
            layer.position = Point(x: center.x + column * (size.width + gap), y: center.y + row * (size.height + gap * 1.5))
            layer.backgroundColor = color
            layer.cornerRadius = Self.cornerRadius
            layer.masksToBounds = effect == .inner
            let label = TextLayer()
            label.string = title
            label.fontSize = 34
            label.alignmentMode = .center
            label.foregroundColor = .white
            label.bounds = Rect(x: 0, y: 0, width: size.width, height: 44)
            label.position = Point(x: size.width / 2, y: size.height / 2)
            layer.addSublayer(label)
            context.rootLayer.addSublayer(layer)
            let button = Button(layer: layer, color: color, effect: effect)
            buttons.append(button)
            context.addGestureRecognizer(TapGestureRecognizer { [unowned self] tap in
                guard tap.state == .recognized else { return }
                self.ripple(button, at: tap.location(in: layer))
            }, to: layer)
        }
    }

    /// Starts one ripple on `button` from `point` (in the button's coordinates).
    public func ripple(_ button: Button, at point: Point) {
        ripplesStarted += 1
        let ripple = ShapeLayer()
        let from: Double
        Transaction.begin()
        Transaction.disableActions = true                       // a new layer appears as set
        switch button.effect {
        case .inner:
            // Large enough to cover the button from any point inside it.
            let b = button.layer.bounds
            let radius = (b.width * b.width + b.height * b.height).squareRoot()
            ripple.bounds = Rect(x: 0, y: 0, width: 2 * radius, height: 2 * radius)
            ripple.position = point
            ripple.path = Path(ovalIn: ripple.bounds)
            ripple.fillColor = Color.white.multiplyingAlpha(by: 0.35)
            button.layer.insertSublayer(ripple, at: 0)              // under the label
            from = 0.05
        case .outer:
            ripple.bounds = button.layer.bounds
            ripple.position = button.layer.position
            ripple.path = Path(roundedRect: button.layer.bounds, cornerRadius: Self.cornerRadius)
            ripple.fillColor = nil
            ripple.strokeColor = button.color
            ripple.lineWidth = 3
            let parent = button.layer.superlayer ?? context.rootLayer
            parent.insertSublayer(ripple, at: 0)                    // behind the buttons
            from = 1
        }
        ripple.opacity = 0                                         // the model ends faded
        Transaction.commit()
        let to = button.effect == .inner ? 1.0 : Self.outerScale
        var group = AnimationGroup(animations: [
            BasicAnimation(keyPath: "transform.scale", from: .scalar(from), to: .scalar(to)),
            BasicAnimation(keyPath: "opacity", from: .scalar(1), to: .scalar(0)),
        ], duration: Self.duration)
        group.delegate = RemoveWhenStopped(ripple)
        ripple.add(group, forKey: "ripple")
    }
}

/// The tutorial's animation delegate: takes the ripple's layer out of the tree once its group
/// stops. The animation holds its delegate strongly, as Core Animation does; the delegate
/// holds the layer weakly, so a ripple torn down mid-run (a reload) is not kept alive.
final class RemoveWhenStopped: AnimationDelegate {
    private weak var layer: Layer?

    init(_ layer: Layer) {
        self.layer = layer
    }

    func animationDidStop(_ animation: BasicAnimation, finished: Bool) {
        layer?.removeFromSuperlayer()
    }
}
