#if canImport(Glibc)
import Glibc
#endif
import Lamina

/// The Core Animation tour: one screen of its lessons.
///
/// - A colour tile whose colour a tap changes at random with the default implicit animation
///   (0.25 s). A tap anywhere else moves it there over 4 s (a transaction's own duration); a
///   tap on it while it moves still finds it, because touches are hit-tested against the
///   presentation tree.
/// - **Transaction**: a tap moves the tile over 1 s, and the transaction's completion block
///   starts another change (it slides back).
/// - **Custom action**: the tile's `backgroundColor` action is a push transition from the left.
/// - **No action**: actions are disabled for the change, so the colour jumps.
/// - A heartbeat (scale, autoreversing, forever) and a group (a turn and a fade together).
/// - The tour's Bézier drawings: a pentagon stroked 5 pt with round caps and joins, then
///   filled; an oval; an arc; a quadratic and a cubic curve.
///
/// Colours come from a fixed palette in a seeded order, so a run is the same every time.
/// Written on the public app API only (`import Lamina`), as an app would.
public final class Playground: Scene {
    public static let name = "playground"
    public static let summary = "the Core Animation tour: implicit animations, transactions, actions, presentation hit testing, Bézier paths"

    /// The colours a tap picks from.
    public static let palette: [Color] = [
        Color(red8: 0x3B, green8: 0x82, blue8: 0xF6), Color(red8: 0x22, green8: 0xC5, blue8: 0x5E),
        Color(red8: 0xF5, green8: 0x9E, blue8: 0x0B), Color(red8: 0xEC, green8: 0x48, blue8: 0x99),
        Color(red8: 0xA8, green8: 0x55, blue8: 0xF7), Color(red8: 0x14, green8: 0xB8, blue8: 0xA6),
        Color(red8: 0xEF, green8: 0x44, blue8: 0x44), Color(red8: 0xEA, green8: 0xB3, blue8: 0x08),
    ]
    /// A tile's side, in points.
    public static let tileSide = 150.0

    /// The colour tile that moves where the screen is tapped.
    public let mover: Layer
    /// Moves over 1 s, then its transaction's completion slides it back.
    public let transactionTile: Layer
    /// Changes colour through a push transition from the left (its custom action).
    public let customActionTile: Layer
    /// Changes colour with actions disabled.
    public let noActionTile: Layer
    /// Beats forever.
    public let heart: Layer
    /// Turns and fades forever, one group.
    public let grouped: Layer
    /// Transaction completion blocks run so far.
    public private(set) var completions = 0
    private var random = SplitMix64(seed: 0x5EED)
    private let context: SceneContext

    public init(context: SceneContext, settings: NoSettings) {
        self.context = context
        let size = context.screenSize
        let top = size.height * 0.3, bottom = size.height * 0.72
        func tile(_ title: String, x: Double, y: Double, color: Color, side: Double = Self.tileSide,
                  cornerRadius: Double = 16) -> Layer {
            let layer = Layer()
            layer.name = title
            layer.bounds = Rect(x: 0, y: 0, width: side, height: side)
            layer.position = Point(x: x, y: y)
            layer.cornerRadius = cornerRadius
            layer.backgroundColor = color
            context.rootLayer.addSublayer(layer)
            Self.addLabel(title, below: layer, in: context.rootLayer)
            return layer
        }
        mover = tile("Tap me", x: size.width * 0.2, y: top, color: Self.palette[0])
        transactionTile = tile("Transaction", x: size.width * 0.45, y: top, color: Self.palette[1])
        customActionTile = tile("Custom action", x: size.width * 0.62, y: top, color: Self.palette[2])
        noActionTile = tile("No action", x: size.width * 0.79, y: top, color: Self.palette[3])
        customActionTile.actions["backgroundColor"] = .action(Transition(kind: .push, subtype: .fromLeft, duration: 0.5))

        heart = tile("Heartbeat", x: size.width * 0.12, y: bottom, color: Self.palette[6], side: 110, cornerRadius: 55)
        grouped = tile("Group", x: size.width * 0.26, y: bottom, color: Self.palette[4], side: 110, cornerRadius: 12)
        for (i, (title, shape)) in Self.drawings().enumerated() {
            shape.position = Point(x: size.width * (0.42 + 0.12 * Double(i)), y: bottom)
            context.rootLayer.addSublayer(shape)
            Self.addLabel(title, below: shape, in: context.rootLayer)
        }
        startForeverAnimations()
        // The closure holds the scene; Lamina releases it when it tears the scene down.
        context.addGestureRecognizer(TapGestureRecognizer { [unowned self] tap in
            guard tap.state == .recognized else { return }
            self.tapped(at: tap.location(in: context.rootLayer))
        }, to: context.rootLayer)
    }

