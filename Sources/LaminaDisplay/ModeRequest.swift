/// Which mode to drive a connector with, from the config (`display.mode`):
/// `preferred`, `WIDTHxHEIGHT` (the fastest mode of that size) or `WIDTHxHEIGHT@HZ` (the
/// mode of that size whose refresh is nearest, within half a hertz).
public enum ModeRequest: Hashable, Sendable, CustomStringConvertible {
    /// The connector's preferred mode.
    case preferred
    /// A mode of this size, at this refresh rate when given (else the fastest).
    case size(width: Int, height: Int, refresh: Double?)

    /// Parses the config text; nil when it is not one of the three forms.
    public init?(_ text: String) {
        if text == "preferred" { self = .preferred; return }
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count <= 2 else { return nil }
        let size = parts[0].split(separator: "x", omittingEmptySubsequences: false)
        guard size.count == 2, let w = Int(size[0]), let h = Int(size[1]), w > 0, h > 0 else { return nil }
        var refresh: Double?
        if parts.count == 2 {
            guard let hz = Double(parts[1]), hz > 0, hz <= 1000 else { return nil }
            refresh = hz
        }
        self = .size(width: w, height: h, refresh: refresh)
    }

    public var description: String {
        switch self {
        case .preferred: return "preferred"
        case .size(let w, let h, nil): return "\(w)x\(h)"
        case .size(let w, let h, let hz?): return "\(w)x\(h)@\(hz.formatted3)"
        }
    }

    /// The mode of `connector` this request names, or nil when it offers none.
    public func select(from connector: KMSConnector) -> KMSMode? {
        switch self {
        case .preferred:
            return connector.bestMode
        case .size(let w, let h, let refresh):
            let sized = connector.modes.filter { $0.width == w && $0.height == h }
            if let refresh {
                return sized.filter { abs($0.refreshRate - refresh) <= 0.5 }
                    .min { abs($0.refreshRate - refresh) < abs($1.refreshRate - refresh) }
            }
            // The fastest; among equals the preferred one, then the first listed.
            return sized.enumerated().max { a, b in
                (a.element.refreshRate, a.element.isPreferred ? 1 : 0, -a.offset)
                    < (b.element.refreshRate, b.element.isPreferred ? 1 : 0, -b.offset)
            }?.element
        }
    }
}

extension Double {
    /// At most three decimals, no trailing zeros (59.94, 60).
    var formatted3: String {
        let scaled = (self * 1000).rounded() / 1000
        return scaled == scaled.rounded() ? String(Int(scaled)) : String(scaled)
    }
}
