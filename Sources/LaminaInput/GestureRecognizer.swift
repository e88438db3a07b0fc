import LaminaGeometry
import LaminaLayers

/// Every recognizer class: gives each one an initializer whose action receives the
/// recognizer as its own type, so a pan handler gets a `PanGestureRecognizer` with no cast.
public protocol ActionRecognizer: GestureRecognizer {}

extension GestureRecognizer: ActionRecognizer {}

extension ActionRecognizer {
    /// A recognizer that calls `action` with itself each time its state changes to began,
    /// changed, ended (recognized) or cancelled.
    public init(action: @escaping (Self) -> Void) {
        // `Self` is exactly this class or a subclass of it: the downcast cannot fail.
        self.init(erasedAction: { action(unsafeDowncast($0, to: Self.self)) })
    }
}

/// What a gesture recognizer's owner may decide (`UIGestureRecognizerDelegate`, rule 82).
/// Every method has the UIKit default.
public protocol GestureRecognizerDelegate: AnyObject {
    /// False makes the recognizer fail instead of beginning or recognizing.
    func gestureRecognizerShouldBegin(_ recognizer: GestureRecognizer) -> Bool
    /// True on either delegate lets both recognize on the same touches.
    func gestureRecognizer(_ recognizer: GestureRecognizer, shouldRecognizeSimultaneouslyWith other: GestureRecognizer) -> Bool
    /// False hides that touch from the recognizer.
    func gestureRecognizer(_ recognizer: GestureRecognizer, shouldReceive touch: Touch) -> Bool
    /// True keeps `recognizer` from recognizing until `other` has failed.
    func gestureRecognizer(_ recognizer: GestureRecognizer, shouldRequireFailureOf other: GestureRecognizer) -> Bool
    /// True keeps `other` from recognizing until `recognizer` has failed.
    func gestureRecognizer(_ recognizer: GestureRecognizer, shouldBeRequiredToFailBy other: GestureRecognizer) -> Bool
}

extension GestureRecognizerDelegate {
    public func gestureRecognizerShouldBegin(_ recognizer: GestureRecognizer) -> Bool { true }
    public func gestureRecognizer(_ recognizer: GestureRecognizer, shouldRecognizeSimultaneouslyWith other: GestureRecognizer) -> Bool { false }
    public func gestureRecognizer(_ recognizer: GestureRecognizer, shouldReceive touch: Touch) -> Bool { true }
    public func gestureRecognizer(_ recognizer: GestureRecognizer, shouldRequireFailureOf other: GestureRecognizer) -> Bool { false }
    public func gestureRecognizer(_ recognizer: GestureRecognizer, shouldBeRequiredToFailBy other: GestureRecognizer) -> Bool { false }
}

/// Turns touches on a layer into a gesture (`UIGestureRecognizer`, rules 81–82).
///
/// Discrete gestures go possible → recognized (= ended) or failed; continuous ones go
/// possible → began → changed* → ended or cancelled, or possible → failed. The action runs
/// for began, changed, ended and cancelled. A recognition that must wait for other
/// recognizers to fail (`require(toFail:)`, the delegate) is held in possible until they
/// fail (then it happens) or one of them recognizes (then this one fails). After its touches
/// end the recognizer resets to possible. An illegal transition is a programmer error and
/// traps.
open class GestureRecognizer {
    /// `UIGestureRecognizer.State` raw values.
    public enum State: Int, Sendable {
        /// Touches are arriving but nothing is recognized yet (the start and rest state).
        case possible = 0
        /// A continuous gesture started.
        case began
        /// A continuous gesture moved on.
        case changed
        /// The gesture ended: recognized (a discrete gesture goes straight here).
        case ended
        /// The gesture was interrupted after it began.
        case cancelled
        /// The touches are not this gesture.
        case failed
        /// A discrete gesture's recognition: the same state as `ended`.
        public static let recognized = State.ended
    }

    /// Where recognition stands; set by the recognizer, read by actions.
    public private(set) var state: State = .possible
    /// A disabled recognizer receives no touches (and cancels a gesture in progress).
    public var isEnabled = true
    /// Asked whether to begin and whether to recognize together with others. Weak.
    public weak var delegate: GestureRecognizerDelegate?
    /// On recognition, the touches it tracks are cancelled for the layer's touch handlers
    /// (UIKit's default, true).
    public var cancelsTouchesInView = true
    /// The layer the recognizer is attached to.
    public internal(set) weak var layer: Layer?
    /// Called for each state the recognizer enters (nil once detached from its scene).
    private var action: ((GestureRecognizer) -> Void)?
    /// The touches this recognizer is tracking.
    public internal(set) var touches: [Touch] = []
    /// Recognizers that must fail before this one may recognize.
    private var failureRequirements: [WeakRecognizer] = []
    /// A recognition waiting for `failureRequirements` (began or ended).
    var heldRecognition: State?

    /// A recognizer calling `action` with itself, seen as the base class: the designated
    /// initializer for subclasses. Apps write `PanGestureRecognizer { pan in … }`, whose
    /// action receives the concrete type (`init(action:)` on ``ActionRecognizer``).
    public required init(erasedAction action: @escaping (GestureRecognizer) -> Void) {
        self.action = action
    }

