import LaminaGeometry
import LaminaLayers

/// Delivers raw touch events to gesture recognizers and touch handlers (rules 82, 86).
///
/// A new touch is hit-tested against the **presentation** tree (what the user sees, rule 58)
/// and mapped back to its model layer; the recognizers attached to that layer and its
/// ancestors receive it (unless their delegate declines the touch), and so does the touch
/// handler of the nearest of those layers that has one. The first recognizer to recognize
/// makes the others on those touches fail, unless a delegate allows both; a recognizer that
/// must wait for another's failure holds its recognition until then. A recognizer with
/// `cancelsTouchesInView` cancels its touches for the handlers when it recognizes; a touch
/// that lifts while a recognizer on it is still undecided reaches the handler once they
/// have decided (`delaysTouchesEnded`). A malformed event (a motion for a slot that is not
/// down, a second down on a busy slot) is reported and dropped; it never stops dispatch.
public final class TouchDispatcher {
    /// The tree touches are hit-tested against (its presentation).
    public let tree: LayerTree
    /// Maps panel pixels to the root layer's (upright, logical) space: the display
    /// rotation lands here, so touch locations, translations and velocities are in the
    /// same axes the scene is laid out in. Hit testing uses the panel position itself (the
    /// root's superlayer space).
    public var panelToLogical: (Point) -> Point = { $0 }
    /// Where dropped events are reported.
    public var report: (String) -> Void = { _ in }
    /// Told of every gesture recognized (a discrete one recognized, a continuous one begun)
    /// with the layer its recognizer is attached to: the control socket's `gesture` events.
    public var onRecognized: ((GestureRecognizer, Layer) -> Void)?
    /// Told of every new touch, with the layer it landed on, once its touch down has been
    /// delivered (so what it changes, such as recognizers and handlers removed, never lands
    /// in the middle of a delivery): the runtime ends text editing on a touch outside the
    /// field and the keyboard.
    public var onTouchDown: ((Touch) -> Void)?

    private var recognizers: [(layer: Layer, recognizer: GestureRecognizer)] = []
    private var handlers: [(layer: Layer, handler: (Touch) -> Void)] = []
    private var touches: [Int: (touch: Touch, recognizers: [GestureRecognizer])] = [:]
    /// Lifted touches whose handler waits for undecided recognizers (delaysTouchesEnded).
    private var endedAwaitingRecognizers: [(touch: Touch, handler: (Touch) -> Void, recognizers: [GestureRecognizer])] = []
    /// The last lift, for the next touch's tapCount.
    private var lastLift: (location: Point, time: Double, tapCount: Int)?
    /// Events dispatched and dropped, for status lines and tests.
    public private(set) var dispatchedEvents = 0
    /// Events dropped as malformed (a move or lift for a slot that is not down, a slot out of range).
    public private(set) var droppedEvents = 0
    /// Gestures recognized so far, by kind (`tap`, `pan`, …).
    public private(set) var recognizedGestures: [String: Int] = [:]

    /// A dispatcher for the layers of `tree`.
    public init(tree: LayerTree) {
        self.tree = tree
    }

    /// Attaches `recognizer` to `layer` (a model layer).
    public func addGestureRecognizer(_ recognizer: GestureRecognizer, to layer: Layer) {
        recognizer.layer = layer
        recognizer.onRecognition = { [weak self] r in self?.recognized(r) }
        recognizer.pendingRequirements = { [weak self, unowned recognizer] in self?.pendingRequirements(of: recognizer) ?? [] }
        recognizers.append((layer, recognizer))
    }

    /// Detaches `recognizer` from its layer; a gesture in progress is dropped: the touches
    /// still down no longer reach it, it forgets them without acting (it was removed), and a
    /// lift that waited on it is delivered.
    public func removeGestureRecognizer(_ recognizer: GestureRecognizer) {
        recognizers.removeAll { $0.recognizer === recognizer }
        touches = touches.mapValues { ($0.touch, $0.recognizers.filter { $0 !== recognizer }) }
        recognizer.reset()
        settle()
    }

    /// Detaches every recognizer and touch handler (a scene being replaced); touches down
    /// now reach nothing until they lift.
    public func removeAll() {
        modalLayers.removeAll()
        for (_, recognizer) in recognizers { recognizer.detach() }
        recognizers.removeAll()
        handlers.removeAll()
        for (_, entry) in touches { entry.touch.handler = nil }
        touches = touches.mapValues { ($0.touch, []) }
        endedAwaitingRecognizers.removeAll()
    }

    /// Gives `layer` the touches that land on it or its sublayers (unless a sublayer has its
    /// own handler): every phase, with `cancelled` when a recognizer takes them.
    public func addTouchHandler(to layer: Layer, _ handler: @escaping (Touch) -> Void) {
        handlers.append((layer, handler))
    }

