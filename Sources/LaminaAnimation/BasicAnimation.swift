import LaminaGeometry

/// A property animation from one value to another (`CABasicAnimation`), optionally timed
/// by a spring (`CASpringAnimation`).
///
/// A value type: adding it to a layer stores a frozen copy (rule 5). `fromValue`,
/// `toValue` and `byValue` combine as rule 15 says; the layer resolves the missing ends
/// against the property's current (presentation) value when the animation is committed.
public struct BasicAnimation {
    /// The property animated, such as `"position"` or `"opacity"`.
    public var keyPath: String
    /// The value at the start; nil takes what is on screen (rule 15).
    public var fromValue: AnimatableValue?
    /// The value at the end; nil takes the model value or `fromValue` + `byValue` (rule 15).
    public var toValue: AnimatableValue?
    /// A change to add, used where `fromValue` or `toValue` is nil (rule 15).
    public var byValue: AnimatableValue?
    /// When and how long it runs, repeats and fills (`CAMediaTiming`).
    public var timing = MediaTiming()
    /// Easing of the simple-duration fraction; nil is linear (rule 13). Ignored by springs.
    public var timingFunction: TimingFunction?
    /// When set, progress follows the spring in real seconds instead of the timing function.
    public var spring: Spring?
    /// When set (and `spring` is not), progress follows the decay in real seconds:
    /// `1 − rate^(1000t)` of the way from the start to the projected end (rule 93).
    public var decay: Decay?
    /// When set, this is a keyframe animation (`CAKeyframeAnimation`): the values come from
    /// the keyframes at the eased progress, and from/to/by are not used (rules 22–25).
    public var keyframes: Keyframes?
    /// Removed from its layer when it ends (true by default); false keeps it with its fill mode.
    public var isRemovedOnCompletion = true
    /// Told when the animation starts and stops (rule 35). A strong reference, as in Core
    /// Animation: layer → animation → delegate lasts until the animation is removed.
    public var delegate: (any AnimationDelegate)?
    /// The animated value is added to the underlying value (rule 16).
    public var isAdditive = false
    /// Each repetition builds on the end of the last: in iteration k the value is
    /// `k · (cycle's end value) + v(u)` (rule 17).
    public var isCumulative = false
    /// Turns the animated number into the whole `transform` (rule 21); the key path is then
    /// `transform`.
    public var valueFunction: ValueFunction?

    /// An animation of `keyPath` (0 duration takes the transaction's, 0.25 s by default).
    public init(keyPath: String, from: AnimatableValue? = nil, to: AnimatableValue? = nil,
                by: AnimatableValue? = nil, duration: Double = 0) {
        self.keyPath = keyPath
        fromValue = from
        toValue = to
        byValue = by
        timing.duration = duration
    }

    /// A keyframe animation (`CAKeyframeAnimation`): the same timing, removal, additive and
    /// cumulative behaviour as a basic animation, its values from `keyframes`. The
    /// animation's own `timingFunction` maps overall time first, then the segment is found
    /// (rule 23, Lamina choice).
    public init(keyPath: String, keyframes: Keyframes, duration: Double = 0) {
        self.init(keyPath: keyPath, duration: duration)
        self.keyframes = keyframes
    }

    /// A spring animation (`CASpringAnimation`) with `spring`'s parameters, lasting
    /// `duration`, or without one the spring's `settlingDuration` (rule 29's idiom), so a
    /// spring made with a duration (`Spring(dampingRatio:duration:)`) is not given it twice.
    public init(keyPath: String, from: AnimatableValue? = nil, to: AnimatableValue? = nil,
                spring: Spring, duration: Double? = nil) {
        self.init(keyPath: keyPath, from: from, to: to, duration: duration ?? spring.settlingDuration)
        self.spring = spring
    }

    /// A decay animation (rule 93): `keyPath` moving at `velocity` (units per second: a point
    /// per second for a position) from `from` (nil: what is on screen), slowing by `decay`'s
    /// rate every millisecond, toward `velocity · (−1 / (1000·ln rate))` further on (its
    /// `byValue`). It lasts until less than `restDistance` of that is left in every component;
    /// set the model to the projected end, as with any animation, for it to stay there.
    public init(keyPath: String, from: AnimatableValue? = nil, velocity: AnimatableValue, decay: Decay = Decay(),
                restDistance: Double = Decay.defaultRestDistance) {
        let projection = velocity.repeated(-1 / decay.exponent)
        self.init(keyPath: keyPath, from: from, by: projection,
                  duration: decay.duration(projectedDistance: projection.largestComponent, restDistance: restDistance))
        self.decay = decay
    }

