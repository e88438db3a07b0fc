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
        public static let right = Direction(rawValue: 1)
        public static let left = Direction(rawValue: 2)
        public static let up = Direction(rawValue: 4)
        public static let down = Direction(rawValue: 8)
    }

    public static let minimumDistance = 50.0
    public static let maximumDuration = 0.5
    public var direction: Direction = .right
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

    public override func touchesBegan(_ touches: [Touch], at time: Double) {
        guard state == .possible else { return }
        if self.touches.count > numberOfTouchesRequired { transition(to: .failed); return }
        start = location(in: nil)
        if endsBy == nil { endsBy = time + Self.maximumDuration }
    }

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
