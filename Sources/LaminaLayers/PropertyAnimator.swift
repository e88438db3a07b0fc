import Synchronization
import LaminaAnimation

/// An interruptible, scrubbable animation of layer properties (`UIViewPropertyAnimator`,
/// behaviour.md section M).
///
/// `addAnimations` runs a block that sets model properties; each change becomes a track
/// from the old value to the new one, and the model keeps the new value (as UIKit does).
/// The animator drives its tracks as ordinary layer animations it re-times on every state
/// change, so rendering, hit testing and presentation reads see them like any animation.
///
/// Engine code never reads a clock: state changes take effect at the tree's next commit,
/// where the fraction is measured at the commit time; `fractionComplete` reads the fraction
/// at the last presented frame.
public final class PropertyAnimator {
    /// `UIViewAnimatingState`.
    public enum State: Int, Sendable {
        /// Not started, or finished: the animations are gone.
        case inactive = 0
        /// Started (running or paused).
        case active = 1
        /// Stopped without finishing; `finishAnimation(at:)` ends it.
        case stopped = 2
    }
    /// `UIViewAnimatingPosition`.
    public enum Position: Int, Sendable {
        /// Where the animations end.
        case end = 0
        /// Where they started.
        case start = 1
        /// Where they are now.
        case current = 2
    }

    /// The curve of the animator: a cubic timing function or a spring.
    public enum Timing {
        /// A cubic timing function over the duration.
        case cubic(TimingFunction)
        /// A spring, which sets its own settling.
        case spring(Spring)
    }

    /// The duration in seconds (for a spring, the time the curve is scaled to).
    public let duration: Double
    /// Its curve.
    public private(set) var timing: Timing
    /// Inactive, active or stopped.
    public private(set) var state = State.inactive
    /// At the end, stay active and paused instead of finishing (default false, rule 72).
    public var pausesOnCompletion = false
    /// Default true; changing it while active traps (rule 72).
    public var isInterruptible = true {
        willSet { precondition(state == .inactive, "isInterruptible can only change while inactive") }
    }
    /// Default true: while paused, `fractionComplete` maps linearly to time (rule 72).
    public let scrubsLinearly = true

    private let tree: LayerTree
    private var tracks: [Track] = []
    private var completions: [(Position) -> Void] = []
    private let id: Int

    // The clock of the animation: the fraction at `anchorTime` (nil until the next commit
    // anchors it) and how fast it moves (fraction per second, signed by direction).
    private var anchorFraction = 0.0
    private var anchorTime: Double?
    private var rate = 0.0
    private var delay = 0.0
    private var isPaused = true
    private var needsRetiming = false
    /// The time of the tree's last commit or presented frame.
    private var lastTime: Double { tree.lastFrameTime }

    /// One property the animator moves.
    final class Track {
        let layer: Layer
        let keyPath: String
        let from: AnimatableValue
        let to: AnimatableValue
        /// Where in the animator's fraction the track starts (later `addAnimations`).
        let startFraction: Double
        init(layer: Layer, keyPath: String, from: AnimatableValue, to: AnimatableValue, startFraction: Double) {
            self.layer = layer
            self.keyPath = keyPath
            self.from = from
            self.to = to
            self.startFraction = startFraction
        }
    }

    /// An animator of `duration` seconds over `curve` (UIKit's default: ease in-out), for
    /// layers of `tree`.
    public init(duration: Double, curve: TimingFunction = .easeInEaseOut, tree: LayerTree) {
        self.duration = max(duration, 0)
        timing = .cubic(curve)
        self.tree = tree
        id = PropertyAnimator.nextID()
    }

    /// UIKit's `(duration:dampingRatio:)`: a duration-fit spring (rule 31).
    public convenience init(duration: Double, dampingRatio: Double, tree: LayerTree) {
        self.init(duration: duration, tree: tree)
        timing = .spring(Spring(dampingRatio: dampingRatio, duration: max(duration, 1e-6)))
    }

    /// Replaces the curve (initialisers only).
    func setTiming(_ newTiming: Timing) { timing = newTiming }

