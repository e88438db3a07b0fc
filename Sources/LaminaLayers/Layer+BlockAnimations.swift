import Synchronization
import LaminaAnimation
import LaminaGeometry

/// `UIView.AnimationOptions`, with UIKit's raw bits (rule 13).
public struct AnimationOptions: OptionSet, Sendable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }

    /// Touches reach the animated layers while they animate.
    public static let allowUserInteraction = AnimationOptions(rawValue: 1 << 1)
    /// Starts from what is on screen instead of the model value.
    public static let beginFromCurrentState = AnimationOptions(rawValue: 1 << 2)
    /// Repeats forever.
    public static let `repeat` = AnimationOptions(rawValue: 1 << 3)
    /// Runs backward after each forward run (with `repeat`, back and forth).
    public static let autoreverse = AnimationOptions(rawValue: 1 << 4)
    /// Inside another block animation, uses this block's duration, not the outer one.
    public static let overrideInheritedDuration = AnimationOptions(rawValue: 1 << 5)
    /// Inside another block animation, uses this block's curve, not the outer one.
    public static let overrideInheritedCurve = AnimationOptions(rawValue: 1 << 6)
    /// Ease in and out (the default curve).
    public static let curveEaseInOut = AnimationOptions(rawValue: 0 << 16)
    /// Ease in.
    public static let curveEaseIn = AnimationOptions(rawValue: 1 << 16)
    /// Ease out.
    public static let curveEaseOut = AnimationOptions(rawValue: 2 << 16)
    /// Linear.
    public static let curveLinear = AnimationOptions(rawValue: 3 << 16)

    /// The named curve of bits 16–19 (rule 13).
    var curve: TimingFunction {
        switch (rawValue >> 16) & 0xF {
        case 1: return .easeIn
        case 2: return .easeOut
        case 3: return .linear
        default: return .easeInEaseOut
        }
    }
}

/// One `animate` call's completion: it waits for all of the call's layer animations, and
/// reports false if any was cut short or re-animated by a later call (rule 67).
final class BlockAnimationRecord {
    private let completion: ((Bool) -> Void)?
    var pending = 0
    var finished = true

    init(completion: ((Bool) -> Void)?) { self.completion = completion }

    func animationEnded(finished: Bool) {
        self.finished = self.finished && finished
        pending -= 1
        if pending == 0 { completion?(self.finished) }
    }
}

extension Layer {
    /// Geometric keys animate additively (rule 68, Lamina choice): a new animation adds its
    /// delta on top of one in flight, so nothing jumps.
    static let additiveBlockKeys: Set<String> = ["position", "bounds", "transform"]

    /// UIKit's block animation (`UIView.animate(withDuration:delay:options:animations:
    /// completion:)`, rules 67, 68): the model changes at once; each property the block
    /// changed animates from its prior value after `delay` (showing the prior value
    /// meanwhile), with the options' curve, repeat and autoreverse. `completion(finished)`
    /// runs from the frame loop once every animation of the call has ended; a property
    /// animated again by a later call makes it report false. With `duration ≤ 0` or nothing
    /// changed, the changes stand and the completion reports true on the next frame.
    public static func animate(withDuration duration: Double, delay: Double = 0, options: AnimationOptions = [],
                               animations: () -> Void, completion: ((Bool) -> Void)? = nil) {
        var changes: [(Layer, String, AnimatableValue?)] = []
        let stack = TransactionStack.current
        // A block inside another inherits its duration and curve unless told not to (rule 68).
        var duration = duration, options = options
        if let outer = stack.blockContexts.last {
            if !options.contains(.overrideInheritedDuration) { duration = outer.duration }
            if !options.contains(.overrideInheritedCurve) {
                options = AnimationOptions(rawValue: options.rawValue & ~(0xF << 16) | outer.options.rawValue & (0xF << 16))
            }
        }
        let previous = stack.recorder
        stack.recorder = { changes.append(($0, $1, $2)) }
        stack.blockContexts.append((duration, options))
        animations()
        stack.blockContexts.removeLast()
        stack.recorder = previous
        let record = BlockAnimationRecord(completion: completion)
        var seen: [(Layer, String)] = []
        for (layer, key, old) in changes where duration > 0 {
            guard let old, let new = layer.value(forKeyPath: key), layer.isCommittedInRenderedTree else { continue }
            // One animation per property: the first prior value, the final model value.
            if seen.contains(where: { $0.0 === layer && $0.1 == key }) { continue }
            seen.append((layer, key))
            let additive = additiveBlockKeys.contains(key)
            var animation: BasicAnimation
            let storeKey: String
            if additive {
                animation = BasicAnimation(keyPath: key, from: Self.delta(from: old, to: new), to: Self.zero(like: new),
                                           duration: duration)
                animation.isAdditive = true
                storeKey = "\u{0}block-\(key)-\(Self.nextBlockSerial())"
            } else {
                let start = options.contains(.beginFromCurrentState)
                    ? (layer.presentationLayer?.value(forKeyPath: key) ?? old) : old
                animation = BasicAnimation(keyPath: key, from: start, to: new, duration: duration)
                storeKey = key
            }
            animation.timingFunction = options.curve
            animation.timing.fillMode = .backwards
            if options.contains(.repeat) { animation.timing.repeatCount = .infinity }
            if options.contains(.autoreverse) { animation.timing.autoreverses = true }
            // A later call re-animating the property supersedes the earlier call's claim.
            layer.blockAnimationOwners[key]?.finished = false
            layer.blockAnimationOwners[key] = record
            record.pending += 1
            layer.add(animation, forKey: storeKey, beginDelay: max(delay, 0)) { [weak layer] finished in
                if let layer, layer.blockAnimationOwners[key] === record { layer.blockAnimationOwners[key] = nil }
                record.animationEnded(finished: finished)
            }
        }
        if record.pending == 0 {
            stack.due.append { completion?(true) }
        }
    }

    /// `old − new` as an additive start: the transform that takes `new` back to `old`.
    static func delta(from old: AnimatableValue, to new: AnimatableValue) -> AnimatableValue {
        if case .transform(let a) = old, case .transform(let b) = new { return .transform(a.concatenating(b.inverted())) }
        return old.subtracting(new)
    }

    /// The additive identity of `value`'s kind.
    static func zero(like value: AnimatableValue) -> AnimatableValue {
        switch value {
        case .transform: return .transform(.identity)
        default: return value.subtracting(value)
        }
    }

    /// Blocks run on any thread (an app's tests run in parallel): the count is atomic.
    private static let serial = Atomic<Int>(0)
    static func nextBlockSerial() -> Int {
        serial.add(1, ordering: .relaxed).newValue
    }
}
