import Lamina

/// The elastic field: a rounded text-field shape whose four edges are smooth curves bent by
/// four control points at the edge midpoints. A tap throws the control points
/// outward on a stiff spring, then lets them spring back on a loose one; dragging pulls the
/// nearest edge's control point with the finger (across the edge), and letting go springs it
/// back with the finger's velocity as the spring's initial velocity. A display link
/// rebuilds the shape from their presentation positions every frame and pauses once they
/// have settled (behaviour.md acceptance scenario "Elastic view").
///
/// Written on the public app API only (`import Lamina`, ``Scene``), as an app would.
public final class ElasticField: Scene {
    public static let name = "elastic-field"
    public static let summary = "a text field whose edges bulge and spring back under the finger"

    /// `[elastic_field]`: `fill_color`, `overshoot`, `width`, `height`, `corner_radius`,
    /// `text`, `text_color`, `placeholder`.
    public struct Settings: SceneSettings, Sendable {
        public var fillColor = Color(red8: 0x3B, green8: 0x82, blue8: 0xF6)
        /// How far each edge bulges outward, in points.
        public var overshootAmount = 10.0
        public var size = Size(width: 960, height: 160)
        public var cornerRadius = 20.0
        /// The text shown in the field at start.
        public var text = ""
        /// The text's colour; the placeholder takes it at 60 % opacity.
        public var textColor = Color(red8: 0xFF, green8: 0xFF, blue8: 0xFF)
        /// Shown while the field is empty, as a text field's hint.
        public var placeholder = "Tap to type"
        /// When true (the default unless the config sets `width`), the field is at most 80 %
        /// of the screen's width.
        public var fitsScreenWidth = true

        public init() {}

        public init(from table: SettingsTable) throws(ConfigError) {
            fillColor = try table.color("fill_color", default: fillColor)
            overshootAmount = try table.number("overshoot", default: overshootAmount, in: 0...1000)
            fitsScreenWidth = !table.contains("width")
            let width = try table.number("width", default: size.width, in: 1...16384)
            let height = try table.number("height", default: size.height, in: 1...16384)
            size = Size(width: width, height: height)
            cornerRadius = try table.number("corner_radius", default: cornerRadius, in: 0...8192)
            text = try table.string("text", default: text, maxLength: ElasticField.maximumTextLength)
            textColor = try table.color("text_color", default: textColor)
            placeholder = try table.string("placeholder", default: placeholder, maxLength: ElasticField.maximumTextLength)
            try table.rejectUnknownKeys()
        }
    }

    /// The outward throw: UIKit spring, 0.25 s, damping ratio 0.9, initial velocity 1.5.
    public static let outward = (duration: 0.25, dampingRatio: 0.9, velocity: 1.5)
    /// The return: UIKit spring, 0.45 s, damping ratio 0.15, initial velocity 5.5.
    public static let back = (duration: 0.45, dampingRatio: 0.15, velocity: 5.5)

    public let settings: Settings
    /// The field's shape, centred in its superlayer.
    public let field: ShapeLayer
    /// Invisible layers whose positions bend the edges: top, right, bottom, left.
    public let controlPoints: [Layer]
    private let context: SceneContext
    /// Rebuilds the outline every frame while the control points move; paused at rest.
    public private(set) lazy var link = context.addDisplayLink { [unowned self] link in self.frame(link) }
    /// Taps recognized so far.
    public private(set) var taps = 0
    /// The text field inside the shape: a tap gives it focus, puts its caret at the tap and
    /// slides the on-screen keyboard up; Return, Escape or a tap outside ends editing; a
    /// drag across the text while it has focus selects.
    public let textField: TextField
    /// The field's text.
    public var label: TextLayer { textField.label }
    /// The hint shown in the label's place while the field is empty.
    public var placeholderLabel: TextLayer { textField.placeholderLabel }
    /// Whether typing goes into the field.
    public var isFocused: Bool { textField.isFocused }
    public var text: String { textField.text }
    /// True while a drag selects text instead of pulling an edge.
    private var isSelecting = false

    /// The control point being dragged (0 top, 1 right, 2 bottom, 3 left), while a drag lasts.
    public private(set) var draggedEdge: Int?
    /// The spring's relative initial velocity of the last release (rule 32: the finger's
    /// speed toward rest over the distance back).
    public private(set) var lastReleaseVelocity: Double?

