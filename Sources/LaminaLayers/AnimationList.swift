import LaminaAnimation
import LaminaGeometry

/// One animation attached to a layer, with what the commit resolved for it. A reference,
/// so evaluating thousands of animations every frame never copies them.
final class AnimationEntry {
    // The fields every frame reads come first, together (a class's fields are laid out in
    // the order declared): ten thousand animations read a few cache lines each.
    var isCommitted = false
    var hasFinished = false
    // What evaluating the animation reads, taken out of `animation` whenever it changes
    // (when added and at the commit), so a frame never copies the animation (its strings,
    // keyframes and delegate) to read its timing.
    private(set) var hasKeyframes = false
    private(set) var isCumulative = false
    private(set) var isAdditive = false
    /// True for a transition (`transition` is set).
    private(set) var isTransition = false
    /// True for a group with children.
    private(set) var hasChildren = false
    private var hasEnds = false
    /// Where the key path is in `Layer`'s own property table, when it is there: the layer
    /// kinds Lamina defines write those properties without looking the key path up again.
    private(set) var layerPropertyIndex: Int?
    /// The animation's timing.
    private(set) var timing = MediaTiming()
    /// `timing.endTime`, kept.
    private(set) var endTime = 0.0
    /// Its easing; nil for linear.
    private(set) var curve: TimingFunction?
    /// Its spring's motion, when it has one.
    private(set) var spring: Spring.Motion?
    /// Its decay, when it has one (and no spring).
    private(set) var decay: Decay?
    /// From and to, resolved against the presentation value at commit (rule 15).
    var ends: (from: AnimatableValue, to: AnimatableValue)? {
        get { hasEnds ? (from, to) : nil }
        set {
            hasEnds = newValue != nil
            from = newValue?.from ?? .scalar(0)
            to = newValue?.to ?? .scalar(0)
            if case .transform(let a)? = newValue?.from, case .transform(let b)? = newValue?.to {
                affine = AffineInterpolation(from: a, to: b)
            } else {
                affine = nil
            }
            takePlainEvaluation()
        }
    }
    /// For an animation that is nothing but `from` to `to` of a lane kind into a stored field
    /// of `Layer` (no keyframes, no accumulation, not additive, no value function): the ends
    /// as lanes and how to write them (`PlainLanes`).
    private(set) var plain: (from: SIMD4<Double>, to: SIMD4<Double>, writer: LaneWriter<Layer.Properties>)?
    /// The same for an affine transform into `Layer`'s stored transform: how to write it.
    private(set) var plainTransform: TransformWriter<Layer.Properties>?
    /// The same for a component of `Layer`'s stored transform (`transform.scale`, …): the
    /// ends as lanes and how to write them.
    private(set) var plainComponent: (from: SIMD4<Double>, to: SIMD4<Double>, writer: TransformComponentWriter<Layer.Properties>)?
    // `ends` kept as two plain values: an optional tuple of enums is copied and destroyed
    // through generic witnesses, many times the cost of the interpolation.
    private var from = AnimatableValue.scalar(0)
    private var to = AnimatableValue.scalar(0)
    /// Affine transform ends, decomposed once (rule 20's interpolation, without decomposing
    /// both ends every frame).
    private var affine: AffineInterpolation?
    private(set) var valueFunction: ValueFunction?
    /// For a group (rule 33): its children, evaluated in its local time; `animation` holds
    /// the group's own timing.
    var children: [AnimationEntry] = [] {
        didSet { hasChildren = !children.isEmpty }
    }
    /// The animated key path.
    private(set) var keyPath = ""

