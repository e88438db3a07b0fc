/// An sRGB colour with **straight** (non-premultiplied) alpha, components in 0…1.
///
/// Values are sRGB-encoded and blended as encoded values (no linear light), as
/// Core Graphics does for device RGB. `premultiplied` gives the form the rasterizer
/// composites with.
public struct Color: Hashable, Sendable, CustomStringConvertible {
    /// Red, 0…1 (straight, not premultiplied).
    public var red: Double
    /// Green, 0…1.
    public var green: Double
    /// Blue, 0…1.
    public var blue: Double
    /// Opacity, 0 (transparent) … 1 (opaque).
    public var alpha: Double

    /// A colour from straight components (opaque unless `alpha` is given).
    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    /// A colour from 8-bit straight-alpha components.
    public init(red8: UInt8, green8: UInt8, blue8: UInt8, alpha8: UInt8 = 255) {
        self.init(red: Double(red8) / 255, green: Double(green8) / 255,
                  blue: Double(blue8) / 255, alpha: Double(alpha8) / 255)
    }

    /// Opaque black.
    public static let black = Color(red: 0, green: 0, blue: 0)
    /// Opaque white.
    public static let white = Color(red: 1, green: 1, blue: 1)
    /// Transparent black.
    public static let clear = Color(red: 0, green: 0, blue: 0, alpha: 0)

    /// The same colour with its alpha multiplied by `factor` (layer opacity).
    public func multiplyingAlpha(by factor: Double) -> Color {
        Color(red: red, green: green, blue: blue, alpha: alpha * factor)
    }

    /// The premultiplied form: each colour component multiplied by alpha.
    public var premultiplied: PremultipliedColor {
        let a = Color.clamp01(alpha)
        return PremultipliedColor(red: Color.clamp01(red) * a, green: Color.clamp01(green) * a,
                                  blue: Color.clamp01(blue) * a, alpha: a)
    }

    /// Componentwise interpolation including alpha, unpremultiplied (rule 19).
    public func interpolated(to other: Color, by t: Double) -> Color {
        Color(red: red + (other.red - red) * t, green: green + (other.green - green) * t,
              blue: blue + (other.blue - blue) * t, alpha: alpha + (other.alpha - alpha) * t)
    }

    static func clamp01(_ v: Double) -> Double { v.isNaN ? 0 : min(max(v, 0), 1) }

    public var description: String { hexString }
}

/// A premultiplied sRGB colour: components in 0…1 with `red, green, blue ≤ alpha`.
public struct PremultipliedColor: Hashable, Sendable {
    /// Red times alpha.
    public var red: Double
    /// Green times alpha.
    public var green: Double
    /// Blue times alpha.
    public var blue: Double
    /// Opacity.
    public var alpha: Double

    /// A premultiplied colour from its components (each colour component at most `alpha`).
    public init(red: Double, green: Double, blue: Double, alpha: Double) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    /// The 32-bit pixel `0xAARRGGBB` (XRGB8888/ARGB8888 byte order B, G, R, A in memory),
    /// each component rounded to the nearest 8-bit value.
    public var pixel32: UInt32 {
        func q(_ v: Double) -> UInt32 { UInt32((Color.clamp01(v) * 255).rounded()) }
        return q(alpha) << 24 | q(red) << 16 | q(green) << 8 | q(blue)
    }

    /// The straight-alpha colour (black when fully transparent).
    public var unpremultiplied: Color {
        guard alpha > 0 else { return .clear }
        return Color(red: red / alpha, green: green / alpha, blue: blue / alpha, alpha: alpha)
    }
}
