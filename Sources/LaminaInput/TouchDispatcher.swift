import LaminaGeometry
import LaminaLayers

/// Delivers raw touch events to gesture recognizers (rules 82, 86).
///
/// A new touch is hit-tested against the **presentation** tree (what the user sees, rule 58)
/// and mapped back to its model layer; the recognizers attached to that layer and its
/// ancestors receive it. The first recognizer to recognize makes the others on those touches
/// fail. A malformed event (a motion for a slot that is not down, a second down on a busy
/// slot) is reported and dropped; it never stops dispatch.
public final class TouchDispatcher {
    public let tree: LayerTree
    /// Maps panel pixels to the root layer's (upright, logical) space: the display
    /// rotation lands here, so touch locations, translations and velocities are in the
    /// same axes the scene is laid out in. Hit testing uses the panel position itself (the
    /// root's superlayer space).
    public var panelToLogical: (Point) -> Point = { $0 }
    /// Where dropped events are reported.
    public var report: (String) -> Void = { _ in }

    private var recognizers: [(layer: Layer, recognizer: GestureRecognizer)] = []
    private var touches: [Int: (touch: Touch, recognizers: [GestureRecognizer])] = [:]
    /// Events dispatched and dropped, for status lines and tests.
    public private(set) var dispatchedEvents = 0
    public private(set) var droppedEvents = 0
    /// Gestures recognized so far, by kind (`tap`, `pan`, …).
    public private(set) var recognizedGestures: [String: Int] = [:]

    public init(tree: LayerTree) {
        self.tree = tree
    }

    /// Attaches `recognizer` to `layer` (a model layer).
    public func addGestureRecognizer(_ recognizer: GestureRecognizer, to layer: Layer) {
        recognizer.layer = layer
        recognizer.onRecognition = { [weak self] r in self?.recognizedGestures[r.kind, default: 0] += 1 }
        recognizers.append((layer, recognizer))
    }

    public func removeGestureRecognizer(_ recognizer: GestureRecognizer) {
        recognizers.removeAll { $0.recognizer === recognizer }
    }

    /// The model layer under `point` (panel pixels: the root's superlayer space) in the last
    /// presented frame.
    public func hitTest(_ point: Point) -> Layer? {
        tree.root.presentation()?.hitTest(point)?.model()
    }

    public func dispatch(_ event: TouchEvent) {
        switch event.kind {
        case .down(let slot, let position):
            guard touches[slot] == nil else { return drop("touch down on slot \(slot), which is already down") }
            let location = panelToLogical(position)
            let layer = hitTest(position)
            let touch = Touch(slot: slot, location: location, timestamp: event.time, layer: layer)
            let interested = recognizersFor(layer)
            touches[slot] = (touch, interested)
            for r in interested {
                r.touches.append(touch)
                r.touchesBegan([touch], at: event.time)
            }
            arbitrate(interested)
        case .motion(let slot, let position):
            guard let entry = touches[slot] else { return drop("motion on slot \(slot), which is not down") }
            let touch = entry.touch
            touch.previousLocation = touch.location
            touch.location = panelToLogical(position)
            touch.timestamp = event.time
            touch.phase = .moved
            for r in entry.recognizers where r.isEnabled { r.touchesMoved([touch], at: event.time) }
            arbitrate(entry.recognizers)
        case .up(let slot), .cancel(let slot):
            guard let entry = touches.removeValue(forKey: slot) else {
                return drop("lift on slot \(slot), which is not down")
            }
            let touch = entry.touch
            touch.timestamp = event.time
            let cancelled: Bool
            if case .cancel = event.kind { cancelled = true } else { cancelled = false }
            touch.phase = cancelled ? .cancelled : .ended
            for r in entry.recognizers where r.isEnabled {
                if cancelled { r.touchesCancelled([touch], at: event.time) } else { r.touchesEnded([touch], at: event.time) }
            }
            arbitrate(entry.recognizers)
            for r in entry.recognizers {
                r.touches.removeAll { $0 === touch }
                if r.touches.isEmpty { r.reset() }
            }
        case .frame:
            break
        }
        dispatchedEvents += 1
    }

    /// True while a finger is down.
    public var hasActiveTouches: Bool { !touches.isEmpty }

    private func recognizersFor(_ layer: Layer?) -> [GestureRecognizer] {
        var chain: [Layer] = []
        var current = layer
        while let l = current {
            chain.append(l)
            current = l.superlayer
        }
        return chain.flatMap { l in recognizers.filter { $0.layer === l && $0.recognizer.isEnabled }.map(\.recognizer) }
    }

    /// The first recognizer to recognize makes the others still possible fail (rule 82).
    private func arbitrate(_ group: [GestureRecognizer]) {
        guard group.contains(where: \.hasRecognized) else { return }
        for r in group where r.state == .possible { r.transition(to: .failed) }
    }

    private func drop(_ reason: String) {
        droppedEvents += 1
        report("dropped touch event: \(reason)")
    }
}
