#if canImport(Glibc)
import Glibc
#endif

extension Color {
    /// `UIColor(hue:saturation:brightness:alpha:)`: standard HSV → RGB (rule 66).
    /// `hue` wraps modulo 1; `saturation` and `brightness` are clamped to 0…1.
    public init(hue: Double, saturation: Double, brightness: Double, alpha: Double = 1) {
        let s = Color.clamp01(saturation), v = Color.clamp01(brightness)
        var h = hue.truncatingRemainder(dividingBy: 1)
        if h < 0 { h += 1 }
        let h6 = h * 6
        let i = min(Int(h6.rounded(.down)), 5)
        let f = h6 - Double(i)
        let p = v * (1 - s), q = v * (1 - s * f), t = v * (1 - s * (1 - f))
        let (r, g, b): (Double, Double, Double)
        switch i {
        case 0: (r, g, b) = (v, t, p)
        case 1: (r, g, b) = (q, v, p)
        case 2: (r, g, b) = (p, v, t)
        case 3: (r, g, b) = (p, q, v)
        case 4: (r, g, b) = (t, p, v)
        default: (r, g, b) = (v, p, q)
        }
        self.init(red: r, green: g, blue: b, alpha: alpha)
    }

    /// Hue (0…1, 0 for greys), saturation and brightness, as `UIColor.getHue(_:saturation:brightness:alpha:)`.
    public var hsb: (hue: Double, saturation: Double, brightness: Double) {
        let r = Color.clamp01(red), g = Color.clamp01(green), b = Color.clamp01(blue)
        let maxC = max(r, g, b), minC = min(r, g, b), delta = maxC - minC
        let brightness = maxC
        let saturation = maxC > 0 ? delta / maxC : 0
        guard delta > 0 else { return (0, saturation, brightness) }
        var hue: Double
        if maxC == r {
            hue = (g - b) / delta
        } else if maxC == g {
            hue = 2 + (b - r) / delta
        } else {
            hue = 4 + (r - g) / delta
        }
        hue /= 6
        if hue < 0 { hue += 1 }
        return (hue, saturation, brightness)
    }

    /// The colour moved in HSB space by percentages of each component's full range:
    /// `brightnessBy: 20` adds 0.2 to the brightness, `-30` removes 0.3. Saturation and
    /// brightness are clamped to 0…1; hue wraps. Alpha is kept.
    public func adjusted(hueBy hue: Double = 0, saturationBy saturation: Double = 0,
                         brightnessBy brightness: Double = 0) -> Color {
        let c = hsb
        return Color(hue: c.hue + hue / 100,
                     saturation: Color.clamp01(c.saturation + saturation / 100),
                     brightness: Color.clamp01(c.brightness + brightness / 100),
                     alpha: alpha)
    }
}