    /// Animators are made on any thread (an app's tests run in parallel): the count is atomic.
    private static let counter = Atomic<Int>(0)
    private static func nextID() -> Int {
        counter.add(1, ordering: .relaxed).newValue
    }

    // MARK: Flags

    /// Active and not paused.
    public var isRunning: Bool { state == .active && !isPaused }

    /// Runs back toward the start (from the current fraction); the completion position
    /// becomes `.start` (rule 73).
    public var isReversed = false {
        didSet {
            guard isReversed != oldValue, state == .active else { return }
            reanchor()
        }
    }

    /// 0 → 1 over the animation, measured from the original start (it decreases while
    /// reversed). Assigning it while inactive or paused moves the layers (and makes an
    /// inactive animator active and paused); while running it is ignored (rule 73).
    public var fractionComplete: Double {
        get { fraction(at: lastTime) }
        set {
            precondition(state != .stopped, "a stopped animator can only be finished")
            guard !isRunning else { return }
            if state == .inactive { activate() }
            isPaused = true
            anchorFraction = min(max(newValue, 0), 1)
            anchorTime = lastTime
            retime()
        }
    }

    // MARK: Animations and completions

    /// Runs `animations`, turning every model property it sets into a track. While running,
    /// new tracks start at once (after `delayFactor` × the remaining time) and end with the
    /// animator; on an inactive animator they run from the start (rule 75).
    public func addAnimations(delayFactor: Double = 0, _ animations: () -> Void) {
        precondition(state != .stopped, "a stopped animator can only be finished")
        let now = state == .inactive ? 0 : fraction(at: lastTime)
        let start = now + (1 - now) * min(max(delayFactor, 0), 1)
        var recorded: [(Layer, String, AnimatableValue?)] = []
        let stack = TransactionStack.current
        let previous = stack.recorder
        stack.recorder = { recorded.append(($0, $1, $2)) }
        animations()
        stack.recorder = previous
        for (layer, keyPath, old) in recorded {
            guard var from = old, let to = layer.value(forKeyPath: keyPath) else { continue }
            let startFraction = state == .inactive ? 0 : start
            // The same property changed again before starting: one track, first value to last.
            if let i = tracks.firstIndex(where: { $0.layer === layer && $0.keyPath == keyPath && $0.startFraction == startFraction }) {
                from = tracks[i].from
                tracks.remove(at: i)
            }
            tracks.append(Track(layer: layer, keyPath: keyPath, from: from, to: to, startFraction: startFraction))
        }
        if state == .active { retime() }
    }

    /// Runs `completion` with the final position at natural finish or at
    /// `finishAnimation(at:)`, after the ones added before it (rule 75).
    public func addCompletion(_ completion: @escaping (Position) -> Void) {
        completions.append(completion)
    }

    // MARK: State machine (rule 71)

    /// Starts (or resumes) the animation at the next frame.
    public func startAnimation() { startAnimation(afterDelay: 0) }

    /// Starts after `delay` seconds, showing the start values meanwhile.
    public func startAnimation(afterDelay delay: Double) {
        precondition(state != .stopped, "startAnimation on a stopped animator")
        if state == .inactive { activate() }
        self.delay = max(delay, 0)
        isPaused = false
        rate = 1 / max(duration, 1e-9)
        reanchor()
    }

    /// Pauses where the animation is (starting it paused when inactive).
    public func pauseAnimation() {
        precondition(state != .stopped, "pauseAnimation on a stopped animator")
        if state == .inactive { activate() }
        anchorFraction = fraction(at: lastTime)
        anchorTime = lastTime
        isPaused = true
        retime()
    }

    /// Resumes a paused animator; the remaining fraction runs over `durationFactor` × the
    /// duration (0 keeps the remaining time, Lamina choice), with a new curve if given
    /// (rule 74).
    public func continueAnimation(timing newTiming: Timing? = nil, durationFactor: Double = 0) {
        precondition(state == .active, "continueAnimation needs an active animator")
        if let newTiming { timing = newTiming }
        let f = fraction(at: lastTime)
        let remaining = isReversed ? f : 1 - f
        let seconds = durationFactor > 0 ? durationFactor * duration : remaining * duration
        rate = seconds > 0 ? remaining / seconds : 1 / max(duration, 1e-9)
        isPaused = false
        anchorFraction = f
        anchorTime = nil
        needsRetiming = true
        tree.setNeedsCommit()
    }