    /// Drops the action (the scene that made it is being torn down): whatever the action
    /// captured is released even if something still holds the recognizer.
    func detach() {
        action = nil
    }

    /// What kind of gesture this recognizes, for telemetry (`tap`, `pan`, …).
    open var kind: String { "custom" }
    /// Told when the recognizer leaves `possible` for a recognized state (the dispatcher
    /// counts gestures and cancels touches in the view).
    var onRecognition: ((GestureRecognizer) -> Void)?

    /// The centroid of the tracked touches in `layer`'s coordinates (nil: the root's).
    public func location(in layer: Layer?) -> Point {
        guard !touches.isEmpty else { return .zero }
        let sum = touches.reduce(Point.zero) { $0 + $1.location(in: layer) }
        return sum * (1 / Double(touches.count))
    }

    /// How many touches the recognizer is tracking.
    public var numberOfTouches: Int { touches.count }

    /// Keeps this recognizer from recognizing until `other` has failed (`require(toFail:)`).
    public func require(toFail other: GestureRecognizer) {
        failureRequirements.append(WeakRecognizer(other))
    }

    /// Whether this recognizer waits for `other` to fail: `require(toFail:)` or either
    /// delegate says so.
    func mustWait(for other: GestureRecognizer) -> Bool {
        failureRequirements.contains { $0.recognizer === other }
            || delegate?.gestureRecognizer(self, shouldRequireFailureOf: other) == true
            || other.delegate?.gestureRecognizer(other, shouldBeRequiredToFailBy: self) == true
    }

    static let legalTransitions: Set<[Int]> = [
        [0, 1], [0, 3], [0, 5],          // possible → began | recognized | failed
        [1, 2], [1, 3], [1, 4],          // began → changed | ended | cancelled
        [2, 2], [2, 3], [2, 4],          // changed → changed | ended | cancelled
    ]

    /// The recognizers this one must wait for that are engaged in the current touches and
    /// have not failed (the dispatcher provides them; none outside a dispatcher).
    var pendingRequirements: () -> [GestureRecognizer] = { [] }

    /// Moves to `newState` and runs the action where rule 81 says it runs. Leaving possible
    /// for a recognized state asks the delegate first (false → failed) and is held while a
    /// recognizer this one must wait for has not failed yet.
    public func transition(to newState: State) {
        precondition(Self.legalTransitions.contains([state.rawValue, newState.rawValue]),
                     "illegal gesture transition \(state) → \(newState)")
        if state == .possible && (newState == .began || newState == .ended) {
            if delegate?.gestureRecognizerShouldBegin(self) == false {
                state = .failed
                return
            }
            if !pendingRequirements().isEmpty {
                heldRecognition = newState
                return
            }
        }
        apply(newState)
    }

    private func apply(_ newState: State) {
        let wasPossible = state == .possible
        state = newState
        if wasPossible && (newState == .began || newState == .ended) { onRecognition?(self) }
        if newState != .failed { action?(self) }
    }

    /// Resolves a held recognition: it happens now, or the recognizer fails.
    func releaseHeldRecognition(recognize: Bool) {
        guard let held = heldRecognition, state == .possible else { return }
        heldRecognition = nil
        if recognize { apply(held) } else { apply(.failed) }
    }

    /// True once the recognizer has left `possible` for a recognized state.
    public var hasRecognized: Bool { state == .began || state == .changed || state == .ended }

    /// True while it cannot be reset: a recognition held, or a timer still running.
    var isAwaiting: Bool { state == .possible && (heldRecognition != nil || deadline != nil) }

    /// Back to possible, ready for the next touch sequence.
    open func reset() {
        state = .possible
        heldRecognition = nil
        touches.removeAll()
    }

    /// When `advance(to:)` must next be called (a long press's duration, a multi-tap
    /// window), or nil.
    open var deadline: Double? { nil }
    /// Time passed without a touch event: timers fire here.
    open func advance(to time: Double) {}

    /// For a continuous gesture: movement while recognized is a change. True when it was.
    @discardableResult
    func changeIfRecognized() -> Bool {
        guard state == .began || state == .changed else { return false }
        transition(to: .changed)
        return true
    }

    /// For a continuous gesture whose touches are done: ended once recognized, failed while
    /// still possible.
    func endContinuous() {
        switch state {
        case .began, .changed: transition(to: .ended)
        case .possible: transition(to: .failed)
        default: break
        }
    }

    /// New touches on the recognizer's layer; subclasses override to track them.
    open func touchesBegan(_ touches: [Touch], at time: Double) {}
    /// Touches that moved; subclasses override to follow them.
    open func touchesMoved(_ touches: [Touch], at time: Double) {}
    /// Touches that lifted; subclasses override to decide.
    open func touchesEnded(_ touches: [Touch], at time: Double) {}
    /// Touches the system cancelled; by default the gesture is cancelled (or fails, before it began).
    open func touchesCancelled(_ touches: [Touch], at time: Double) {
        if state == .began || state == .changed { transition(to: .cancelled) }
        else if state == .possible { transition(to: .failed) }
    }
}

/// A weak reference to a recognizer (failure requirements do not keep the other alive).
struct WeakRecognizer {
    weak var recognizer: GestureRecognizer?
    init(_ recognizer: GestureRecognizer) { self.recognizer = recognizer }
}
