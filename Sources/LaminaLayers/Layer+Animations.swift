import LaminaAnimation
import LaminaGeometry
import LaminaRaster

extension Layer {
    /// Attaches `animation` under `key` (rule 5, 18). A copy is stored: later changes to the
    /// caller's value do not affect it. At the next commit a `duration` of 0 becomes 0.25 s,
    /// a `beginTime` of 0 becomes the commit time, and missing from/to values are taken from
    /// the property's presentation value. An animation already under `key` is replaced and
    /// its completion receives `false`. `completion(finished)` runs once, from the frame loop
    /// after the frame in which the animation ended or was removed (rule 35).
    ///
    /// In debug builds a key path this kind of layer does not have, a value of another kind
    /// than the property's, and a layer in no tree are each said once per call site
    /// (`LayerDiagnostics`); Core Animation ignores them silently, and so does a release build.
    public func add(_ animation: BasicAnimation, forKey key: String?, completion: ((Bool) -> Void)? = nil,
                    file: StaticString = #fileID, line: UInt = #line) {
        if LayerDiagnostics.isEnabled { diagnose(animation, file: file, line: line) }
        add(animation, forKey: key, beginDelay: 0, completion: completion)
    }

    /// The mistakes `add` says in debug builds.
    private func diagnose(_ animation: BasicAnimation, file: StaticString, line: UInt) {
        let what = "\(type(of: self))\(name.map { " '\($0)'" } ?? "")"
        if !isInHostedTree {
            LayerDiagnostics.warnOnce("an animation of '\(animation.keyPath)' added to \(what), which is in no tree, stops at once: add the layer first",
                                      file: file, line: line)
            return
        }
        guard !animation.keyPath.isEmpty else { return }
        guard let current = value(forKeyPath: animation.keyPath) else {
            let hint = Spelling.nearest(animation.keyPath, in: Self.animatableKeyPaths).map { " (did you mean '\($0)'?)" } ?? ""
            LayerDiagnostics.warnOnce("\(what) has no animatable property '\(animation.keyPath)'\(hint): the animation does nothing",
                                      file: file, line: line)
            return
        }
        let values = [animation.fromValue, animation.toValue, animation.byValue].compactMap { $0 } + (animation.keyframes?.values ?? [])
        if animation.valueFunction == nil, let wrong = values.first(where: { !$0.isSameKind(as: current) }) {
            LayerDiagnostics.warnOnce("'\(animation.keyPath)' of \(what) holds \(current.kindName), not \(wrong.kindName): the animation does nothing",
                                      file: file, line: line)
        }
    }

    /// `add` whose begin time, when left at 0, becomes the commit time plus `beginDelay`
    /// (block animations with a delay, rule 67).
    @discardableResult
    func add(_ animation: BasicAnimation, forKey key: String?, beginDelay: Double, completion: ((Bool) -> Void)?) -> AnimationEntry? {
        precondition(!isPresentation, "add animations to the model layer")
        if let key { removeAnimation(forKey: key) }
        guard isInHostedTree else {
            // In no rendered tree: started, stopped unfinished at once, never kept (rule 35).
            let entry = AnimationEntry(key: key ?? "", isKeyed: false, animation: animation, completion: completion)
            var callbacks: [() -> Void] = []
            if let delegate = animation.delegate { callbacks.append { delegate.animationDidStart(animation) } }
            callbacks += entry.endCallbacks(finished: false)
            TransactionStack.current.due.append(contentsOf: callbacks)
            return nil
        }
        let storedKey = key ?? animations.anonymousKey()
        let entry = AnimationEntry(key: storedKey, isKeyed: key != nil, animation: animation, completion: completion)
        entry.beginDelay = beginDelay
        entry.groups = Transaction.completionGroupsForNewAnimation()
        for group in entry.groups { group.pending += 1 }
        animations.entries.append(entry)
        setNeedsCommit()
        return entry
    }

    /// Attaches a group (rule 33) under `key`, like `add(_:forKey:completion:)`.
    public func add(_ group: AnimationGroup, forKey key: String?, completion: ((Bool) -> Void)? = nil) {
        var container = BasicAnimation(keyPath: "", duration: group.timing.duration)
        container.timing = group.timing
        container.isRemovedOnCompletion = group.isRemovedOnCompletion
        container.delegate = group.delegate
        guard let entry = add(container, forKey: key, beginDelay: 0, completion: completion) else { return }
        entry.groupTimingFunction = group.timingFunction
        entry.children = group.animations.map { child in
            var child = child
            child.delegate = nil                                   // ignored inside a group
            return AnimationEntry(key: "", isKeyed: false, animation: child, completion: nil)
        }
    }

