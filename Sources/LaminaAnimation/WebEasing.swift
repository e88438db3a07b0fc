import FoundationEssentials

/// Where a `steps()` easing jumps (CSS Easing 1).
public enum StepPosition: String, Hashable, Sendable {
    /// The first jump at the start.
    case jumpStart = "jump-start"
    /// The last jump at the end.
    case jumpEnd = "jump-end"
    /// No jump at either end.
    case jumpNone = "jump-none"
    /// Jumps at both ends.
    case jumpBoth = "jump-both"
}

/// CSS / Web Animations easing functions (behaviour.md rules 89–91), for motion ported from
/// the web and for the WPT fixtures. Unlike `TimingFunction` (Core Animation clamps its
/// input to [0, 1]) these take any input progress: the cubic continues along its end
/// tangents, steps count past the ends, `linear()` extrapolates its end segments.
public enum WebEasing: Sendable {
    /// `cubic-bezier(x1, y1, x2, y2)`.
    case cubicBezier(Double, Double, Double, Double)
    /// `steps(n, position)`.
    case steps(Int, StepPosition)
    /// `linear()` stops: output and optional input, as written (rule 91).
    case linear([(output: Double, input: Double?)])

    /// `step-start` = `steps(1, start)`, `step-end` = `steps(1, end)`.
    public static let stepStart = WebEasing.steps(1, .jumpStart)
    /// `step-end`: one jump at the end.
    public static let stepEnd = WebEasing.steps(1, .jumpEnd)

    /// A CSS keyword or `steps(n[, position])` (for fixtures); nil when unknown.
    public init?(css: String) {
        let text = css.trimmed()
        switch text {
        case "step-start": self = .stepStart
        case "step-end": self = .stepEnd
        case "linear": self = .cubicBezier(0, 0, 1, 1)
        case "ease": self = .cubicBezier(0.25, 0.1, 0.25, 1)
        case "ease-in": self = .cubicBezier(0.42, 0, 1, 1)
        case "ease-out": self = .cubicBezier(0, 0, 0.58, 1)
        case "ease-in-out": self = .cubicBezier(0.42, 0, 0.58, 1)
        default:
            guard text.hasPrefix("steps("), text.hasSuffix(")") else { return nil }
            let arguments = text.dropFirst(6).dropLast().split(separator: ",").map { $0.trimmed() }
            guard let first = arguments.first, let n = Int(first), n > 0 else { return nil }
            let position: StepPosition
            switch arguments.count > 1 ? arguments[1] : "end" {
            case "start", "jump-start": position = .jumpStart
            case "end", "jump-end": position = .jumpEnd
            case "jump-none": position = .jumpNone
            case "jump-both": position = .jumpBoth
            default: return nil
            }
            if position == .jumpNone && n < 2 { return nil }
            self = .steps(n, position)
        }
    }

    /// The eased value at input progress `p`; `before` is Web Animations' before flag (it
    /// moves a step landing exactly on `p` back by one).
    public func callAsFunction(_ p: Double, before: Bool = false) -> Double {
        switch self {
        case let .cubicBezier(x1, y1, x2, y2): return Self.cubic(x1, y1, x2, y2, p)
        case let .steps(n, position): return Self.steps(n, position, p, before: before)
        case .linear(let stops): return Self.linear(stops, p)
        }
    }

    /// Inside [0, 1] Core Animation's solver; outside, the end tangent (rule 89, as WPT: the
    /// far control point only when the near one coincides with the end point, else flat).
    static func cubic(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, _ p: Double) -> Double {
        if p < 0 {
            let slope = x1 > 0 ? y1 / x1 : (y1 == 0 && x2 > 0 ? y2 / x2 : 0)
            return slope * p
        }
        if p > 1 {
            let slope = x2 < 1 ? (y2 - 1) / (x2 - 1) : (y2 == 1 && x1 < 1 ? (y1 - 1) / (x1 - 1) : 0)
            return 1 + slope * (p - 1)
        }
        return TimingFunction(controlPoints: x1, y1, x2, y2)(p)
    }

    /// Rule 90.
    static func steps(_ n: Int, _ position: StepPosition, _ p: Double, before: Bool) -> Double {
        let scaled = p * Double(n)
        var step = scaled.rounded(.down)
        if position == .jumpStart || position == .jumpBoth { step += 1 }
        if before && scaled == scaled.rounded(.down) { step -= 1 }
        if p >= 0 && step < 0 { step = 0 }
        let jumps: Double
        switch position {
        case .jumpStart, .jumpEnd: jumps = Double(n)
        case .jumpNone: jumps = Double(n - 1)
        case .jumpBoth: jumps = Double(n + 1)
        }
        if p <= 1 && step > jumps { step = jumps }
        return step / jumps
    }

    /// The stops with every input filled in (rule 91): a missing first input is 0, a missing
    /// last one the largest input so far (at least 1); no input is below an earlier one;
    /// runs of missing inputs are spread evenly between their known neighbours.
    static func normalized(_ stops: [(output: Double, input: Double?)]) -> [(output: Double, input: Double)] {
        guard !stops.isEmpty else { return [] }
        var inputs = stops.map(\.input)
        if inputs[0] == nil { inputs[0] = 0 }
        var largest = -Double.infinity
        for i in inputs.indices {
            if let v = inputs[i] {
                largest = max(largest, v)
                inputs[i] = largest
            }
        }
        if inputs[inputs.count - 1] == nil { inputs[inputs.count - 1] = max(1, largest) }
        var i = 0
        while i < inputs.count {
            if inputs[i] == nil {
                let start = i - 1
                var end = i
                while inputs[end] == nil { end += 1 }
                let a = inputs[start]!, b = inputs[end]!
                for k in (start + 1)..<end {
                    inputs[k] = a + (b - a) * Double(k - start) / Double(end - start)
                }
                i = end
            }
            i += 1
        }
        return zip(stops, inputs).map { ($0.output, $1!) }
    }

    /// Rule 91.
    static func linear(_ stops: [(output: Double, input: Double?)], _ p: Double) -> Double {
        let points = normalized(stops)
        guard points.count >= 2 else { return points.first?.output ?? p }
        // The last stop with input ≤ p starts the segment; the end segments extrapolate.
        var i = 0
        for k in points.indices where points[k].input <= p { i = k }
        i = min(i, points.count - 2)
        let a = points[i], b = points[i + 1]
        if p >= b.input && b.input == a.input { return b.output }
        guard b.input != a.input else { return b.output }
        return a.output + (b.output - a.output) * (p - a.input) / (b.input - a.input)
    }
}
