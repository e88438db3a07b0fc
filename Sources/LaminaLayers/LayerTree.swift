import LaminaAnimation

/// A rendered layer tree: the root a display shows, and the per-frame steps that turn the
/// model into what is drawn (rules 45–47 and 80).
///
/// Engine code never reads a clock: each step is handed its time. A frame is
/// `commit(at: now)` (model changes and new animations take effect), then
/// `updatePresentation(at: targetTimestamp)` (animations evaluated, presentation rebuilt),
/// then drawing, then the returned callbacks.
public final class LayerTree {
    /// The root layer of the tree.
    public let root: Layer
    /// True when the model changed since the last commit.
    public internal(set) var needsCommit = true {
        didSet { if needsCommit { modelChanges &+= 1 } }
    }
    /// Counts model changes (each property set, animation added or removed, each request
    /// for a commit): code that wants to know whether something it called changed the tree
    /// compares two readings.
    public private(set) var modelChanges: UInt64 = 0
    /// True when a commit took changes that no frame has drawn yet.
    public private(set) var needsDisplay = true
    /// True when an animation is still changing the presentation after the last update.
    public private(set) var hasRunningAnimations = false

    /// The media time of the last commit or presentation update.
    public private(set) var lastFrameTime = 0.0
    /// Property animators with work in this tree (active ones).
    private var animators: [ObjectIdentifier: PropertyAnimator] = [:]
    /// Callbacks for the next frame that belong to no layer.
    private var queued: [() -> Void] = []

    func register(_ animator: PropertyAnimator) { animators[ObjectIdentifier(animator)] = animator }
    func unregister(_ animator: PropertyAnimator) { animators[ObjectIdentifier(animator)] = nil }

    /// Runs `callback` after the next frame, from the frame loop.
    func enqueue(_ callback: @escaping () -> Void) {
        queued.append(callback)
        needsCommit = true
    }

    /// A tree shown from `root`.
    public init(root: Layer) {
        self.root = root
        root.hostingTree = self
    }

    /// Whether the next frame would differ from the last: model changes or animations.
    public var needsFrame: Bool { needsCommit || needsDisplay || hasRunningAnimations || Transaction.hasDueCallbacks }

    /// Commits model changes and new animations at media time `time`: default durations
    /// (0 → 0.25 s), begin times (0 → `time`) and from/to values resolve now (rules 5, 15).
    public func commit(at time: Double) {
        Transaction.flush()                                   // the implicit transaction (rule 38)
        lastFrameTime = time
        for animator in animators.values { animator.prepare(at: time) }
        visit(root) { layer in
            layer.displayIfNeeded()                           // custom drawing, once per request
            for entry in layer.animations.entries where !entry.isCommitted {
                if entry.animation.timing.duration == 0 { entry.animation.timing.duration = 0.25 }
                if entry.animation.timing.beginTime == 0 {
                    entry.animation.timing.beginTime = layer.convertTime(time, from: nil) + entry.beginDelay   // layer time (rule 5)
                }
                // A missing start is the presentation value, a missing end the committed
                // model value (rule 15, decision 38).
                var model = layer.value(forKeyPath: entry.animation.keyPath)
                var shown = layer.presentationLayer?.value(forKeyPath: entry.animation.keyPath) ?? model
                if entry.animation.valueFunction != nil {
                    // A value function animates a number: missing ends start from zero.
                    model = .scalar(0)
                    shown = .scalar(0)
                }
                if let model, let shown { entry.ends = entry.animation.resolvedEnds(presentation: shown, model: model) }
                entry.isCommitted = true
                // A group's children: its duration when they have none, begin times relative
                // to the group, ends resolved now like any animation (rule 33).
                for child in entry.children {
                    if child.animation.timing.duration == 0 { child.animation.timing.duration = entry.animation.timing.duration }
                    let keyPath = child.animation.keyPath
                    let model = layer.value(forKeyPath: keyPath)
                    let shown = layer.presentationLayer?.value(forKeyPath: keyPath) ?? model
                    if let model, let shown { child.ends = child.animation.resolvedEnds(presentation: shown, model: model) }
                    child.isCommitted = true
                }
                if let delegate = entry.animation.delegate {
                    let animation = entry.animation
                    layer.pendingCallbacks.append { delegate.animationDidStart(animation) }   // after commit (rule 35)
                }
            }
        }
        if needsCommit { needsDisplay = true }
        needsCommit = false
    }

    /// Rebuilds the presentation tree with every committed animation evaluated at `time`,
    /// removes animations whose active interval has ended (rule 10) and returns the
    /// callbacks to run once the frame is on its way (rule 35, 80).
    @discardableResult
    public func updatePresentation(at time: Double) -> [() -> Void] {
        var callbacks = Transaction.takeDueCallbacks() + queued
        queued.removeAll()
        lastFrameTime = time
        var running = false
        _ = presentation(of: root, parentTime: time, parentRate: 1, callbacks: &callbacks, running: &running)
        for animator in Array(animators.values) {
            animator.update(at: time, callbacks: &callbacks)
            if animator.isRunning { running = true }
        }
        hasRunningAnimations = running
        needsDisplay = false
        return callbacks
    }

