import LaminaGeometry

/// A quick stroke in one direction (`UISwipeGestureRecognizer`, discrete). **[Lamina
/// choice]** (UIKit's values are undocumented): recognized once the fingers' centroid has
/// travelled 50 pt along one of the allowed directions within 0.5 s of landing, while
/// staying within half that distance across it; fails on a lift before, on the time limit,
/// or on a stroke that is not along an allowed direction.
public final class SwipeGestureRecognizer: GestureRecognizer {
    public override var kind: String { "swipe" }

    /// Directions as a set (`UISwipeGestureRecognizer.Direction`).
    public struct Direction: OptionSet, Hashable, Sendable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }
        /// Left to right.
        public static let right = Direction(rawValue: 1)
        /// Right to left.
        public static let left = Direction(rawValue: 2)
        /// Bottom to top.
        public static let up = Direction(rawValue: 4)
        /// Top to bottom.
        public static let down = Direction(rawValue: 8)
    }

    /// Points the fingers must travel along an allowed direction.
    public static let minimumDistance = 50.0
    /// Seconds within which they must travel it.
    public static let maximumDuration = 0.5
    /// The directions that count (right by default).
    public var direction: Direction = .right
    /// Fingers that must swipe together (1 by default).
    public var numberOfTouchesRequired = 1
    /// The direction recognized (one of `direction`).
    public private(set) var recognizedDirection: Direction?

    private var start: Point?
    private var endsBy: Double?

    public override var deadline: Double? { state == .possible ? endsBy : nil }

    public override func advance(to time: Double) {
        guard state == .possible, let by = endsBy, time >= by else { return }
        endsBy = nil
        transition(to: .failed)
    }

    /// Notes where and when the fingers landed; more than required fail the swipe.
    public override func touchesBegan(_ touches: [Touch], at time: Double) {
        guard state == .possible else { return }
        if self.touches.count > numberOfTouchesRequired { transition(to: .failed); return }
        start = location(in: nil)
        if endsBy == nil { endsBy = time + Self.maximumDuration }
    }

    /// Recognizes once the fingers travelled far enough along an allowed direction in time; too slow or too far across fails.
    public override func touchesMoved(_ touches: [Touch], at time: Double) {
        guard state == .possible, let start, self.touches.count == numberOfTouchesRequired else { return }
        let d = location(in: nil) - start
        let candidates: [(Direction, along: Double, across: Double)] = [
            (.right, d.x, abs(d.y)), (.left, -d.x, abs(d.y)), (.down, d.y, abs(d.x)), (.up, -d.y, abs(d.x)),
        ]
        guard let best = candidates.max(by: { $0.along < $1.along }), best.along >= Self.minimumDistance else { return }
        endsBy = nil
        if direction.contains(best.0) && best.across <= best.along / 2 {
            recognizedDirection = best.0
            transition(to: .recognized)
        } else {
            transition(to: .failed)
        }
    }

    /// Lifting before the swipe is recognized fails it.
    public override func touchesEnded(_ touches: [Touch], at time: Double) {
        endsBy = nil
        if state == .possible { transition(to: .failed) }
    }

    public override func reset() {
        super.reset()
        start = nil
        endsBy = nil
        recognizedDirection = nil
    }
}
