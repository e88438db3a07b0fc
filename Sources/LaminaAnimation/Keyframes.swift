import LaminaGeometry

/// How a keyframe animation moves between its values (`CAAnimationCalculationMode`, rule 24).
public enum CalculationMode: String, Hashable, Sendable, CaseIterable {
    /// Straight between the values, on the key times.
    case linear
    /// Each value held until the next key time.
    case discrete
    /// Straight between the values at constant speed (key times ignored).
    case paced
    /// A Catmull-Rom spline through the values, on the key times.
    case cubic
    /// A Catmull-Rom spline at constant speed (key times ignored).
    case cubicPaced
}

/// The values of a keyframe animation (`CAKeyframeAnimation`, rules 22–25) and where in the
/// animation's progress each one sits.
public struct Keyframes: Sendable {
    /// The values passed through, in order.
    public var values: [AnimatableValue]
    /// Progress (0…1) of each value; nil spreads them evenly. Only the prefix shared with
    /// `values` is used (rule 23).
    public var keyTimes: [Double]?
    /// Easing of each segment's local fraction (n − 1 of them).
    public var timingFunctions: [TimingFunction]?
    /// How the values are joined (linear by default).
    public var calculationMode: CalculationMode = .linear
    /// When set, the values come from this path instead of `values` (rule 26).
    public var path: KeyframePath?
    /// With a path: turn the layer along its tangent.
    public var rotationMode: RotationMode?

    /// Keyframes through `values`, at `keyTimes` (evenly spread when nil), each segment paced by its timing function.
    public init(values: [AnimatableValue], keyTimes: [Double]? = nil, timingFunctions: [TimingFunction]? = nil,
                calculationMode: CalculationMode = .linear) {
        self.values = values
        self.keyTimes = keyTimes
        self.timingFunctions = timingFunctions
        self.calculationMode = calculationMode
    }

    /// The value at progress `p` (already through the animation's own timing function), or
    /// nil when there is nothing to animate (fewer than one value; one value: rule 23 says
    /// the model shows).
    public func value(at p: Double) -> AnimatableValue? {
        if let path {
            return path.point(at: p, mode: calculationMode, keyTimes: keyTimes).map { .point($0) }
        }
        guard values.count >= 2 else { return nil }
        switch calculationMode {
        case .discrete: return discrete(at: p)
        case .linear: return piecewise(at: p, times: times(), eased: true, cubic: false)
        case .paced: return piecewise(at: p, times: pacedTimes(), eased: false, cubic: false)
        case .cubic: return piecewise(at: p, times: times(), eased: true, cubic: true)
        case .cubicPaced: return piecewise(at: p, times: pacedTimes(), eased: false, cubic: true)
        }
    }

    /// With a path and a rotation mode, the angle to turn by at progress `p` (rule 26).
    public func rotation(at p: Double) -> Double? {
        guard let path, let rotationMode, let angle = path.angle(at: p, mode: calculationMode, keyTimes: keyTimes) else {
            return nil
        }
        return rotationMode == .autoReverse ? angle + Double.pi : angle
    }

    /// A path keyframe animation's values (no `values` list).
    public init(path: KeyframePath, calculationMode: CalculationMode = .linear, rotationMode: RotationMode? = nil,
                keyTimes: [Double]? = nil) {
        self.init(values: [], keyTimes: keyTimes, calculationMode: calculationMode)
        self.path = path
        self.rotationMode = rotationMode
    }

    /// Values and key times in use: the common prefix, or even spacing (rule 23).
    func times() -> [Double] {
        if let keyTimes, keyTimes.count >= 2 {
            return Array(keyTimes.prefix(values.count))
        }
        return (0..<values.count).map { Double($0) / Double(values.count - 1) }
    }

    /// Key times proportional to the distance travelled (rule 24, paced).
    func pacedTimes() -> [Double] {
        var cumulative = [0.0]
        for i in 1..<values.count {
            cumulative.append(cumulative[i - 1] + values[i - 1].distance(to: values[i]))
        }
        let total = cumulative[cumulative.count - 1]
        guard total > 0 else { return (0..<values.count).map { Double($0) / Double(values.count - 1) } }
        return cumulative.map { $0 / total }
    }