    /// Removes the touch handlers given to `layer` (touches down now keep theirs until they lift).
    public func removeTouchHandlers(of layer: Layer) {
        handlers.removeAll { $0.layer === layer }
    }

    /// The model layer under `point` (panel pixels: the root's superlayer space) in the last
    /// presented frame.
    public func hitTest(_ point: Point) -> Layer? {
        tree.root.presentation()?.hitTest(point)?.model()
    }

    /// True while a finger is down.
    public var hasActiveTouches: Bool { !touches.isEmpty }

    /// Recognizers engaged now: tracking touches, holding a recognition, timing, or
    /// recognized and not reset yet.
    private var engaged: [GestureRecognizer] {
        recognizers.map(\.recognizer).filter { !$0.touches.isEmpty || $0.isAwaiting || ($0.state != .possible && $0.state != .failed) }
    }

    /// Still deciding: possible, and tracking touches or waiting (a held recognition, a timer).
    private func isUndecided(_ r: GestureRecognizer) -> Bool {
        r.state == .possible && (!r.touches.isEmpty || r.isAwaiting)
    }

    /// When a recognizer's timer runs out next (a long press, a multi-tap window).
    public var nextDeadline: Double? { engaged.compactMap(\.deadline).min() }

    /// Lets time pass: recognizers whose timer ran out act, then arbitration.
    public func advance(to time: Double) {
        for r in engaged where (r.deadline ?? .infinity) <= time { r.advance(to: time) }
        settle()
    }

    /// Delivers one touch event: hit testing on a touch down, then recognizers and handlers.
    public func dispatch(_ event: TouchEvent) {
        switch event.kind {
        case .down(let slot, let position):
            guard touches[slot] == nil else { return drop("touch down on slot \(slot), which is already down") }
            let location = panelToLogical(position)
            let layer = confined(hitTest(position))
            let touch = Touch(slot: slot, location: location, timestamp: event.time, layer: layer)
            if let last = lastLift, event.time - last.time <= TapGestureRecognizer.multiTapWindow,
               location.distance(to: last.location) <= TapGestureRecognizer.allowableMovement {
                touch.tapCount = last.tapCount + 1
            }
            let interested = recognizersFor(layer).filter { $0.delegate?.gestureRecognizer($0, shouldReceive: touch) ?? true }
            touch.handler = handlerFor(layer)
            touch.movedInFrame = true
            touches[slot] = (touch, interested)
            // Recognizers see a touch before the layer does (rule 82).
            for r in interested {
                r.touches.append(touch)
                r.touchesBegan([touch], at: event.time)
            }
            if touch.deliversToHandlers { touch.handler?(touch) }
            // Last, once the touch is delivered: what the observer changes (focus ends, the
            // on-screen keyboard hides and takes its handlers with it) never lands in the
            // middle of this event's delivery.
            onTouchDown?(touch)
        case .motion(let slot, let position):
            guard let entry = touches[slot] else { return drop("motion on slot \(slot), which is not down") }
            let touch = entry.touch
            touch.previousLocation = touch.location
            touch.location = panelToLogical(position)
            touch.timestamp = event.time
            touch.phase = .moved
            touch.movedInFrame = true
            for r in entry.recognizers where r.isEnabled && r.touches.contains(where: { $0 === touch }) {
                r.touchesMoved([touch], at: event.time)
            }
            if touch.deliversToHandlers { touch.handler?(touch) }
        case .up(let slot), .cancel(let slot):
            guard let entry = touches.removeValue(forKey: slot) else {
                return drop("lift on slot \(slot), which is not down")
            }
            let touch = entry.touch
            touch.timestamp = event.time
            let cancelled: Bool
            if case .cancel = event.kind { cancelled = true } else { cancelled = false }
            touch.phase = cancelled ? .cancelled : .ended
            let tracking = entry.recognizers.filter { r in r.touches.contains { $0 === touch } }
            for r in tracking where r.isEnabled {
                if cancelled { r.touchesCancelled([touch], at: event.time) } else { r.touchesEnded([touch], at: event.time) }
            }
            for r in tracking { r.touches.removeAll { $0 === touch } }
            if !cancelled { lastLift = (touch.location, event.time, touch.tapCount) }
            if touch.deliversToHandlers, let handler = touch.handler {
                let undecided = tracking.filter(isUndecided)
                if cancelled || undecided.isEmpty {
                    handler(touch)
                } else {
                    endedAwaitingRecognizers.append((touch, handler, undecided))
                }
            }
        case .frame:
            // Touches that did not move in this frame are stationary (rule 86).
            for (_, entry) in touches {
                if !entry.touch.movedInFrame { entry.touch.phase = .stationary }
                entry.touch.movedInFrame = false
            }
        }
        dispatchedEvents += 1
        settle()
    }

