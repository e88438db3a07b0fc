#if canImport(Glibc)
import Glibc
#endif
import Lamina
import LaminaGeometry
import LaminaInput

/// Endless random touches for a soak run: taps, long presses, drags and two-finger
/// pinches, one gesture at a time with random pauses, anywhere on the panel (half of them
/// near `focus`, where the scene's target is). Events are made one gesture ahead, so the
/// source holds a few dozen events however long it runs.
public final class RandomTouchSource: TouchSource {
    private var random: SplitMix64
    private let panel: Size
    private let focus: Point
    private var queue: [TouchEvent] = []
    private var head = 0
    private var nextGestureAt: Double
    /// Gestures started, by kind.
    public private(set) var gestures: [String: Int] = [:]

    /// Gestures on a panel of size `panel` around `focus`, from `start` on, fixed by `seed`.
    public init(seed: UInt64, panel: Size, focus: Point, start: Double) {
        random = SplitMix64(seed: seed)
        self.panel = panel
        self.focus = focus
        nextGestureAt = start + 0.1
    }

    public var eventDescriptor: Int32? { nil }
    public var isSettled: Bool { false }

    public var nextEventTime: Double? {
        refill()
        return queue[head].time
    }

    public func events(upTo time: Double) -> [TouchEvent] {
        var due: [TouchEvent] = []
        while true {
            refill()
            guard queue[head].time <= time else { return due }
            due.append(queue[head])
            head += 1
        }
    }

    private func refill() {
        guard head >= queue.count else { return }
        queue.removeAll(keepingCapacity: true)
        head = 0
        let start = nextGestureAt
        var end = start
        func add(_ time: Double, _ kinds: TouchEvent.Kind...) {
            for kind in kinds { queue.append(TouchEvent(time: time, kind: kind)) }
            queue.append(TouchEvent(time: time, kind: .frame))
            end = max(end, time)
        }
        let p = point()
        switch Int.random(in: 0..<10, using: &random) {
        case 0..<4:
            gestures["tap", default: 0] += 1
            add(start, .down(slot: 0, position: p))
            add(start + Double.random(in: 0.03...0.12, using: &random), .up(slot: 0))
        case 4:
            gestures["longPress", default: 0] += 1
            add(start, .down(slot: 0, position: p))
            add(start + Double.random(in: 0.6...1.2, using: &random), .up(slot: 0))
        case 5..<8:
            gestures["drag", default: 0] += 1
            let q = point(), duration = Double.random(in: 0.05...0.8, using: &random)
            add(start, .down(slot: 0, position: p))
            let steps = Int((duration / TouchScript.motionInterval).rounded(.up))
            for i in 1...steps {
                add(start + duration * Double(i) / Double(steps), .motion(slot: 0, position: p.interpolated(to: q, by: Double(i) / Double(steps))))
            }
            add(start + duration, .up(slot: 0))
        default:
            gestures["pinch", default: 0] += 1
            let spread = Double.random(in: 20...200, using: &random), grow = Double.random(in: 0.3...3, using: &random)
            let duration = Double.random(in: 0.1...0.6, using: &random)
            func fingers(_ s: Double) -> (Point, Point) { (Point(x: p.x - s, y: p.y), Point(x: p.x + s, y: p.y)) }
            let (a, b) = fingers(spread)
            add(start, .down(slot: 0, position: a), .down(slot: 1, position: b))
            let steps = Int((duration / TouchScript.motionInterval).rounded(.up))
            for i in 1...steps {
                let (a, b) = fingers(spread * (1 + (grow - 1) * Double(i) / Double(steps)))
                add(start + duration * Double(i) / Double(steps), .motion(slot: 0, position: a), .motion(slot: 1, position: b))
            }
            add(start + duration, .up(slot: 0), .up(slot: 1))
        }
        nextGestureAt = end + Double.random(in: 0.05...1.5, using: &random)
    }

    /// Near the focus half the time, else anywhere on the panel.
    private func point() -> Point {
        if Bool.random(using: &random) {
            return Point(x: focus.x + Double.random(in: -200...200, using: &random),
                         y: focus.y + Double.random(in: -80...80, using: &random))
        }
        return Point(x: Double.random(in: 0...panel.width, using: &random), y: Double.random(in: 0...panel.height, using: &random))
    }
}