    /// `stopAnimation(true)`: the layers keep what they show, no completion runs, and the
    /// animator becomes inactive. `false`: it becomes stopped, waiting for
    /// `finishAnimation(at:)`.
    public func stopAnimation(withoutFinishing: Bool) {
        guard state == .active else { return }
        freezeModelAtPresentation()
        removeTrackAnimations()
        if withoutFinishing {
            deactivate()
            completions.removeAll()
        } else {
            state = .stopped
        }
    }

    /// Ends a stopped animator: the model goes to the end or start values, or keeps the
    /// current ones; completions run with `position` (rule 71).
    public func finishAnimation(at position: Position) {
        precondition(state == .stopped, "finishAnimation needs a stopped animator")
        setModel(to: position)
        deactivate()
        deliverCompletions(position)
    }

    // MARK: The frame loop's side

    /// At the tree's commit: anchors pending state changes at `time` and re-times the tracks.
    func prepare(at time: Double) {
        guard state == .active, needsRetiming else { return }
        if anchorTime == nil { anchorTime = time + (isPaused ? 0 : delay) }
        delay = 0
        needsRetiming = false
        applyTracks(at: time)
    }

    /// After a presentation update at `time`: notices the natural end.
    func update(at time: Double, callbacks: inout [() -> Void]) {
        guard isRunning, let anchorTime, time >= anchorTime else { return }
        let f = fraction(at: time)
        let done = isReversed ? f <= 0 : f >= 1
        guard done else { return }
        if pausesOnCompletion {
            anchorFraction = isReversed ? 0 : 1
            self.anchorTime = time
            isPaused = true
            retime()
            return
        }
        let position: Position = isReversed ? .start : .end
        setModel(to: position)
        removeTrackAnimations()
        deactivate()
        let blocks = completions
        completions.removeAll()
        callbacks.append { for block in blocks { block(position) } }
    }

    // MARK: Internals

    /// The fraction at media time `t`.
    private func fraction(at t: Double) -> Double {
        guard isRunning, let anchorTime else { return anchorFraction }
        let moved = max(t - anchorTime, 0) * rate * (isReversed ? -1 : 1)
        return min(max(anchorFraction + moved, 0), 1)
    }

    private func activate() {
        state = .active
        tree.register(self)
    }

    private func deactivate() {
        state = .inactive
        isPaused = true
        anchorFraction = 0
        anchorTime = nil
        tracks.removeAll()
        tree.unregister(self)
    }

    /// Re-anchors at the current fraction and re-times at the next commit.
    private func reanchor() {
        anchorFraction = fraction(at: lastTime)
        anchorTime = nil
        retime()
    }

    private func retime() {
        needsRetiming = true
        if anchorTime == nil && isPaused { anchorTime = lastTime }
        tree.setNeedsCommit()
    }

    private func key(for track: Track) -> String { "\u{0}animator-\(id)-\(track.keyPath)" }

    /// Each track as a layer animation whose local time is the animator's fraction × its
    /// length: frozen (speed 0) while paused, moving at the animator's rate while running,
    /// ending exactly when the animator reaches its end.
    private func applyTracks(at time: Double) {
        let f = anchorFraction
        Transaction.begin()
        Transaction.disableActions = true
        for track in tracks {
            let s = track.startFraction
            let length = duration * (1 - s)
            var a = BasicAnimation(keyPath: track.keyPath, from: track.from, to: track.to, duration: max(length, 1e-9))
            switch timing {
            case .cubic(let curve): a.timingFunction = curve
            case .spring(let spring):
                a.spring = spring
            }
            a.timing.fillMode = .both
            a.isRemovedOnCompletion = false
            let local = min(max((f - s) * duration, 0), length)
            a.timing.timeOffset = local
            let start = track.layer.convertTime(anchorTime ?? time, from: nil)
            if isPaused {
                a.timing.speed = 0
                // A frozen local time of a whole cycle would wrap to the start (rule 7):
                // paused at its end, the track holds its end value instead.
                if local >= length { a.fromValue = track.to }
            } else {
                let speed = rate * duration * (isReversed ? -1 : 1)
                a.timing.speed = speed
                a.timing.beginTime = start
                let remaining = isReversed ? local : length - local
                if f < s && !isReversed {
                    // Not started yet: wait until the animator reaches the track's start.
                    a.timing.beginTime = start + (s - f) / rate
                    a.timing.timeOffset = 0
                    a.timing.repeatDuration = max(length, 1e-9)
                } else {
                    a.timing.repeatDuration = max(remaining, 1e-9)
                }
            }
            track.layer.add(a, forKey: key(for: track))
        }
        Transaction.commit()
    }