    /// What a tap at `point` (root coordinates) does: found on the presentation tree, so a
    /// moving tile is hit where it is seen.
    public func tapped(at point: Point) {
        let hit = context.rootLayer.presentation()?.sublayers.reversed().lazy.compactMap { $0.hitTest(point) }.first?.model()
        if hit === mover {
            mover.backgroundColor = nextColor(after: mover.backgroundColor)                   // implicit: 0.25 s
        } else if hit === transactionTile {
            let home = transactionTile.position
            Transaction.begin()
            Transaction.animationDuration = 1
            Transaction.completionBlock = { [unowned self] in
                self.completions += 1
                self.transactionTile.position = home               // another change, implicit
            }
            transactionTile.position = Point(x: home.x, y: home.y + 140)
            Transaction.commit()
        } else if hit === customActionTile {
            customActionTile.backgroundColor = nextColor(after: customActionTile.backgroundColor)        // its action: a push from the left
        } else if hit === noActionTile {
            Transaction.begin()
            Transaction.disableActions = true
            noActionTile.backgroundColor = nextColor(after: noActionTile.backgroundColor)            // jumps
            Transaction.commit()
        } else {
            Transaction.begin()
            Transaction.animationDuration = 4
            mover.position = point
            Transaction.commit()
        }
    }

    /// A palette colour other than `current`, so every tap visibly changes something.
    private func nextColor(after current: Color?) -> Color {
        let choices = Self.palette.filter { $0 != current }
        return choices[Int.random(in: 0..<choices.count, using: &random)]
    }

    private func startForeverAnimations() {
        var beat = BasicAnimation(keyPath: "transform.scale", from: .scalar(1), to: .scalar(1.25), duration: 0.5)
        beat.timingFunction = .easeInEaseOut
        beat.timing.autoreverses = true
        beat.timing.repeatCount = .infinity
        heart.add(beat, forKey: "heartbeat")
        var group = AnimationGroup(animations: [
            BasicAnimation(keyPath: "transform.rotation.z", from: .scalar(0), to: .scalar(Double.pi / 2)),
            BasicAnimation(keyPath: "opacity", from: .scalar(1), to: .scalar(0.35)),
        ], duration: 1.2)
        group.timing.autoreverses = true
        group.timing.repeatCount = .infinity
        group.timingFunction = .easeInEaseOut
        grouped.add(group, forKey: "turn-and-fade")
    }

    /// The tour's Bézier paths, each in a 140 x 120 shape layer.
    static func drawings() -> [(String, ShapeLayer)] {
        func shape(_ path: Path, fill: Color?, stroke: Color) -> ShapeLayer {
            let layer = ShapeLayer()
            layer.bounds = Rect(x: 0, y: 0, width: 140, height: 120)
            layer.path = path
            layer.fillColor = fill
            layer.strokeColor = stroke
            layer.lineWidth = 5
            layer.lineCap = .round
            layer.lineJoin = .round
            return layer
        }
        let ink = Color(red: 0.85, green: 0.87, blue: 0.9)
        var pentagon = Path()
        for k in 0..<5 {
            let angle = -Double.pi / 2 + Double(k) * 2 * Double.pi / 5
            let p = Point(x: 70 + 55 * cos(angle), y: 64 + 55 * sin(angle))
            if k == 0 { pentagon.move(to: p) } else { pentagon.line(to: p) }
        }
        pentagon.close()
        var arc = Path()
        arc.addArc(center: Point(x: 70, y: 60), radius: 50, startAngle: 0, endAngle: 1.5 * Double.pi, clockwise: true)
        var quad = Path()
        quad.move(to: Point(x: 10, y: 100))
        quad.quad(to: Point(x: 130, y: 100), control: Point(x: 70, y: -20))
        var cubic = Path()
        cubic.move(to: Point(x: 10, y: 60))
        cubic.cubic(to: Point(x: 130, y: 60), control1: Point(x: 50, y: -30), control2: Point(x: 90, y: 150))
        return [
            ("Pentagon", shape(pentagon, fill: Color(red8: 0x3B, green8: 0x82, blue8: 0xF6), stroke: ink)),
            ("Oval", shape(Path(ovalIn: Rect(x: 10, y: 20, width: 120, height: 80)), fill: nil, stroke: ink)),
            ("Arc", shape(arc, fill: nil, stroke: ink)),
            ("Quadratic", shape(quad, fill: nil, stroke: ink)),
            ("Cubic", shape(cubic, fill: nil, stroke: ink)),
        ]
    }

    private static func addLabel(_ title: String, below layer: Layer, in parent: Layer) {
        let label = TextLayer()
        label.string = title
        label.fontSize = 24
        label.alignmentMode = .center
        label.foregroundColor = Color(red: 0.75, green: 0.77, blue: 0.8)
        label.bounds = Rect(x: 0, y: 0, width: 220, height: 32)
        label.position = Point(x: layer.position.x, y: layer.position.y + layer.bounds.height / 2 + 28)
        parent.addSublayer(label)
    }
}
