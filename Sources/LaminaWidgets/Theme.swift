import LaminaGeometry
import LaminaRaster

/// The look every control shares: colours, corner radii, the face and sizes of its text and
/// the smallest touch target. Dark by default, for kiosks seen in dim halls and behind glass;
/// pass another (or a changed copy) to a control when it is made. A theme holds a ``Font``,
/// which is not safe to share between threads, so a theme is used on the loop's thread, as
/// the controls are.
public struct Theme {
    /// The screen behind everything.
    public var background = Color(red8: 0x0F, green8: 0x11, blue8: 0x15)
    /// A raised surface: a secondary button at rest, a slider's or toggle's track.
    public var surface = Color(red8: 0x26, green8: 0x2D, blue8: 0x3B)
    /// A card that holds controls (a dialog): set apart from the background and from the
    /// surfaces of the buttons on it.
    public var card = Color(red8: 0x1A, green8: 0x1F, blue8: 0x29)
    /// The accent: a primary button, a toggle that is on, a slider's filled part, progress.
    public var accent = Color(red8: 0x3B, green8: 0x82, blue8: 0xF6)
    /// Text and symbols on the accent.
    public var onAccent = Color.white
    /// Text on the background and on surfaces.
    public var text = Color(red8: 0xF3, green8: 0xF4, blue8: 0xF6)
    /// Quieter text: placeholders, captions, a dialog's message.
    public var secondaryText = Color(red8: 0x9C, green8: 0xA3, blue8: 0xAF)
    /// A toggle's knob, a slider's thumb.
    public var knob = Color.white
    /// Laid over the screen behind a dialog.
    public var dimming = Color.black.multiplyingAlpha(by: 0.55)
    /// How much a pressed control darkens: its fill is mixed this far toward black.
    public var pressedDarkening = 0.25
    /// The opacity of a disabled control.
    public var disabledOpacity = 0.4
    /// Corners of buttons, fields and cards, in pixels.
    public var cornerRadius = 14.0
    /// The face of text on controls (button titles, text boxes, dialogs); nil draws with the
    /// text layers' default face, which finds a face for any other script through fontconfig.
    /// Name one to match a kiosk's brand or to pick the face a script is shown in first.
    public var font: Font?
    /// Text on controls, in pixels.
    public var fontSize = 28.0
    /// A dialog's title, in pixels.
    public var titleFontSize = 34.0
    /// The height of a button or a field, in pixels.
    public var controlHeight = 64.0
    /// The room around a button's label, in pixels.
    public var padding = 24.0
    /// The smallest a control's touch target is each way, in pixels: a finger's width (48 px
    /// is Material's and about Apple's 44 pt).
    public var minimumTouchTarget = 48.0

    /// The dark theme.
    public init() {}

    /// The dark theme (the default).
    public static var dark: Theme { Theme() }

    /// A light theme: dark text on pale surfaces.
    public static var light: Theme {
        var theme = Theme()
        theme.background = Color(red8: 0xF5, green8: 0xF6, blue8: 0xF8)
        theme.surface = Color(red8: 0xE2, green8: 0xE5, blue8: 0xEA)
        theme.card = Color.white
        theme.accent = Color(red8: 0x25, green8: 0x63, blue8: 0xEB)
        theme.text = Color(red8: 0x11, green8: 0x18, blue8: 0x27)
        theme.secondaryText = Color(red8: 0x4B, green8: 0x55, blue8: 0x63)
        theme.dimming = Color.black.multiplyingAlpha(by: 0.35)
        return theme
    }

    /// `color` as a pressed control shows it: mixed `pressedDarkening` toward black.
    public func pressed(_ color: Color) -> Color {
        let k = 1 - min(max(pressedDarkening, 0), 1)
        return Color(red: color.red * k, green: color.green * k, blue: color.blue * k, alpha: color.alpha)
    }
}