    /// `parentTime` is the superlayer's time (media time for the root) and `parentRate` how
    /// fast it runs against media time: a layer whose time does not advance (speed 0 on the
    /// way down) keeps no frame running (rules 2, 3).
    /// With `isInstance` (a replicator's extra instances) the copy only shows: callbacks,
    /// finished animations and the layer's presentation are left to the real pass.
    private func presentation(of layer: Layer, parentTime: Double, parentRate: Double, callbacks: inout [() -> Void],
                              running: inout Bool, isInstance: Bool = false) -> Layer {
        if let kept = keptCopy(of: layer, isInstance: isInstance) {
            return kept                                       // nothing in this subtree changed or animates
        }
        let time = layer.localTime(fromSuperlayerTime: parentTime)
        let rate = parentRate * layer.speed
        if !isInstance && !layer.pendingCallbacks.isEmpty {
            callbacks.append(contentsOf: layer.pendingCallbacks)
            layer.pendingCallbacks.removeAll()
        }
        let copy: Layer
        if !isInstance, let reused = reusablePresentationCopy(of: layer) {
            copy = reused
        } else {
            copy = layer.makePresentationCopy()
            copy.preparePresentationCopy(of: layer)
        }
        var finishedIndices: [Int] = []
        let table = Layer.layerProperties    // read once: each read of a global `let` calls swift_once
        let writesInPlace = copy.writesLayerPropertiesInPlace
        // Each entry unretained, as the array's buffer holds them all for the loop: a retain
        // and a release for each of ten thousand animations were a tenth of the frame.
        layer.animations.entries.withUnsafeBufferPointer { entries in
            for i in entries.indices {
                Unmanaged.passUnretained(entries[i])._withUnsafeGuaranteedRef { entry in
                    guard entry.isCommitted else { running = true; return }
                    apply(entry, to: copy, at: time, writesInPlace: writesInPlace, table: table)
                    if !entry.hasFinished && !isInstance {
                        let speed = entry.timing.speed
                        if speed != 0 && time >= entry.endTime {
                            finishedIndices.append(i)
                        } else if speed != 0 && rate != 0 {
                            running = true
                        }
                    }
                }
            }
        }
        for i in finishedIndices.reversed() {
            let entry = layer.animations.entries[i]
            callbacks.append(contentsOf: entry.endCallbacks(finished: true))
            if entry.animation.isRemovedOnCompletion {
                layer.animations.entries.remove(at: i)
            } else {
                layer.animations.entries[i].hasFinished = true
            }
        }
        var sublayersStatic = true
        if copy.sublayers.count == layer.sublayers.count {
            // A reused copy holding as many: each place rewritten only where its sublayer is not
            // kept, the old copy taken out while the sublayer is worked on (so a copy nothing
            // else holds can be rewritten in place) and the new one put back. A parent of
            // hundreds of kept layers rebuilt its list, and set each one's superlayer again,
            // every frame. Each model sublayer unretained: the array holds them for the loop.
            layer.sublayers.withUnsafeBufferPointer { sublayers in
                for i in sublayers.indices {
                    Unmanaged.passUnretained(sublayers[i])._withUnsafeGuaranteedRef { sublayer in
                        defer { if !sublayer.presentsStatically { sublayersStatic = false } }
                        if let kept = keptCopy(of: sublayer, isInstance: isInstance), kept === copy.sublayers[i] { return }
                        copy.sublayers[i] = vacancy
                        let child = presentation(of: sublayer, parentTime: time, parentRate: rate, callbacks: &callbacks,
                                                 running: &running, isInstance: isInstance)
                        copy.sublayers[i] = child
                        if child.superlayer !== copy { child.superlayer = copy }
                    }
                }
            }
        } else {
            copy.sublayers = []                               // the old copies let go, to be reused
            copy.adoptPresentationSublayers(layer.sublayers.map {
                presentation(of: $0, parentTime: time, parentRate: rate, callbacks: &callbacks, running: &running,
                             isInstance: isInstance)
            })
            sublayersStatic = layer.sublayers.allSatisfy { $0.presentsStatically }
        }
        if let mask = layer.maskLayer {
            let maskCopy = presentation(of: mask, parentTime: time, parentRate: rate, callbacks: &callbacks,
                                        running: &running, isInstance: isInstance)
            maskCopy.superlayer = nil   // a reused copy may have been a sublayer's
            copy.maskLayer = maskCopy
        }
        if let replicator = layer as? ReplicatorLayer, let replicatorCopy = copy as? ReplicatorLayer {
            // Instance i shows the sublayers as they were i · instanceDelay earlier.
            replicatorCopy.instances = (1..<max(replicator.instanceCount, 1)).map { i in
                layer.sublayers.map { child in
                    let instance = presentation(of: child, parentTime: time - Double(i) * replicator.instanceDelay,
                                                parentRate: rate, callbacks: &callbacks, running: &running, isInstance: true)
                    instance.attachAsInstance(of: replicatorCopy)
                    return instance
                }
            }
        }
        if !isInstance {
            if layer.presentationLayer !== copy { layer.presentationLayer = copy }   // a reused copy is already there
            layer.needsPresentation = false
            // A copy that showed an animation ending now is not kept: the next frame shows
            // the model without it (rule 10).
            layer.presentsStatically = layer.animations.entries.isEmpty && finishedIndices.isEmpty && layer.pendingCallbacks.isEmpty
                && sublayersStatic && (layer.maskLayer?.presentsStatically ?? true)
            // The copy carries it too: the display list's walk asks it of every copy it meets,
            // and the model is behind a weak reference (a slow retain and release each).
            copy.presentsStatically = layer.presentsStatically
        }
        return copy
    }

