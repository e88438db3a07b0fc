import LaminaGeometry
import LaminaLayers

/// A drag (`UIPanGestureRecognizer`, rule 84): begins once the centroid of its fingers has
/// moved 10 pt (**[Lamina choice]**), with the translation rebased to that point; reports
/// the cumulative translation of the centroid (a finger landing or lifting does not make it
/// jump) and the least-squares velocity of event timestamps (rule 85).
public final class PanGestureRecognizer: GestureRecognizer {
    public override var kind: String { "pan" }
    /// Points the fingers move before the pan begins.
    public static let threshold = 10.0
    /// The fewest fingers that pan (1 by default).
    public var minimumNumberOfTouches = 1
    /// The most fingers that pan (no limit by default).
    public var maximumNumberOfTouches = Int.max

    /// Where the centroid was when the fingers landed (for the threshold).
    private var start: Point?
    /// The centroid's position the translation is measured from.
    private var origin: Point?
    /// The centroid now, plus the offset that hides jumps when fingers land or lift.
    private var current: Point?
    private var offset = Point.zero
    private var tracker = VelocityTracker()
    private var lastTime = 0.0

    /// The centroid of the tracked fingers, corrected for fingers landing and lifting.
    private var centroid: Point { location(in: nil) + offset }

    /// Where the fingers landed, in `layer`'s coordinates (nil: the root's): the pan begins
    /// only after they moved `threshold` from here, so a drag that acts on what was under
    /// the finger (a text selection's anchor) starts here, not at the began location.
    public func startLocation(in layer: Layer?) -> Point? {
        guard let start else { return nil }
        guard let layer else { return start }
        return layer.convert(start, from: nil)
    }

    /// Movement since the gesture began, in `layer`'s coordinates (nil: the root's).
    public func translation(in layer: Layer?) -> Point {
        guard let origin, let current else { return .zero }
        guard let layer else { return current - origin }
        let t = layer.transformToRoot().inverted()
        let a = t.project(origin) ?? origin, b = t.project(current) ?? current
        return b - a
    }

    /// Rebases the translation so that it reads `translation` now (root coordinates when
    /// `layer` is nil).
    public func setTranslation(_ translation: Point, in layer: Layer?) {
        guard let current else { return }
        origin = current - translation
    }

    /// Finger velocity in points per second, in the root's coordinates.
    public func velocity() -> Point { tracker.velocity(at: lastTime) }

    /// Finger velocity in `layer`'s coordinates (the linear part of its transform).
    public func velocity(in layer: Layer?) -> Point {
        let v = velocity()
        guard let layer else { return v }
        let t = layer.transformToRoot().inverted()
        guard let a = t.project(.zero), let b = t.project(v) else { return v }
        return b - a
    }

    /// Tracks the new fingers; too many fail the pan before it began.
    public override func touchesBegan(_ touches: [Touch], at time: Double) {
        guard state == .possible || state == .began || state == .changed else { return }
        if self.touches.count > maximumNumberOfTouches {
            if state == .possible { transition(to: .failed) }
            return
        }
        // `self.touches` already holds the new ones: re-anchor without them, then with.
        let others = self.touches.filter { t in !touches.contains { $0 === t } }
        if !others.isEmpty {
            let before = others.reduce(Point.zero) { $0 + $1.location } * (1 / Double(others.count)) + offset
            offset = before - location(in: nil)
        }
        if start == nil { start = centroid }
        tracker.add(centroid, at: time)
        lastTime = time
    }

    /// Begins once the fingers' centroid moved `threshold` points, then reports changes.
    public override func touchesMoved(_ touches: [Touch], at time: Double) {
        guard let start else { return }
        let point = centroid
        tracker.add(point, at: time)
        lastTime = time
        current = point
        guard !changeIfRecognized(), state == .possible else { return }
        if point.distance(to: start) >= Self.threshold && self.touches.count >= minimumNumberOfTouches {
            origin = point
            transition(to: .began)
        }
    }

    /// Ends the pan when too few fingers remain; before it began, the pan fails.
    public override func touchesEnded(_ touches: [Touch], at time: Double) {
        lastTime = time
        let remaining = self.touches.count - touches.count
        if remaining > 0 && remaining >= minimumNumberOfTouches {
            // Fingers lifting: the centroid of the rest continues where this one was.
            let rest = self.touches.filter { t in !touches.contains { $0 === t } }
            let now = centroid
            offset = now - rest.reduce(Point.zero) { $0 + $1.location } * (1 / Double(rest.count))
            return
        }
        endContinuous()
    }

    public override func reset() {
        super.reset()
        start = nil
        origin = nil
        current = nil
        offset = .zero
        tracker.reset()
    }
}
