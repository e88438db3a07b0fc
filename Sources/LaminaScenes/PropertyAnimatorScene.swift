import Lamina

/// The `UIViewPropertyAnimator` tutorial: a green circle (100 pt, corner radius 50) follows
/// the finger under a pan; while it is held a property animator (4 s, ease-out) grows it to
/// twice its size, and on release it shrinks back. Each change of direction stops the
/// animator where it is (`stopAnimation(withoutFinishing: false)`, then
/// `finishAnimation(at: .current)`), adds the new animation, starts, pauses and continues it
/// with the fraction the last one had done as the duration factor, so a quick re-grab
/// reverses from wherever the circle is, in about the time it took to get there, instead of
/// taking the full 4 s.
///
/// Written on the public app API only (`import Lamina`), as an app would.
public final class PropertyAnimatorScene: Scene {
    public static let name = "property-animator"
    public static let summary = "a circle that follows the finger and grows while held, reversing smoothly on release"

    /// The circle's diameter at rest, in points.
    public static let diameter = 100.0
    /// Seconds the animator takes for a whole grow or shrink.
    public static let duration = 4.0

    /// The circle.
    public let circle: Layer
    /// The one animator, reused for every grow and shrink as in the tutorial.
    public let animator: PropertyAnimator
    /// Whether the last animation added grows the circle (true while held).
    public private(set) var isGrowing = false
    /// The duration factors the changes of direction used (the fractions done before them).
    public private(set) var durationFactors: [Double] = []
    private var centerAtPanStart = Point.zero

    public init(context: SceneContext, settings: NoSettings) {
        circle = Layer()
        circle.name = "circle"
        circle.bounds = Rect(x: 0, y: 0, width: Self.diameter, height: Self.diameter)
        circle.cornerRadius = Self.diameter / 2
        circle.backgroundColor = Color(red8: 0x22, green8: 0xC5, blue8: 0x5E)
        circle.position = context.center
        context.rootLayer.addSublayer(circle)
        animator = PropertyAnimator(duration: Self.duration, curve: .easeOut, tree: context.layerTree)
        // The closure holds the scene; Lamina releases it when it tears the scene down.
        context.addGestureRecognizer(PanGestureRecognizer { [unowned self] pan in self.drag(pan) }, to: circle)
    }

    private func drag(_ pan: PanGestureRecognizer) {
        switch pan.state {
        case .began:
            centerAtPanStart = circle.position
            turn(growing: true)
        case .changed:
            follow(pan)
        case .ended, .cancelled:
            follow(pan)
            turn(growing: false)
        default:
            break
        }
    }

    /// Moves the circle with the finger (no implicit animation: it is under the finger).
    private func follow(_ pan: PanGestureRecognizer) {
        let t = pan.translation(in: nil)
        Transaction.begin()
        Transaction.disableActions = true
        circle.position = Point(x: centerAtPanStart.x + t.x, y: centerAtPanStart.y + t.y)
        Transaction.commit()
    }

    /// The tutorial's change of direction: stop where it is, then run the new animation over
    /// the fraction the last one had done (the whole duration when none had run).
    private func turn(growing: Bool) {
        let done = animator.state == .active ? animator.fractionComplete : 0
        durationFactors.append(done)
        animator.stopAnimation(withoutFinishing: false)
        if animator.state == .stopped { animator.finishAnimation(at: .current) }
        isGrowing = growing
        let scale = growing ? 2.0 : 1.0
        animator.addAnimations { [circle] in
            circle.transform = Transform3D(scaleX: scale, y: scale, z: 1)
        }
        animator.startAnimation()
        animator.pauseAnimation()
        animator.continueAnimation(durationFactor: done)
    }
}
