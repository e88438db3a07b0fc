import ArgumentParser
import FoundationEssentials
import Lamina
import LaminaTools
import LaminaAnimation
import LaminaBenchmarks
import LaminaGeometry
import LaminaRaster

/// `lamina curve`: a value over time for given motion parameters, printed and plotted, so a
/// designer can see an animation before running it. Every value comes from the engine.
struct CurveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "curve",
        abstract: "Print and plot a timing function, a spring or an animation over time.",
        subcommands: [TimingCurve.self, SpringCurve.self, BasicCurve.self])
}

/// Where the samples go and which times are sampled; shared by every curve kind.
struct CurveOutput: ParsableArguments {
    @Option(name: .long, help: "Exact sample times, comma-separated (e.g. 0,0.25,1).")
    var at: String?

    @Option(name: .long, help: "Evenly spaced samples when --at is not given.")
    var samples: Int = 21

    @Flag(name: .long, help: "Print JSON instead of text.")
    var json = false

    @Option(name: .long, help: "Also plot the curve into this PNG file.")
    var png: String?

    /// The times to sample: `--at`, else `samples` evenly over `range`.
    func times(over range: ClosedRange<Double>) throws -> [Double] {
        if let at {
            let parts = at.split(separator: ",")
            guard parts.count <= 100_000 else { throw ValidationError("--at: at most 100000 times") }
            return try parts.map { part in
                guard let t = Double(part.trimmed()), t.isFinite, abs(t) <= 1e9 else {
                    throw ValidationError("--at: '\(Escaped(part))' is not a time within ±1e9 s")
                }
                return t
            }
        }
        guard (2...100_000).contains(samples) else { throw ValidationError("--samples must be 2…100000") }
        return MotionCurves.evenly(from: range.lowerBound, to: range.upperBound, count: samples)
    }

    /// Prints the parameters and the samples at `times`, and writes the plot (drawn from 400
    /// samples over the same span, so it is smooth whatever was printed).
    func emit(kind: String, title: String, parameters: [(String, Double)], times: [Double],
              sampler: ([Double]) -> [CurveSample]) throws {
        let samples = sampler(times)
        if json {
            let object: [String: Any] = [
                "kind": kind,
                "parameters": Dictionary(uniqueKeysWithValues: parameters.map { ($0.0, $0.1) }),
                "samples": samples.map { ["t": $0.t, "value": $0.value] },
            ]
            let data = try JSONDocument.encode(object)
            print(String(decoding: data, as: UTF8.self))
        } else {
            print(title)
            for (name, value) in parameters { print("\(name) = \(value)") }
            print("t\tvalue")
            for s in samples { print("\(MotionCurves.format(s.t))\t\(s.value)") }
        }
        if let png {
            do {
                let dense = MotionCurves.evenly(from: times.min() ?? 0, to: times.max() ?? 1, count: 400)
                try RGBAImage(MotionCurves.plot(sampler(dense), title: title)).writePNG(to: png)
            } catch {
                throw ValidationError("--png: \(error)")
            }
        }
    }
}

/// Parses "x1,y1,x2,y2" into a cubic timing function.
func parseBezier(_ text: String, option: String) throws -> TimingFunction {
    let numbers = text.split(separator: ",").compactMap { Double($0.trimmed()) }
    guard numbers.count == 4, numbers.allSatisfy(\.isFinite) else {
        throw ValidationError("\(option) takes four numbers x1,y1,x2,y2")
    }
    guard (0...1).contains(numbers[0]), (0...1).contains(numbers[2]) else {
        throw ValidationError("\(option): x1 and x2 must lie in [0, 1]")
    }
    return TimingFunction(controlPoints: numbers[0], numbers[1], numbers[2], numbers[3])
}

/// Resolves `--name` or `--bezier` (nil when neither is given).
func timingFunction(name: String?, bezier: String?) throws -> TimingFunction? {
    if name != nil && bezier != nil { throw ValidationError("give --name or --bezier, not both") }
    if let name {
        guard let named = TimingFunction.named(name) else {
            throw ValidationError("no timing function '\(Escaped(name))' (linear, easeIn, easeOut, easeInEaseOut, default)")
        }
        return named
    }
    return try bezier.map { try parseBezier($0, option: "--bezier") }
}