    var key: String
    /// False for animations added with a nil key (not listed by `animationKeys()`).
    var isKeyed: Bool
    var animation: BasicAnimation {
        didSet { takeEvaluation() }
    }
    var completion: ((Bool) -> Void)?
    /// The transaction completion blocks waiting for this animation (rule 39).
    var groups: [CompletionGroup] = []
    /// Added to the commit time when the begin time is left at 0.
    var beginDelay = 0.0
    var groupTimingFunction: TimingFunction?
    /// For a transition (rule 34): its description and the picture before the change.
    var transition: Transition? {
        didSet { isTransition = transition != nil }
    }
    var snapshot: Layer?

    private func takeEvaluation() {
        keyPath = animation.keyPath
        layerPropertyIndex = Layer.layerProperties.index(of: keyPath)
        timing = animation.timing
        endTime = timing.endTime
        curve = animation.timingFunction.flatMap { $0.x1 == $0.y1 && $0.x2 == $0.y2 ? nil : $0 }   // linear: none
        spring = animation.spring.map(Spring.Motion.init)
        decay = animation.decay
        hasKeyframes = animation.keyframes != nil
        isCumulative = animation.isCumulative
        isAdditive = animation.isAdditive
        valueFunction = animation.valueFunction
        takePlainEvaluation()
    }

    private func takePlainEvaluation() {
        plain = nil
        plainTransform = nil
        plainComponent = nil
        guard hasEnds, !hasKeyframes, !isCumulative, !isAdditive, valueFunction == nil, let layerPropertyIndex
        else { return }
        if affine != nil {
            plainTransform = Layer.layerProperties.transformWriter(atIndex: layerPropertyIndex)
            return
        }
        if let writer = Layer.layerProperties.componentWriter(atIndex: layerPropertyIndex) {
            plainComponent = plainEnds(as: writer.kind).map { ($0.from, $0.to, writer) }
            return
        }
        guard let writer = Layer.layerProperties.laneWriter(atIndex: layerPropertyIndex),
              let ends = plainEnds(as: writer.kind) else { return }
        plain = (ends.from, ends.to, writer)
    }

    /// The resolved ends as lanes, when both are of `kind`.
    private func plainEnds(as kind: PlainLanes.Kind) -> (from: SIMD4<Double>, to: SIMD4<Double>)? {
        guard let a = PlainLanes(from), let b = PlainLanes(to), a.kind == kind, b.kind == kind else { return nil }
        return (a.values, b.values)
    }

    /// A plain animation's lanes at layer time `time`, or nil where it does not apply: what
    /// `value(at:underlying:)` gives, as lanes.
    @inline(__always)
    func lanes(at time: Double, from: SIMD4<Double>, to: SIMD4<Double>) -> SIMD4<Double>? {
        guard isCommitted, let phase = timing.phase(at: time) else { return nil }
        return from + (to - from) * progress(for: phase)
    }

    /// A plain transform animation's transform at layer time `time`, or nil where it does not
    /// apply: what `value(at:underlying:)` gives, unwrapped.
    @inline(__always)
    func affineTransform(at time: Double) -> Transform3D? {
        guard isCommitted, let affine, let phase = timing.phase(at: time) else { return nil }
        return affine.transform(at: progress(for: phase))
    }

    /// The eased progress for a phase: the spring or the decay in seconds, else the timing function
    /// (`BasicAnimation.progress(for:)`).
    @inline(__always)
    private func progress(for phase: MediaTiming.Phase) -> Double {
        if let spring { return spring.fraction(at: phase.simpleTime) }
        if let decay { return decay.fraction(at: phase.simpleTime) }
        guard let curve else { return min(max(phase.fraction, 0), 1) }
        return curve(phase.fraction)
    }

    /// A transition's progress at layer time `time` (nil outside its interval).
    func transitionProgress(at time: Double) -> Double? {
        guard isCommitted, let transition, let phase = animation.timing.phase(at: time) else { return nil }
        let eased = (transition.timingFunction ?? .linear)(phase.fraction)
        return transition.startProgress + (transition.endProgress - transition.startProgress) * eased
    }