    /// A recognizer left possible for a recognized state: count it, make the others on its
    /// touches fail unless simultaneous recognition is allowed, and cancel its touches for
    /// the handlers when it cancels touches in the view.
    private func recognized(_ winner: GestureRecognizer) {
        recognizedGestures[winner.kind, default: 0] += 1
        if let onRecognized, let layer = recognizers.first(where: { $0.recognizer === winner })?.layer {
            onRecognized(winner, layer)
        }
        for other in engaged where other !== winner && other.state == .possible && sharesTouches(winner, other) {
            let simultaneous = winner.delegate?.gestureRecognizer(winner, shouldRecognizeSimultaneouslyWith: other) == true
                || other.delegate?.gestureRecognizer(other, shouldRecognizeSimultaneouslyWith: winner) == true
            if !simultaneous && !other.mustWait(for: winner) {
                other.heldRecognition = nil
                other.transition(to: .failed)
            }
        }
        guard winner.cancelsTouchesInView else { return }
        for touch in winner.touches where touch.deliversToHandlers {
            touch.deliversToHandlers = false
            if let handler = touch.handler {
                let phase = touch.phase
                touch.phase = .cancelled
                handler(touch)
                touch.phase = phase
            }
        }
        for (i, pending) in endedAwaitingRecognizers.enumerated().reversed() where pending.recognizers.contains(where: { $0 === winner }) {
            pending.touch.phase = .cancelled
            pending.handler(pending.touch)
            endedAwaitingRecognizers.remove(at: i)
        }
    }

    /// Two recognizers share touches (or both wait on the same layer chain after a lift).
    private func sharesTouches(_ a: GestureRecognizer, _ b: GestureRecognizer) -> Bool {
        a.touches.contains { t in b.touches.contains { $0 === t } } || a.touches.isEmpty || b.touches.isEmpty
    }

    /// The recognizers `r` must wait for that are engaged and have not failed.
    private func pendingRequirements(of r: GestureRecognizer) -> [GestureRecognizer] {
        engaged.filter { $0 !== r && $0.state != .failed && r.mustWait(for: $0) }
    }

    /// After any event or timer: held recognitions whose wait is over happen (or fail),
    /// lifted touches waiting for undecided recognizers are delivered, and recognizers done
    /// with their touches reset.
    private func settle() {
        var changed = true
        while changed {
            changed = false
            for r in engaged where r.heldRecognition != nil {
                let waits = pendingRequirements(of: r)
                if waits.contains(where: \.hasRecognized) {
                    r.releaseHeldRecognition(recognize: false)
                    changed = true
                } else if waits.isEmpty {
                    r.releaseHeldRecognition(recognize: true)
                    changed = true
                }
            }
            for r in recognizers.map(\.recognizer) where r.touches.isEmpty && !r.isAwaiting && r.state != .possible {
                r.reset()
                changed = true
            }
        }
        endedAwaitingRecognizers.removeAll { pending in
            guard !pending.recognizers.contains(where: isUndecided) else { return false }
            pending.touch.phase = .ended
            pending.handler(pending.touch)
            return true
        }
        for r in recognizers.map(\.recognizer) where r.touches.isEmpty && !r.isAwaiting && r.state == .possible {
            r.reset()
        }
    }

    /// Layers that confine touches while they are up, the last one innermost (a dialog over
    /// its dimmed background): a touch landing outside it goes to it, and no recognizer or
    /// handler above it in the tree hears the touch.
    public private(set) var modalLayers: [Layer] = []

    /// Confines touches to `layer` until `endModal(_:)` (a layer already modal moves last).
    public func beginModal(_ layer: Layer) {
        modalLayers.removeAll { $0 === layer }
        modalLayers.append(layer)
    }

    /// Ends `layer`'s confinement.
    public func endModal(_ layer: Layer) {
        modalLayers.removeAll { $0 === layer }
    }

    /// The layer a touch landing on `hit` goes to: `hit`, unless a modal layer is up and
    /// `hit` is not inside it.
    private func confined(_ hit: Layer?) -> Layer? {
        guard let modal = modalLayers.last else { return hit }
        var current = hit
        while let l = current {
            if l === modal { return hit }
            current = l.superlayer
        }
        return modal
    }

    private func recognizersFor(_ layer: Layer?) -> [GestureRecognizer] {
        var chain: [Layer] = []
        var current = layer
        let modal = modalLayers.last
        while let l = current {
            chain.append(l)
            if l === modal { break }                          // nothing above a modal layer hears it
            current = l.superlayer
        }
        return chain.flatMap { l in recognizers.filter { $0.layer === l && $0.recognizer.isEnabled }.map(\.recognizer) }
    }

    private func handlerFor(_ layer: Layer?) -> ((Touch) -> Void)? {
        var current = layer
        let modal = modalLayers.last
        while let l = current {
            if let found = handlers.first(where: { $0.layer === l }) { return found.handler }
            if l === modal { return nil }
            current = l.superlayer
        }
        return nil
    }

    private func drop(_ reason: String) {
        droppedEvents += 1
        report("dropped touch event: \(reason)")
    }
}