    /// Last frame's copy of `layer` when it is shown again as it is: nothing in its subtree
    /// changed or animates (not for a replicator's extra instances, made afresh).
    @inline(__always)
    private func keptCopy(of layer: Layer, isInstance: Bool) -> Layer? {
        guard !isInstance, !layer.needsPresentation, layer.presentsStatically else { return nil }
        return layer.presentationLayer
    }

    /// What a copy's sublayer list holds in the place of a sublayer while that sublayer's copy
    /// is worked on (never drawn, never seen outside the pass).
    private let vacancy = Layer()

    /// Writes a committed animation's value at layer time `time` into the presentation copy:
    /// a transition's frame, a group's children, or the animated property (with a path's turn).
    @inline(__always)
    private func apply(_ entry: AnimationEntry, to copy: Layer, at time: Double, writesInPlace: Bool,
                       table: PropertyTable<Layer.Properties>) {
        if entry.isTransition {
            if let p = entry.transitionProgress(at: time), let snapshot = entry.snapshot {
                copy.transitionFrame = (snapshot, entry.transition!, p)
            }
        } else if entry.hasChildren {
            for (childKeyPath, value) in entry.childValues(at: time, underlying: { copy.value(forKeyPath: $0) }) {
                copy.applyAnimatedValue(value, forKeyPath: childKeyPath)
            }
        } else if let plain = entry.plain, writesInPlace {
            if let lanes = entry.lanes(at: time, from: plain.from, to: plain.to) {
                plain.writer.write(lanes, into: &copy.properties)
            }
        } else if let writer = entry.plainTransform, writesInPlace {
            if let transform = entry.affineTransform(at: time) {
                writer.write(transform, into: &copy.properties)
            }
        } else if let component = entry.plainComponent, writesInPlace {
            if let lanes = entry.lanes(at: time, from: component.from, to: component.to) {
                component.writer.write(lanes, into: &copy.properties)
            }
        } else if case let keyPath = entry.keyPath,
                  let value = entry.value(at: time, underlying: { copy.value(forKeyPath: keyPath) }) {
            if let index = entry.layerPropertyIndex, writesInPlace {
                _ = table.write(value, atIndex: index, in: &copy.properties)
            } else {
                copy.applyAnimatedValue(value, forKeyPath: keyPath)
            }
            if let angle = entry.rotation(at: time) {
                // Turned along the path, before the layer's own transform (rule 26).
                copy.applyAnimatedValue(.transform(copy.transform.rotated(by: angle, x: 0, y: 0, z: 1)), forKeyPath: "transform")
            }
        }
    }

    /// The copy `layer` showed last frame, made ready to be written again as a fresh copy
    /// would be, when nothing but the layer holds it (no app, transition or sublayer list): an
    /// animating layer then costs no allocation a frame. Only plain layers, whose copy is
    /// their `properties`; every other kind copies more (decision 129).
    private func reusablePresentationCopy(of layer: Layer) -> Layer? {
        guard type(of: layer) == Layer.self, isKnownUniquelyReferenced(&layer.presentationLayer),
              let copy = layer.presentationLayer, type(of: copy) == Layer.self else { return nil }
        copy.refreshPresentationCopy(of: layer)
        return copy
    }

    /// Visits the layers a commit may have work on: those changed since the last
    /// presentation pass and the way down to them (a display request, a new animation,
    /// each marks its way up).
    private func visit(_ layer: Layer, _ body: (Layer) -> Void) {
        guard layer.needsPresentation else { return }
        body(layer)
        if let mask = layer.maskLayer { visit(mask, body) }
        for child in layer.sublayers { visit(child, body) }
    }
}

extension LayerTree {
    /// Makes the next presentation pass copy every layer again, keeping none (the pass as
    /// it was before copies were kept: tests hold the kept ones to it).
    func forgetKeptPresentations() {
        func forget(_ layer: Layer) {
            layer.needsPresentation = true
            if let mask = layer.maskLayer { forget(mask) }
            for child in layer.sublayers { forget(child) }
        }
        forget(root)
    }

    /// Asks for a new frame even though the model did not change (after a failed flip).
    public func setNeedsCommit() {
        needsCommit = true
    }
}
