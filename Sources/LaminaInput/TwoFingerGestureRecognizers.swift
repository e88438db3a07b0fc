#if canImport(Glibc)
import Glibc
#endif
import LaminaGeometry

/// The shared part of pinch and rotation: two fingers, a quantity measured between them
/// (their distance, their angle), began once it has changed by `threshold` from where the
/// second finger landed, ended when a finger lifts; its rate from event timestamps.
public class TwoFingerGestureRecognizer: GestureRecognizer {
    /// The quantity now, from the first two tracked fingers.
    func measure(_ a: Point, _ b: Point) -> Double { 0 }
    /// How much it must change before the gesture begins.
    var threshold: Double { 0 }

    /// The quantity when the second finger landed, and when the gesture began.
    private(set) var initial: Double?
    private(set) var atBegan: Double?
    private(set) var latest: Double?
    private var tracker = VelocityTracker()
    private var lastTime = 0.0

    /// Change per second of the quantity (least squares over event timestamps, rule 85).
    var rate: Double { tracker.velocity(at: lastTime).x }

    private func sample(at time: Double) -> Double? {
        guard touches.count >= 2 else { return nil }
        let value = measure(touches[0].location, touches[1].location)
        latest = value
        tracker.add(Point(x: value, y: 0), at: time)
        lastTime = time
        return value
    }

    /// Notes the measure once two fingers are down; a third fails the gesture before it began.
    public override func touchesBegan(_ touches: [Touch], at time: Double) {
        guard state == .possible else { return }
        if self.touches.count > 2 { transition(to: .failed); return }
        if self.touches.count == 2 { initial = sample(at: time) }
    }

    /// Begins once the two fingers' measure changed past its threshold, then reports changes.
    public override func touchesMoved(_ touches: [Touch], at time: Double) {
        guard let value = sample(at: time), let initial, !changeIfRecognized(), state == .possible else { return }
        if abs(value - initial) >= threshold {
            atBegan = value
            transition(to: .began)
        }
    }

    /// Ends a gesture that began, or fails one that did not, when a finger lifts.
    public override func touchesEnded(_ touches: [Touch], at time: Double) {
        lastTime = time
        endContinuous()
    }

    public override func reset() {
        super.reset()
        initial = nil
        atBegan = nil
        latest = nil
        tracker.reset()
    }
}

/// Two fingers spreading or closing (`UIPinchGestureRecognizer`, rule 84): begins once their
/// distance has changed by 10 pt (**[Lamina choice]**); `scale` is the distance now over the
/// distance at began, `velocity` in scale per second.
public final class PinchGestureRecognizer: TwoFingerGestureRecognizer {
    public override var kind: String { "pinch" }
    override func measure(_ a: Point, _ b: Point) -> Double { a.distance(to: b) }
    override var threshold: Double { 10 }

    /// The fingers' distance over their distance when the pinch began (1 at the start).
    public var scale: Double {
        guard let atBegan, let latest, atBegan > 0 else { return 1 }
        return latest / atBegan
    }

    /// The change of `scale` per second, at the last move.
    public var velocity: Double {
        guard let atBegan, atBegan > 0 else { return 0 }
        return rate / atBegan
    }
}

/// Two fingers turning (`UIRotationGestureRecognizer`): begins once the line between them
/// has turned 0.1 rad (**[Lamina choice]**, about 6°); `rotation` in radians since began
/// (clockwise positive, y down), `velocity` in radians per second.
public final class RotationGestureRecognizer: TwoFingerGestureRecognizer {
    public override var kind: String { "rotation" }
    private var unwrapped: Double?
    private var lastRaw = 0.0

    /// The angle, unwrapped across ±π so a turn past half a revolution keeps counting.
    override func measure(_ a: Point, _ b: Point) -> Double {
        let raw = atan2(b.y - a.y, b.x - a.x)
        defer { lastRaw = raw }
        guard let previous = unwrapped else { unwrapped = raw; return raw }
        var delta = raw - lastRaw
        if delta > Double.pi { delta -= 2 * Double.pi }
        if delta < -Double.pi { delta += 2 * Double.pi }
        unwrapped = previous + delta
        return previous + delta
    }
    override var threshold: Double { 0.1 }

    /// The fingers' turn since the rotation began, in radians (clockwise positive on screen).
    public var rotation: Double {
        guard let atBegan, let latest else { return 0 }
        return latest - atBegan
    }

    /// Radians per second, at the last move.
    public var velocity: Double { rate }

    public override func reset() {
        super.reset()
        unwrapped = nil
    }
}