    public init(context: SceneContext, settings: Settings) {
        let screen = context.screenSize
        var settings = settings
        if settings.fitsScreenWidth {
            settings.size.width = min(settings.size.width, screen.width * 0.8)
        }
        self.settings = settings
        field = ShapeLayer()
        field.name = "elastic-field"
        field.bounds = Rect(x: 0, y: 0, width: settings.size.width, height: settings.size.height)
        field.position = Point(x: screen.width / 2, y: screen.height / 2)
        field.fillColor = settings.fillColor
        let rest = ElasticField.restPositions(settings.size)
        controlPoints = rest.map { p in
            let layer = Layer()
            layer.position = p
            return layer
        }
        for c in controlPoints { field.addSublayer(c) }
        let inset = max(settings.cornerRadius, 12)
        var style = TextField.Style()
        style.fontSize = (settings.size.height * 0.35).rounded()
        style.textColor = settings.textColor
        style.caretColor = settings.textColor
        style.placeholderColor = settings.textColor.multiplyingAlpha(by: 0.6)
        style.placeholder = settings.placeholder
        style.selectionColor = settings.textColor.multiplyingAlpha(by: 0.35)
        textField = TextField(context: context,
                              size: Size(width: max(1, settings.size.width - 2 * inset), height: settings.size.height),
                              text: settings.text, maximumLength: Self.maximumTextLength, style: style, handlesTouches: false)
        textField.layer.position = Point(x: settings.size.width / 2, y: settings.size.height / 2)
        textField.tapArea = field
        field.addSublayer(textField.layer)
        context.rootLayer.addSublayer(field)
        field.path = ElasticField.path(size: settings.size, cornerRadius: settings.cornerRadius, controls: rest)

        // The closures below hold the scene; Lamina releases them when it tears the scene down.
        self.context = context
        link.isPaused = true
        context.addGestureRecognizer(TapGestureRecognizer { [unowned self] tap in
            guard tap.state == .recognized else { return }
            self.textField.tap(at: tap.location(in: self.textField.layer))
            self.bounce()
        }, to: field)
        context.addGestureRecognizer(PanGestureRecognizer { [unowned self] pan in self.drag(pan) }, to: field)
    }

    /// The most characters the field holds, from its settings or typed (decision 86): a
    /// one-line field, and a frame's text layout stays cheap.
    public static let maximumTextLength = 256

    /// Applies typed text while the field has focus (what the runtime does with a key typed
    /// on a keyboard, real or on screen).
    public func edit(_ input: TextInput) {
        guard isFocused else { return }
        textField.apply(input)
    }

    /// The edge nearest to a point in the field's coordinates (0 top, 1 right, 2 bottom,
    /// 3 left).
    static func nearestEdge(to p: Point, size: Size) -> Int {
        let distances = [abs(p.y), abs(size.width - p.x), abs(size.height - p.y), abs(p.x)]
        return distances.indices.min { distances[$0] < distances[$1] }!
    }

    /// Where a dragged edge's control point goes for a finger at `finger`: across the edge
    /// it follows the finger, along the edge it stays at the midpoint.
    static func pulledControl(edge: Int, finger: Point, size: Size) -> Point {
        let rest = restPositions(size)[edge]
        return edge % 2 == 0 ? Point(x: rest.x, y: finger.y) : Point(x: finger.x, y: rest.y)
    }

    private func drag(_ pan: PanGestureRecognizer) {
        // With focus, a drag that starts on the text selects; any other pulls an edge.
        if pan.state == .began {
            isSelecting = textField.dragSelection(pan)
            if isSelecting { return }
        } else if isSelecting {
            textField.dragSelection(pan)
            if pan.state == .ended || pan.state == .cancelled { isSelecting = false }
            return
        }
        let finger = pan.location(in: field)
        switch pan.state {
        case .began:
            let edge = Self.nearestEdge(to: finger, size: settings.size)
            draggedEdge = edge
            controlPoints[edge].removeAnimation(forKey: "elastic")
            fallthrough
        case .changed:
            guard let edge = draggedEdge else { return }
            Transaction.begin()
            Transaction.disableActions = true
            controlPoints[edge].position = Self.pulledControl(edge: edge, finger: finger, size: settings.size)
            Transaction.commit()
            link.isPaused = false
        case .ended, .cancelled:
            guard let edge = draggedEdge else { return }
            draggedEdge = nil
            let rest = Self.restPositions(settings.size)[edge]
            let from = controlPoints[edge].position
            let distance = from.distance(to: rest)
            // The finger's speed toward rest, over the distance back (rule 32).
            var relative = 0.0
            if distance > 0 {
                let toward = (rest - from) * (1 / distance)
                let v = pan.velocity(in: field)
                relative = (v.x * toward.x + v.y * toward.y) / distance
            }
            lastReleaseVelocity = relative
            animate(controlPoints[edge], to: rest, (Self.back.duration, Self.back.dampingRatio, relative), completion: nil)
            link.isPaused = false
        default:
            break
        }
    }