    /// Runs `transition` from the layer's look in the last frame to its look after this
    /// transaction's changes; always under the key "transition" (rules 18, 34).
    public func add(_ transition: Transition, completion: ((Bool) -> Void)? = nil) {
        var container = BasicAnimation(keyPath: "", duration: transition.timing.duration)
        container.timing = transition.timing
        container.delegate = transition.delegate
        // The picture before the change: the copy drawn in the last frame.
        let before = presentationLayer
        guard let entry = add(container, forKey: "transition", beginDelay: 0, completion: completion) else { return }
        entry.transition = transition
        entry.snapshot = before
    }

    /// The stored copy under `key`, or nil.
    public func animation(forKey key: String) -> BasicAnimation? {
        animations.entries.first { $0.isKeyed && $0.key == key }?.animation
    }

    /// Keys of the attached animations in add order; animations added without a key are
    /// not listed (rule 18).
    public func animationKeys() -> [String] {
        (isPresentation ? model() : self).animations.entries.filter(\.isKeyed).map(\.key)
    }

    /// The value `keyPath` shows at media time `time`: the model value with this layer's
    /// committed animations applied in add order, in the layer's own time (rule 2).
    /// Display-link code reads this at `targetTimestamp` to follow an animation in the frame
    /// being built.
    public func presentationValue(forKeyPath keyPath: String, at time: Double) -> AnimatableValue? {
        let model = model()
        let local = model.convertTime(time, from: nil)
        var value = model.value(forKeyPath: keyPath)
        for entry in model.animations.entries where entry.animation.keyPath == keyPath {
            if let animated = entry.value(at: local, over: value) { value = animated }
        }
        return value
    }

    /// Removes the animation under `key`; its completion receives `false`.
    public func removeAnimation(forKey key: String) {
        precondition(!isPresentation, "remove animations from the model layer")
        guard let index = animations.entries.firstIndex(where: { $0.isKeyed && $0.key == key }) else { return }
        let entry = animations.entries.remove(at: index)
        stopped(entry, finished: false)
    }

    /// Removes every animation; each completion receives `false`.
    public func removeAllAnimations() {
        precondition(!isPresentation, "remove animations from the model layer")
        let removed = animations.entries
        animations.entries.removeAll()
        for entry in removed { stopped(entry, finished: false) }
    }

    func stopped(_ entry: AnimationEntry, finished: Bool) {
        setNeedsCommit()
        guard !entry.hasFinished else { return }
        pendingCallbacks.append(contentsOf: entry.endCallbacks(finished: finished))
    }
}

extension Layer {
    /// True when the layer belongs to a tree a `LayerTree` hosts.
    var isInHostedTree: Bool {
        var layer: Layer? = self
        while let l = layer {
            if l.hostingTree != nil { return true }
            layer = l.superlayer ?? l.maskOwner
        }
        return false
    }

    /// Stops and drops every animation in this subtree, unfinished (a layer leaving the
    /// rendered tree, rule 35).
    func stopAnimationsInSubtree() {
        if !animations.entries.isEmpty { removeAllAnimations() }
        for child in sublayers { child.stopAnimationsInSubtree() }
    }
}

extension KeyframePath {
    /// The motion of `path`: each element's end point a keyframe, a move inside it a jump.
    public init(_ path: Path) {
        var segments: [Segment] = []
        var current: Point?
        var start: Point?
        for element in path.elements {
            switch element {
            case .move(let p):
                if let c = current, !segments.isEmpty { segments.append(.jump(c, p)) }
                current = p
                start = p
            case .line(let p):
                if let c = current { segments.append(.line(c, p)) }
                current = p
            case .quad(let control, let p):
                if let c = current { segments.append(.quad(c, control, p)) }
                current = p
            case .cubic(let c1, let c2, let p):
                if let c = current { segments.append(.cubic(c, c1, c2, p)) }
                current = p
            case .close:
                if let c = current, let s = start, c != s { segments.append(.line(c, s)) }
                current = start
            }
        }
        self.init(segments: segments)
    }
}