    private func discrete(at p: Double) -> AnimatableValue {
        // Value i holds on [k_i, k_i+1); implicit key times i/n for n values (rule 24).
        let n = values.count
        let times: [Double]
        if let keyTimes, keyTimes.count >= 2 {
            times = Array(keyTimes.prefix(n))
        } else {
            times = (0..<n).map { Double($0) / Double(n) }
        }
        var index = 0
        for i in 0..<times.count where times[i] <= p {
            // A value at key time 1 shows only at the end instant.
            if times[i] >= 1 && p < 1 { break }
            index = i
        }
        return values[min(index, n - 1)]
    }

    private func piecewise(at p: Double, times: [Double], eased: Bool, cubic: Bool) -> AnimatableValue {
        let n = times.count
        guard n >= 2 else { return values[0] }
        if p <= times[0] { return values[0] }
        if p >= times[n - 1] { return values[n - 1] }
        var i = 0
        while i + 1 < n - 1 && p >= times[i + 1] { i += 1 }
        let span = times[i + 1] - times[i]
        var u = span > 0 ? (p - times[i]) / span : 1
        if eased, let functions = timingFunctions, i < functions.count { u = functions[i](u) }
        guard cubic, let a = values[i].components, let b = values[i + 1].components else {
            return values[i].interpolated(to: values[i + 1], by: u)
        }
        // Cubic Hermite with slopes in value per unit key time (rule 25), scaled by the
        // segment's length for the local parameter u.
        func slope(_ k: Int) -> [Double]? {
            let lo = max(k - 1, 0), hi = min(k + 1, n - 1)
            guard let vl = values[lo].components, let vh = values[hi].components, times[hi] > times[lo] else { return nil }
            return zip(vl, vh).map { ($1 - $0) / (times[hi] - times[lo]) }
        }
        guard let m0 = slope(i), let m1 = slope(i + 1) else { return values[i].interpolated(to: values[i + 1], by: u) }
        let u2 = u * u, u3 = u2 * u
        let h00 = 2 * u3 - 3 * u2 + 1, h10 = u3 - 2 * u2 + u, h01 = -2 * u3 + 3 * u2, h11 = u3 - u2
        // Written term by term: Swift 6.2's type checker gives up on the one-line sum.
        var mixed = [Double](repeating: 0, count: a.count)
        for c in 0..<a.count {
            var sum: Double = h00 * a[c]
            sum += h10 * span * m0[c]
            sum += h01 * b[c]
            sum += h11 * span * m1[c]
            mixed[c] = sum
        }
        return values[i].withComponents(mixed) ?? values[i].interpolated(to: values[i + 1], by: u)
    }
}

extension AnimatableValue {
    /// The value as numbers, for curves through several values (nil for Booleans and nil colours).
    public var components: [Double]? {
        switch self {
        case .scalar(let v): return [v]
        case .point(let p): return [p.x, p.y]
        case .size(let s): return [s.width, s.height]
        case .rect(let r): return [r.origin.x, r.origin.y, r.size.width, r.size.height]
        case .color(let c?): return [c.red, c.green, c.blue, c.alpha]
        case .transform(let t): return t.entries
        case .color(nil), .bool: return nil
        }
    }

    /// A value of the same kind built from `components`.
    public func withComponents(_ c: [Double]) -> AnimatableValue? {
        switch self {
        case .scalar: return c.count == 1 ? .scalar(c[0]) : nil
        case .point: return c.count == 2 ? .point(Point(x: c[0], y: c[1])) : nil
        case .size: return c.count == 2 ? .size(Size(width: c[0], height: c[1])) : nil
        case .rect: return c.count == 4 ? .rect(Rect(x: c[0], y: c[1], width: c[2], height: c[3])) : nil
        case .color: return c.count == 4 ? .color(Color(red: c[0], green: c[1], blue: c[2], alpha: c[3])) : nil
        case .transform: return c.count == 16 ? .transform(Transform3D(entries: c)) : nil
        case .bool: return nil
        }
    }

    /// Euclidean distance between two values of the same kind (paced keyframes, rule 24);
    /// 0 when they cannot be compared.
    public func distance(to other: AnimatableValue) -> Double {
        guard let a = components, let b = other.components, a.count == b.count else { return 0 }
        return zip(a, b).reduce(0) { $0 + ($1.0 - $1.1) * ($1.0 - $1.1) }.squareRoot()
    }
}
