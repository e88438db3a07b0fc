import LaminaGeometry
import LaminaLayers

/// Turns touches on a layer into a gesture (`UIGestureRecognizer`, rule 81).
///
/// Discrete gestures go possible → recognized (= ended) or failed; continuous ones go
/// possible → began → changed* → ended or cancelled, or possible → failed. The action runs
/// for began, changed, ended and cancelled. After its touches end the recognizer resets to
/// possible. An illegal transition is a programmer error and traps.
open class GestureRecognizer {
    /// `UIGestureRecognizer.State` raw values.
    public enum State: Int, Sendable {
        case possible = 0, began, changed, ended, cancelled, failed
        public static let recognized = State.ended
    }

    public private(set) var state: State = .possible
    public var isEnabled = true
    /// The layer the recognizer is attached to.
    public internal(set) weak var layer: Layer?
    private let action: (GestureRecognizer) -> Void
    /// The touches this recognizer is tracking.
    public internal(set) var touches: [Touch] = []

    public init(action: @escaping (GestureRecognizer) -> Void) {
        self.action = action
    }

    /// The centroid of the tracked touches in `layer`'s coordinates (nil: the root's).
    public func location(in layer: Layer?) -> Point {
        guard !touches.isEmpty else { return .zero }
        let sum = touches.reduce(Point.zero) { $0 + $1.location(in: layer) }
        return sum * (1 / Double(touches.count))
    }

    static let legalTransitions: Set<[Int]> = [
        [0, 1], [0, 3], [0, 5],          // possible → began | recognized | failed
        [1, 2], [1, 3], [1, 4],          // began → changed | ended | cancelled
        [2, 2], [2, 3], [2, 4],          // changed → changed | ended | cancelled
    ]

    /// What kind of gesture this recognizes, for telemetry (`tap`, `pan`, …).
    open var kind: String { "custom" }
    /// Told when the recognizer leaves `possible` for a recognized state (the dispatcher
    /// counts gestures by kind).
    var onRecognition: ((GestureRecognizer) -> Void)?

    /// Moves to `newState` and runs the action where rule 81 says it runs.
    public func transition(to newState: State) {
        precondition(Self.legalTransitions.contains([state.rawValue, newState.rawValue]),
                     "illegal gesture transition \(state) → \(newState)")
        let wasPossible = state == .possible
        state = newState
        if wasPossible && (newState == .began || newState == .ended) { onRecognition?(self) }
        if newState != .failed { action(self) }
    }

    /// True once the recognizer has left `possible` for a recognized state.
    public var hasRecognized: Bool { state == .began || state == .changed || state == .ended }

    /// Back to possible, ready for the next touch sequence.
    open func reset() {
        state = .possible
        touches.removeAll()
    }

    open func touchesBegan(_ touches: [Touch], at time: Double) {}
    open func touchesMoved(_ touches: [Touch], at time: Double) {}
    open func touchesEnded(_ touches: [Touch], at time: Double) {}
    open func touchesCancelled(_ touches: [Touch], at time: Double) {
        if state == .began || state == .changed { transition(to: .cancelled) }
        else if state == .possible { transition(to: .failed) }
    }
}

/// A single tap (`UITapGestureRecognizer`, rule 83): fails if the finger moves more than
/// 10 pt or a second finger lands; recognized when the finger lifts.
public final class TapGestureRecognizer: GestureRecognizer {
    public override var kind: String { "tap" }
    /// How far a tapping finger may move, in points (**[Lamina choice]** 10 pt).
    public static let allowableMovement = 10.0
    private var start: Point?

    public override func touchesBegan(_ touches: [Touch], at time: Double) {
        guard state == .possible else { return }
        if self.touches.count > 1 { transition(to: .failed); return }
        start = start ?? touches.first?.location
    }

    public override func touchesMoved(_ touches: [Touch], at time: Double) {
        guard state == .possible, let start, let touch = touches.first else { return }
        if touch.location.distance(to: start) > Self.allowableMovement { transition(to: .failed) }
    }

    public override func touchesEnded(_ touches: [Touch], at time: Double) {
        guard state == .possible else { return }
        transition(to: .recognized)
    }

    public override func reset() {
        super.reset()
        start = nil
    }
}

/// A drag (`UIPanGestureRecognizer`, rule 84): begins once the finger has moved 10 pt
/// (**[Lamina choice]**), with the translation rebased to that point; reports the cumulative
/// translation and the least-squares velocity (rule 85).
public final class PanGestureRecognizer: GestureRecognizer {
    public override var kind: String { "pan" }
    public static let threshold = 10.0
    private var start: Point?
    private var origin: Point?
    private var current: Point?
    private var tracker = VelocityTracker()
    private var lastTime = 0.0

    /// Movement since the gesture began, in `layer`'s coordinates (nil: the root's).
    public func translation(in layer: Layer?) -> Point {
        guard let origin, let current else { return .zero }
        guard let layer else { return current - origin }
        let t = layer.transformToRoot().inverted()
        let a = t.project(origin) ?? origin, b = t.project(current) ?? current
        return b - a
    }

    /// Rebases the translation so that it reads `translation` now.
    public func setTranslation(_ translation: Point, in layer: Layer?) {
        guard let current else { return }
        origin = current - translation
    }

    /// Finger velocity in points per second, in the root's coordinates.
    public func velocity() -> Point { tracker.velocity(at: lastTime) }

    public override func touchesBegan(_ touches: [Touch], at time: Double) {
        guard let touch = touches.first, start == nil else { return }
        start = touch.location
        tracker.add(touch.location, at: time)
        lastTime = time
    }

    public override func touchesMoved(_ touches: [Touch], at time: Double) {
        guard let touch = touches.first, let start else { return }
        tracker.add(touch.location, at: time)
        lastTime = time
        current = touch.location
        switch state {
        case .possible:
            if touch.location.distance(to: start) >= Self.threshold {
                origin = touch.location
                transition(to: .began)
            }
        case .began, .changed:
            transition(to: .changed)
        default:
            break
        }
    }

    public override func touchesEnded(_ touches: [Touch], at time: Double) {
        lastTime = time
        switch state {
        case .began, .changed: transition(to: .ended)
        case .possible: transition(to: .failed)
        default: break
        }
    }

    public override func reset() {
        super.reset()
        start = nil
        origin = nil
        current = nil
        tracker.reset()
    }
}
