import Lamina

/// The `CATransformLayer` tutorial: a stack of rounded squares (corner radius a quarter of
/// the side), each a step darker (brightness −10 % per layer), spaced in depth on a
/// ``TransformLayer`` tilted 60° about x with perspective `m34 = −1/500`. Each square turns
/// half a turn about z and back (1 s, ease-in-ease-out, autoreversing, repeating forever),
/// its begin time 0.1 s after the one above, so the stack ripples in 3-D. A pan tilts the
/// stack. Beside it the same stack on a plain layer shows why the tutorial needs a transform
/// layer: a plain layer flattens its sublayers into its own plane, so the depth is lost.
///
/// Written on the public app API only (`import Lamina`), as an app would.
public final class Spinner: Scene {
    public static let name = "spinner"
    public static let summary = "a stack of squares rippling in 3-D on a transform layer, beside the same stack flattened"

    /// Squares in each stack.
    public static let squareCount = 8
    /// A square's side, in points.
    public static let side = 160.0
    /// Depth between squares, in points.
    public static let spacing = 28.0
    /// The tilt about x at start (60°), in radians.
    public static let initialTilt = Double.pi / 3
    /// Radians of tilt per point the finger moves down.
    public static let tiltPerPoint = 0.005
    /// Seconds between the begin times of neighbouring squares' turns.
    public static let stagger = 0.1

    /// The stack on a transform layer (its planes keep their depth).
    public let stack: TransformLayer
    /// The same stack on a plain layer (flattened into its plane).
    public let flattened: Layer
    /// The current tilt about x, in radians.
    public private(set) var tilt = Spinner.initialTilt
    private var tiltAtPanStart = Spinner.initialTilt

    public init(context: SceneContext, settings: NoSettings) {
        let center = context.center
        stack = TransformLayer()
        flattened = Layer()
        for (i, (layer, title)) in [(stack as Layer, "TransformLayer"), (flattened, "Layer (flattened)")].enumerated() {
            layer.name = title
            layer.bounds = Rect(x: 0, y: 0, width: Self.side * 2, height: Self.side * 2)
            layer.position = Point(x: center.x + (Double(i) - 0.5) * Self.side * 3.2, y: center.y)
            let squares = Self.makeSquares(size: layer.bounds.size)
            for square in squares { layer.addSublayer(square) }
            context.rootLayer.addSublayer(layer)
            Self.startTurns(of: squares, now: context.now)         // in the tree: animations are kept (rule 35)
            let label = TextLayer()
            label.string = title
            label.fontSize = 28
            label.alignmentMode = .center
            label.foregroundColor = Color(red: 0.8, green: 0.82, blue: 0.86)
            label.bounds = Rect(x: 0, y: 0, width: Self.side * 3, height: 40)
            label.position = Point(x: layer.position.x, y: center.y + Self.side * 1.6)
            context.rootLayer.addSublayer(label)
        }
        applyTilt()
        // The closures hold the scene; Lamina releases them when it tears the scene down.
        context.addGestureRecognizer(PanGestureRecognizer { [unowned self] pan in
            switch pan.state {
            case .began:
                self.tiltAtPanStart = self.tilt
            case .changed, .ended:
                self.tilt = min(max(self.tiltAtPanStart + pan.translation(in: nil).y * Self.tiltPerPoint, 0), Double.pi / 2)
                self.applyTilt()
            default:
                break
            }
        }, to: context.rootLayer)
    }

    /// The transform both stacks share: the tilt about x under a perspective of 500 points.
    public static func tiltTransform(_ angle: Double) -> Transform3D {
        var perspective = Transform3D.identity
        perspective.m34 = -1.0 / 500
        return perspective.rotated(by: angle, x: 1, y: 0, z: 0)
    }

    private func applyTilt() {
        Transaction.begin()
        Transaction.disableActions = true                  // the tilt follows the finger directly
        stack.transform = Self.tiltTransform(tilt)
        flattened.transform = Self.tiltTransform(tilt)
        Transaction.commit()
    }

    /// The squares of one stack, front (brightest) first.
    static func makeSquares(size: Size) -> [Layer] {
        let base = Color(red8: 0x3B, green8: 0x82, blue8: 0xF6).hsb
        return (0..<squareCount).map { i in
            let square = Layer()
            square.bounds = Rect(x: 0, y: 0, width: side, height: side)
            square.position = Point(x: size.width / 2, y: size.height / 2)
            square.cornerRadius = side / 4
            square.backgroundColor = Color(hue: base.hue, saturation: base.saturation,
                                           brightness: base.brightness - 0.1 * Double(i))
            square.zPosition = Double(squareCount / 2 - i) * spacing
            return square
        }
    }

    /// Each square turns half a turn about z and back forever, `stagger` seconds after the one
    /// before it.
    static func startTurns(of squares: [Layer], now: Double) {
        for (i, square) in squares.enumerated() {
            var turn = BasicAnimation(keyPath: "transform.rotation.z", from: .scalar(0), to: .scalar(Double.pi), duration: 1)
            turn.timingFunction = .easeInEaseOut
            turn.timing.autoreverses = true
            turn.timing.repeatCount = .infinity
            turn.timing.beginTime = now + stagger * Double(i)
            square.add(turn, forKey: "turn")
        }
    }
}