    private func removeTrackAnimations() {
        for track in tracks { track.layer.removeAnimation(forKey: key(for: track)) }
    }

    /// Model values: the tracks' end or start values, or what they show now.
    private func setModel(to position: Position) {
        Transaction.begin()
        Transaction.disableActions = true
        for track in tracks {
            switch position {
            case .end: track.layer.setValue(track.to, forKeyPath: track.keyPath)
            case .start: track.layer.setValue(track.from, forKeyPath: track.keyPath)
            case .current: break
            }
        }
        Transaction.commit()
    }

    private func freezeModelAtPresentation() {
        Transaction.begin()
        Transaction.disableActions = true
        for track in tracks {
            if let shown = track.layer.presentationValue(forKeyPath: track.keyPath, at: lastTime) {
                track.layer.setValue(shown, forKeyPath: track.keyPath)
            }
        }
        Transaction.commit()
    }

    private func deliverCompletions(_ position: Position) {
        let blocks = completions
        completions.removeAll()
        tree.enqueue { for block in blocks { block(position) } }
    }
}

/// `UISpringTimingParameters` (rule 32): a damping ratio with an initial velocity, or a
/// physical spring.
public struct SpringTimingParameters {
    /// Used when `physical` is nil; 4.56 by default, as UIKit's plain initialiser.
    public var dampingRatio = 4.56
    /// In animation distances per second, per axis; properties other than position use dx.
    public var initialVelocity = (dx: 0.0, dy: 0.0)
    /// A physical spring (mass, stiffness, damping): the animator then runs for its
    /// `settlingDuration`, whatever duration it was given.
    public var physical: Spring?

    /// A critically damped spring from rest (`UISpringTimingParameters()`).
    public init() {}

    /// A spring by its damping ratio (1 settles without overshoot), starting with `initialVelocity`.
    public init(dampingRatio: Double, initialVelocity: (dx: Double, dy: Double) = (0, 0)) {
        self.dampingRatio = dampingRatio
        self.initialVelocity = initialVelocity
    }

    /// A spring by its physical parameters, starting with `initialVelocity`.
    public init(mass: Double, stiffness: Double, damping: Double, initialVelocity: (dx: Double, dy: Double) = (0, 0)) {
        physical = Spring(mass: mass, stiffness: stiffness, damping: damping, initialVelocity: initialVelocity.dx)
        self.initialVelocity = initialVelocity
    }

    /// `initialSpringVelocity` from a finger: its speed over the distance still to travel
    /// (1 = the whole distance per second, rule 32).
    public static func velocity(fingerSpeed: Double, distance: Double) -> Double {
        distance == 0 ? 0 : fingerSpeed / distance
    }
}

extension PropertyAnimator {
    /// `UIViewPropertyAnimator(duration:timingParameters:)`: a physical spring ignores
    /// `duration` and runs for its settling duration (rule 32).
    public convenience init(duration: Double, timingParameters: SpringTimingParameters, tree: LayerTree) {
        if let spring = timingParameters.physical {
            self.init(duration: spring.settlingDuration, tree: tree)
            setTiming(.spring(spring))
        } else {
            self.init(duration: duration, tree: tree)
            setTiming(.spring(Spring(dampingRatio: timingParameters.dampingRatio, duration: max(duration, 1e-6),
                                     initialVelocity: timingParameters.initialVelocity.dx)))
        }
    }
}