struct TimingCurve: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "timing", abstract: "A timing function's eased value over input progress 0…1.")

    @Option(name: .long, help: "linear, easeIn, easeOut, easeInEaseOut or default.")
    var name: String?

    @Option(name: .long, help: "A custom curve: x1,y1,x2,y2.")
    var bezier: String?

    @OptionGroup var output: CurveOutput

    func run() throws {
        guard let function = try timingFunction(name: name, bezier: bezier) else {
            throw ValidationError("give --name or --bezier")
        }
        try output.emit(kind: "timing", title: "timing \(function)",
                        parameters: [("x1", function.x1), ("y1", function.y1), ("x2", function.x2), ("y2", function.y2)],
                        times: try output.times(over: 0...1)) { MotionCurves.timing(function, at: $0) }
    }
}

struct SpringCurve: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "spring",
        abstract: "A spring's progress over time, with its derived stiffness, damping and settlingDuration.",
        discussion: """
            Give the physical parameters (--mass --stiffness --damping, CASpringAnimation), or \
            --damping-ratio with --duration (UIKit's duration-fit spring), or \
            --perceptual-duration with --bounce. --velocity is the initial velocity in \
            distances per second.
            """)

    @Option var mass: Double?
    @Option var stiffness: Double?
    @Option var damping: Double?
    @Option var velocity: Double = 0
    @Option(name: .customLong("damping-ratio")) var dampingRatio: Double?
    @Option var duration: Double?
    @Option(name: .customLong("perceptual-duration")) var perceptualDuration: Double?
    @Option var bounce: Double?
    @OptionGroup var output: CurveOutput

    func spring() throws -> (Spring, String, end: Double) {
        guard velocity.isFinite, abs(velocity) <= 1e6 else { throw ValidationError("--velocity must be a number within ±1e6") }
        for (name, value, range) in [("mass", mass, 1e-6...1e9), ("stiffness", stiffness, 1e-6...1e9), ("damping", damping, 0...1e9),
                                     ("damping-ratio", dampingRatio, 1e-6...1e3), ("duration", duration, 1e-4...1e5),
                                     ("perceptual-duration", perceptualDuration, 1e-4...1e5)] {
            if let value, !range.contains(value) {
                throw ValidationError("--\(name) must lie in \(range.lowerBound)…\(range.upperBound)")
            }
        }
        let physical = mass != nil || stiffness != nil || damping != nil
        let fitted = dampingRatio != nil || duration != nil
        let perceptual = perceptualDuration != nil || bounce != nil
        guard [physical, fitted, perceptual].filter({ $0 }).count <= 1 else {
            throw ValidationError("give one of: --mass/--stiffness/--damping, --damping-ratio/--duration, --perceptual-duration/--bounce")
        }
        if fitted {
            guard let dampingRatio, let duration else { throw ValidationError("--damping-ratio needs --duration and the other way round") }
            guard duration > 0, duration.isFinite else { throw ValidationError("--duration must be positive") }
            guard dampingRatio > 0, dampingRatio.isFinite else { throw ValidationError("--damping-ratio must be positive") }
            let s = Spring(dampingRatio: dampingRatio, duration: duration, initialVelocity: velocity)
            return (s, "UIKit spring, damping ratio \(dampingRatio), duration \(duration) s", duration)
        }
        if perceptual {
            guard let perceptualDuration, perceptualDuration > 0, perceptualDuration.isFinite else {
                throw ValidationError("--perceptual-duration must be positive")
            }
            let b = bounce ?? 0
            guard b > -1, b < 1 else { throw ValidationError("--bounce must lie in (-1, 1)") }
            var s = Spring(perceptualDuration: perceptualDuration, bounce: b)
            s.initialVelocity = velocity
            return (s, "spring, perceptual duration \(perceptualDuration) s, bounce \(b)", s.settlingDuration)
        }
        let m = mass ?? 1, k = stiffness ?? 100, c = damping ?? 10
        guard m > 0, k > 0, c >= 0, m.isFinite, k.isFinite, c.isFinite else {
            throw ValidationError("--mass and --stiffness must be positive, --damping not negative")
        }
        let s = Spring(mass: m, stiffness: k, damping: c, initialVelocity: velocity)
        return (s, "spring, mass \(m), stiffness \(k), damping \(c)", s.settlingDuration)
    }

    func run() throws {
        let (spring, title, end) = try spring()
        try output.emit(kind: "spring", title: title, parameters: [
            ("mass", spring.mass), ("stiffness", spring.stiffness), ("damping", spring.damping),
            ("dampingRatio", spring.dampingRatio), ("initialVelocity", spring.initialVelocity),
            ("settlingDuration", spring.settlingDuration),
        ], times: try output.times(over: 0...max(end, 1e-3))) { MotionCurves.spring(spring, at: $0) }
    }
}