    /// A group's children's values at layer time `time`, in order (key path, value).
    func childValues(at time: Double, underlying: (String) -> AnimatableValue?) -> [(String, AnimatableValue)] {
        guard isCommitted, let phase = animation.timing.phase(at: time) else { return [] }
        var local = phase.simpleTime
        if let curve = groupTimingFunction, animation.timing.duration > 0 {
            local = curve(phase.fraction) * animation.timing.duration
        }
        return children.compactMap { child in
            let keyPath = child.animation.keyPath
            return child.value(at: local, underlying: { underlying(keyPath) }).map { (keyPath, $0) }
        }
    }

    init(key: String, isKeyed: Bool, animation: BasicAnimation, completion: ((Bool) -> Void)?) {
        self.key = key
        self.isKeyed = isKeyed
        self.animation = animation
        self.completion = completion
        takeEvaluation()
    }

    /// What runs when the animation ends or is removed, in order: transaction completion
    /// blocks that became due, then the animation's own completion (rule 35).
    func endCallbacks(finished: Bool) -> [() -> Void] {
        var callbacks = groups.compactMap { $0.animationEnded() }
        if let completion { callbacks.append { completion(finished) } }
        if let delegate = animation.delegate {
            let animation = self.animation
            callbacks.append { delegate.animationDidStop(animation, finished: finished) }
        }
        return callbacks
    }

    /// The animated value at layer time `time` over `underlying` (the value below it in the
    /// stack), or nil where the animation does not apply.
    func value(at time: Double, over underlying: AnimatableValue?) -> AnimatableValue? {
        value(at: time) { underlying }
    }

    /// A path keyframe animation's turn at layer time `time` (rule 26), or nil.
    func rotation(at time: Double) -> Double? {
        guard isCommitted, hasKeyframes, let keyframes = animation.keyframes, keyframes.rotationMode != nil,
              let phase = animation.timing.phase(at: time) else { return nil }
        return keyframes.rotation(at: animation.progress(for: phase))
    }

    /// The first and last values of one cycle (for cumulative animations).
    private func cycleEnds(current: AnimatableValue) -> (AnimatableValue, AnimatableValue) {
        guard let keyframes = animation.keyframes else { return ends ?? (current, current) }
        if keyframes.path != nil { return (keyframes.value(at: 0) ?? current, keyframes.value(at: 1) ?? current) }
        return (keyframes.values.first ?? current, keyframes.values.last ?? current)
    }

    /// The same, reading the underlying value only when the animation is additive.
    func value(at time: Double, underlying: () -> AnimatableValue?) -> AnimatableValue? {
        guard isCommitted, let phase = timing.phase(at: time) else { return nil }
        let progress = progress(for: phase)
        var value: AnimatableValue
        if !hasKeyframes {
            // The common case first, without copying the keyframes out.
            guard hasEnds else { return nil }
            if let affine {
                value = .transform(affine.transform(at: progress))
            } else {
                value = from.interpolated(to: to, by: progress)
            }
        } else {
            guard let v = animation.keyframes!.value(at: progress) else { return nil }
            value = v
        }
        if isCumulative && phase.iteration > 0 {
            // The cycle ends on its last value, or back on its first when it autoreverses (rule 17).
            let (first, last) = cycleEnds(current: value)
            let cycleEnd = timing.autoreverses ? first : last
            value = cycleEnd.repeated(phase.iteration).adding(value)
        }
        if let function = valueFunction {
            // The number becomes the whole transform, replacing the model's (rule 21).
            return function.transform(for: value).map { .transform($0) }
        }
        if isAdditive, let underlying = underlying() { return underlying.adding(value) }
        return value
    }
}

/// A layer's animations in add order (later non-additive animations win, rule 18).
struct AnimationList {
    var entries: [AnimationEntry] = []
    private var anonymousCount = 0

    mutating func anonymousKey() -> String {
        anonymousCount += 1
        return "\u{0}anonymous-\(anonymousCount)"
    }
}