    /// Control-point positions at rest: the edge midpoints (top, right, bottom, left).
    public static func restPositions(_ size: Size) -> [Point] {
        [Point(x: size.width / 2, y: 0), Point(x: size.width, y: size.height / 2),
         Point(x: size.width / 2, y: size.height), Point(x: 0, y: size.height / 2)]
    }

    /// The outline: rounded corners (quadratic arcs), and each edge two cubic halves meeting at
    /// that edge's control point. Each half leaves its corner along the edge and reaches the
    /// control point parallel to the edge, so the outline stays smooth (tangent-continuous)
    /// however far an edge bulges; with the control point at the midpoint the edge is straight.
    public static func path(size: Size, cornerRadius: Double, controls: [Point]) -> Path {
        let w = size.width, h = size.height
        let r = max(0, min(cornerRadius, w / 2, h / 2))
        var p = Path()
        p.move(to: Point(x: r, y: 0))
        Self.appendEdge(to: &p, from: Point(x: r, y: 0), through: controls[0], to: Point(x: w - r, y: 0))
        p.quad(to: Point(x: w, y: r), control: Point(x: w, y: 0))
        Self.appendEdge(to: &p, from: Point(x: w, y: r), through: controls[1], to: Point(x: w, y: h - r))
        p.quad(to: Point(x: w - r, y: h), control: Point(x: w, y: h))
        Self.appendEdge(to: &p, from: Point(x: w - r, y: h), through: controls[2], to: Point(x: r, y: h))
        p.quad(to: Point(x: 0, y: h - r), control: Point(x: 0, y: h))
        Self.appendEdge(to: &p, from: Point(x: 0, y: h - r), through: controls[3], to: Point(x: 0, y: r))
        p.quad(to: Point(x: r, y: 0), control: Point(x: 0, y: 0))
        p.close()
        return p
    }

    /// An edge from `a` to `b` through `point`: two cubics whose handles, a quarter of the
    /// edge long, lie along the edge's direction at both ends and at `point`.
    static func appendEdge(to path: inout Path, from a: Point, through point: Point, to b: Point) {
        let length = a.distance(to: b)
        guard length > 0 else { return }
        let handle = (b - a) * (0.25)
        path.cubic(to: point, control1: a + handle, control2: point - handle)
        path.cubic(to: b, control1: point + handle, control2: b - handle)
    }

    /// Throws the control points outward, then lets them spring back.
    public func bounce() {
        taps += 1
        let rest = Self.restPositions(settings.size)
        let o = settings.overshootAmount
        let outward = [Point(x: 0, y: -o), Point(x: o, y: 0), Point(x: 0, y: o), Point(x: -o, y: 0)]
        for (i, layer) in controlPoints.enumerated() {
            let target = rest[i] + outward[i]
            animate(layer, to: target, Self.outward) { [weak self, weak layer] finished in
                guard finished, let self, let layer else { return }
                self.animate(layer, to: rest[i], Self.back, completion: nil)
            }
        }
        link.isPaused = false
    }

    /// UIKit's spring animation: the model jumps to `target`, the presentation follows on a
    /// duration-fit spring from where it is now.
    private func animate(_ layer: Layer, to target: Point,
                         _ spring: (duration: Double, dampingRatio: Double, velocity: Double),
                         completion: ((Bool) -> Void)?) {
        Transaction.begin()
        Transaction.disableActions = true      // a view-backed layer: no implicit action (rule 44)
        layer.position = target
        Transaction.commit()
        let animation = BasicAnimation(
            keyPath: "position", to: .point(target),
            spring: Spring(dampingRatio: spring.dampingRatio, duration: spring.duration, initialVelocity: spring.velocity),
            duration: spring.duration)
        layer.add(animation, forKey: "elastic", completion: completion)
    }

    /// Every frame: the shape through the control points where they will be shown; pause
    /// once none of them animates.
    private func frame(_ link: DisplayLink) {
        let positions = controlPoints.map { layer -> Point in
            if case .point(let p)? = layer.presentationValue(forKeyPath: "position", at: link.targetTimestamp) { return p }
            return layer.position
        }
        Transaction.begin()
        Transaction.disableActions = true      // rebuilt every frame: never itself animated (rule 41)
        field.path = Self.path(size: settings.size, cornerRadius: settings.cornerRadius, controls: positions)
        Transaction.commit()
        if draggedEdge == nil && controlPoints.allSatisfy({ $0.animationKeys().isEmpty }) { link.isPaused = true }
    }
}