    /// The ends (from, to) given the property's value before the animation (rule 15).
    public func resolvedEnds(current: AnimatableValue) -> (from: AnimatableValue, to: AnimatableValue) {
        resolvedEnds(presentation: current, model: current)
    }

    /// The ends (from, to) when the property shows `presentation` and holds `model`: a
    /// missing start is the shown value, a missing end the model value (rule 15; with neither
    /// given, from the previous value to the current one).
    public func resolvedEnds(presentation: AnimatableValue, model: AnimatableValue) -> (from: AnimatableValue, to: AnimatableValue) {
        switch (fromValue, toValue, byValue) {
        case (let f?, let t?, _): return (f, t)
        case (let f?, nil, let b?): return (f, f.adding(b))
        case (nil, let t?, let b?): return (t.subtracting(b), t)
        case (let f?, nil, nil): return (f, model)
        case (nil, let t?, nil): return (presentation, t)
        case (nil, nil, let b?): return (presentation, presentation.adding(b))
        case (nil, nil, nil): return (presentation, model)
        }
    }

    /// The eased progress for a phase: the spring or the decay in seconds, else the timing
    /// function.
    public func progress(for phase: MediaTiming.Phase) -> Double {
        if let spring { return spring.fraction(at: phase.simpleTime) }
        if let decay { return decay.fraction(at: phase.simpleTime) }
        return (timingFunction ?? .linear)(phase.fraction)
    }
}

/// Hears an animation start and stop (`CAAnimationDelegate`). Both arrive from the frame
/// loop after the call that caused them has returned (rule 35, Lamina choice).
public protocol AnimationDelegate: AnyObject {
    /// The animation was committed and has begun (its begin time may still lie ahead).
    func animationDidStart(_ animation: BasicAnimation)
    /// The animation ended (`finished` true) or was removed or replaced (false).
    func animationDidStop(_ animation: BasicAnimation, finished: Bool)
}

extension AnimationDelegate {
    public func animationDidStart(_ animation: BasicAnimation) {}
    public func animationDidStop(_ animation: BasicAnimation, finished: Bool) {}
}

/// Several property animations run together (`CAAnimationGroup`, rule 33): the children run
/// in the group's local time (a child's `beginTime` is relative to the group's start), a
/// child with `duration 0` takes the group's duration, and children show only while the
/// group is active or filling. The children's delegates and `isRemovedOnCompletion` are
/// ignored; the group's own apply.
public struct AnimationGroup {
    /// The animations run together, their times relative to the group's.
    public var animations: [BasicAnimation]
    /// The group's own timing; children are cut off at its duration.
    public var timing = MediaTiming()
    /// Warps the group's local time for its children; nil is linear.
    public var timingFunction: TimingFunction?
    /// Removed from its layer when it ends (true by default).
    public var isRemovedOnCompletion = true
    /// Told when the group starts and stops.
    public var delegate: (any AnimationDelegate)?

    /// A group of `animations` lasting `duration` (0: the transaction's).
    public init(animations: [BasicAnimation], duration: Double = 0) {
        self.animations = animations
        timing.duration = duration
    }
}