extension FillMode: ExpressibleByArgument {}

struct BasicCurve: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "basic",
        abstract: "What a layer shows over time under one basic animation, through a real layer tree.",
        discussion: """
            The animation drives a layer's position.x, whose model value is --model, and is \
            added and committed at time 0, so --begin 0 means "at commit" and any other \
            --begin is absolute (behaviour.md rule 5). Samples are taken frame by frame in the \
            order given, so removal on completion shows as the model value afterwards.
            """)

    @Option var from: Double?
    @Option var to: Double?
    @Option var by: Double?
    @Option(help: "The property's model value under the animation.") var model: Double = 0
    @Option var duration: Double = 0
    @Option(name: .customLong("begin")) var beginTime: Double = 0
    @Option var speed: Double = 1
    @Option(name: .customLong("time-offset")) var timeOffset: Double = 0
    @Option(name: .customLong("repeat-count")) var repeatCount: Double = 0
    @Option(name: .customLong("repeat-duration")) var repeatDuration: Double = 0
    @Flag var autoreverses = false
    @Option(name: .customLong("fill-mode"), help: "removed, forwards, backwards or both.") var fillMode: FillMode = .removed
    @Option(name: .customLong("removed-on-completion"), help: "true or false.") var removedOnCompletion: Bool = true
    @Option(name: .customLong("timing"), help: "A named timing function (default: linear).") var timingName: String?
    @Option var bezier: String?
    @Flag var additive = false
    @Flag var cumulative = false
    @OptionGroup var output: CurveOutput

    func run() throws {
        for (name, value) in [("duration", duration), ("begin", beginTime), ("speed", speed), ("time-offset", timeOffset),
                              ("repeat-duration", repeatDuration), ("model", model)] where !value.isFinite {
            throw ValidationError("--\(name) must be a finite number")
        }
        guard duration >= 0, repeatDuration >= 0, repeatCount >= 0 else {
            throw ValidationError("--duration, --repeat-count and --repeat-duration must not be negative")
        }
        for (name, value) in [("duration", duration), ("begin", beginTime), ("time-offset", timeOffset),
                              ("repeat-duration", repeatDuration), ("repeat-count", repeatCount), ("speed", speed)]
        where abs(value) > 1e6 {
            throw ValidationError("--\(name) must lie within ±1e6")
        }
        var animation = BasicAnimation(keyPath: "position.x", from: from.map { .scalar($0) }, to: to.map { .scalar($0) },
                                       by: by.map { .scalar($0) }, duration: duration)
        animation.timing.beginTime = beginTime
        animation.timing.speed = speed
        animation.timing.timeOffset = timeOffset
        animation.timing.repeatCount = repeatCount
        animation.timing.repeatDuration = repeatDuration
        animation.timing.autoreverses = autoreverses
        animation.timing.fillMode = fillMode
        animation.isRemovedOnCompletion = removedOnCompletion
        animation.isAdditive = additive
        animation.isCumulative = cumulative
        animation.timingFunction = try timingFunction(name: timingName, bezier: bezier)
        // The default range: from 0 past the end of the active interval (0.25 s when the
        // duration is left at 0, rule 5).
        var timing = animation.timing
        if timing.duration == 0 { timing.duration = 0.25 }
        let end = timing.speed == 0 || !timing.activeDuration.isFinite
            ? max(beginTime, 0) + 4 * timing.duration
            : max(beginTime, 0) + timing.activeDuration / abs(timing.speed)
        try output.emit(kind: "basic", title: "basic animation of position.x (model \(MotionCurves.format(model)))", parameters: [
            ("duration", timing.duration), ("beginTime", beginTime), ("speed", speed), ("timeOffset", timeOffset),
            ("repeatCount", repeatCount), ("repeatDuration", repeatDuration), ("activeDuration", timing.activeDuration),
        ], times: try output.times(over: 0...(end * 1.25))) { MotionCurves.basic(animation, model: model, at: $0) }
    }
}
