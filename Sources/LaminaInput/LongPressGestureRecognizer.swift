import LaminaGeometry

/// A press held still (`UILongPressGestureRecognizer`, rule 83, continuous): began once
/// `numberOfTouchesRequired` fingers have stayed down `minimumPressDuration` (0.5 s) without
/// moving more than `allowableMovement` (10 pt); changed as they move; ended when one lifts.
/// Lifting or moving too far before the duration fails it.
public final class LongPressGestureRecognizer: GestureRecognizer {
    public override var kind: String { "longPress" }
    /// Seconds the fingers must stay down (0.5 by default).
    public var minimumPressDuration = 0.5
    /// Points a finger may move before the press fails (10 by default).
    public var allowableMovement = 10.0
    /// Fingers that must press together (1 by default).
    public var numberOfTouchesRequired = 1

    private var starts: [Int: Point] = [:]
    private var beginsAt: Double?

    public override var deadline: Double? { state == .possible ? beginsAt : nil }

    public override func advance(to time: Double) {
        guard state == .possible, let at = beginsAt, time >= at else { return }
        beginsAt = nil
        transition(to: .began)
    }

    /// Starts timing once the required fingers are down; more fingers fail the press.
    public override func touchesBegan(_ touches: [Touch], at time: Double) {
        guard state == .possible else { return }
        for touch in touches { starts[touch.slot] = touch.location }
        if self.touches.count > numberOfTouchesRequired {
            beginsAt = nil
            transition(to: .failed)
        } else if self.touches.count == numberOfTouchesRequired {
            beginsAt = time + minimumPressDuration
        }
    }

    /// Before the press begins, moving beyond `allowableMovement` fails it; after, it reports changes.
    public override func touchesMoved(_ touches: [Touch], at time: Double) {
        guard !changeIfRecognized(), state == .possible else { return }
        if touches.contains(where: { t in starts[t.slot].map { t.location.distance(to: $0) > allowableMovement } ?? false }) {
            beginsAt = nil
            transition(to: .failed)
        }
    }

    /// Lifting before `minimumPressDuration` fails the press; after, it ends.
    public override func touchesEnded(_ touches: [Touch], at time: Double) {
        beginsAt = nil
        endContinuous()
    }

    public override func reset() {
        super.reset()
        starts.removeAll()
        beginsAt = nil
    }
}