/// A transition between a layer's look before and after a change (`CATransition`,
/// rule 34): the old picture and the new one, composited over the transition's timing.
public struct Transition {
    /// How the new picture replaces the old.
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        /// Cross-fade (the default).
        case fade
        /// The new picture pushes the old one out.
        case push
        /// The new picture slides in over the old one.
        case moveIn
        /// The old picture slides out, uncovering the new one.
        case reveal
    }

    /// Where the movement comes from (y grows down: `fromTop` enters from above).
    public enum Subtype: String, Hashable, Sendable, CaseIterable {
        /// From the right edge.
        case fromRight
        /// From the left edge.
        case fromLeft
        /// From the top edge.
        case fromTop
        /// From the bottom edge.
        case fromBottom
    }

    /// How the pictures change over (fade by default).
    public var kind = Kind.fade
    /// Nil moves like `fromLeft`, as Core Animation does for the moving kinds.
    public var subtype: Subtype?
    /// When and how long the transition runs.
    public var timing = MediaTiming()
    /// The pace of the transition; nil is linear.
    public var timingFunction: TimingFunction?
    /// The part of the transition shown: progress runs from `startProgress` to `endProgress`.
    public var startProgress = 0.0
    /// How far the transition goes, 0…1 (1 by default).
    public var endProgress = 1.0
    /// Told when the transition starts and stops.
    public var delegate: (any AnimationDelegate)?

    /// A transition of `kind`, coming from `subtype` where it moves, lasting `duration` (0: the transaction's).
    public init(kind: Kind = .fade, subtype: Subtype? = nil, duration: Double = 0) {
        self.kind = kind
        self.subtype = subtype
        timing.duration = duration
    }

    /// The offsets (in units of the layer's size) of the old and new pictures at progress `p`.
    public func offsets(at p: Double) -> (old: (x: Double, y: Double), new: (x: Double, y: Double)) {
        let direction: (x: Double, y: Double)
        switch subtype ?? .fromLeft {
        case .fromRight: direction = (1, 0)
        case .fromLeft: direction = (-1, 0)
        case .fromTop: direction = (0, -1)
        case .fromBottom: direction = (0, 1)
        }
        let incoming = (direction.x * (1 - p), direction.y * (1 - p))
        let outgoing = (-direction.x * p, -direction.y * p)
        switch kind {
        case .fade: return ((0, 0), (0, 0))
        case .push: return (outgoing, incoming)
        case .moveIn: return ((0, 0), incoming)
        case .reveal: return (outgoing, (0, 0))
        }
    }
}

/// Turns an animated number into a whole transform (`CAValueFunction`, rule 21). The result
/// replaces the model transform while the animation runs (the model's own scale, rotation
/// and translation are ignored).
public enum ValueFunction: String, Hashable, Sendable, CaseIterable {
    /// A rotation about x by the value (radians).
    case rotateX
    /// A rotation about y by the value (radians).
    case rotateY
    /// A rotation about z by the value (radians).
    case rotateZ
    /// A uniform scale by the value.
    case scale
    /// A scale along x by the value.
    case scaleX
    /// A scale along y by the value.
    case scaleY
    /// A scale along z by the value.
    case scaleZ
    /// A translation by the value along x and y.
    case translate
    /// A translation along x by the value.
    case translateX
    /// A translation along y by the value.
    case translateY
    /// A translation along z by the value.
    case translateZ

    /// The transform for `value`: a scalar (an angle, a factor, a distance), or for `scale`
    /// and `translate` a point or size for x and y (a scalar scales uniformly).
    public func transform(for value: AnimatableValue) -> Transform3D? {
        let v: Double, x: Double, y: Double
        switch value {
        case .scalar(let s): v = s; x = s; y = s
        case .point(let p): v = p.x; x = p.x; y = p.y
        case .size(let s): v = s.width; x = s.width; y = s.height
        default: return nil
        }
        switch self {
        case .rotateX: return Transform3D(rotationAngle: v, x: 1, y: 0, z: 0)
        case .rotateY: return Transform3D(rotationAngle: v, x: 0, y: 1, z: 0)
        case .rotateZ: return Transform3D(rotationAngle: v, x: 0, y: 0, z: 1)
        case .scale:
            if case .scalar = value { return Transform3D(scaleX: v, y: v, z: v) }
            return Transform3D(scaleX: x, y: y, z: 1)
        case .scaleX: return Transform3D(scaleX: v, y: 1, z: 1)
        case .scaleY: return Transform3D(scaleX: 1, y: v, z: 1)
        case .scaleZ: return Transform3D(scaleX: 1, y: 1, z: v)
        case .translate:
            if case .scalar = value { return Transform3D(translationX: v, y: v, z: 0) }
            return Transform3D(translationX: x, y: y, z: 0)
        case .translateX: return Transform3D(translationX: v, y: 0, z: 0)
        case .translateY: return Transform3D(translationX: 0, y: v, z: 0)
        case .translateZ: return Transform3D(translationX: 0, y: 0, z: v)
        }
    }
}
