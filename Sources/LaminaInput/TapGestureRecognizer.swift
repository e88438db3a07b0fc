import LaminaGeometry

/// Taps (`UITapGestureRecognizer`, rule 83): `numberOfTouchesRequired` fingers down together
/// and lifted, `numberOfTapsRequired` times, each lift followed by the next touch-down within
/// 0.3 s (**[Lamina choice]**, Flutter's double-tap timeout); a finger moving more than 10 pt
/// from where it landed (**[Lamina choice]**), or more fingers than required, fails it.
/// Recognized (discrete) at the last lift.
public final class TapGestureRecognizer: GestureRecognizer {
    public override var kind: String { "tap" }
    /// How far a tapping finger may move, in points.
    public static let allowableMovement = 10.0
    /// The longest wait from one tap's lift to the next tap's first touch-down.
    public static let multiTapWindow = 0.3

    /// Taps in a row that make the gesture (1 by default).
    public var numberOfTapsRequired = 1
    /// Fingers each tap needs (1 by default).
    public var numberOfTouchesRequired = 1

    /// Where each finger of the current tap landed, by slot.
    private var starts: [Int: Point] = [:]
    /// Fingers down together at most in the current tap.
    private var mostTouches = 0
    private var completedTaps = 0
    /// The end of the wait for the next tap.
    private var nextTapBy: Double?

    public override var deadline: Double? { nextTapBy }

    public override func advance(to time: Double) {
        guard let by = nextTapBy, time >= by else { return }
        nextTapBy = nil
        if state == .possible { transition(to: .failed) }
    }

    /// Counts the fingers down; more than required fail the tap.
    public override func touchesBegan(_ touches: [Touch], at time: Double) {
        guard state == .possible else { return }
        nextTapBy = nil
        for touch in touches { starts[touch.slot] = touch.location }
        mostTouches = max(mostTouches, self.touches.count)
        if mostTouches > numberOfTouchesRequired { transition(to: .failed) }
    }

    /// A finger that moves too far fails the tap.
    public override func touchesMoved(_ touches: [Touch], at time: Double) {
        guard state == .possible else { return }
        for touch in touches {
            if let start = starts[touch.slot], touch.location.distance(to: start) > Self.allowableMovement {
                transition(to: .failed)
                return
            }
        }
    }

    /// Counts a tap when the fingers lift; the last one required recognizes.
    public override func touchesEnded(_ touches: [Touch], at time: Double) {
        guard state == .possible else { return }
        // `self.touches` still holds the lifting ones: the tap ends with the last of them.
        guard self.touches.count == touches.count else { return }
        guard mostTouches == numberOfTouchesRequired else { transition(to: .failed); return }
        completedTaps += 1
        starts.removeAll()
        mostTouches = 0
        if completedTaps >= numberOfTapsRequired {
            transition(to: .recognized)
        } else {
            nextTapBy = time + Self.multiTapWindow
        }
    }

    public override func reset() {
        super.reset()
        starts.removeAll()
        mostTouches = 0
        completedTaps = 0
        nextTapBy = nil
    }
}
