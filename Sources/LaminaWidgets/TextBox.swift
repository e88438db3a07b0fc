import LaminaGeometry
import LaminaInput
import LaminaLayers
import LaminaRuntime

/// A text field in its box, themed like the other controls: a rounded background with a
/// border that takes the accent colour while the field has focus, the text inset by the
/// theme's padding, and a placeholder while it is empty. A touch anywhere in the box (its
/// padding too) focuses the field and places the caret.
///
/// `field` is the ``TextField`` inside: read and set its `text`, hear `onChange` and
/// `onCommit` there.
public final class TextBox {
    /// The box: place it. `theme.controlHeight` tall.
    public let layer: Layer
    /// The field inside.
    public let field: TextField
    /// The theme it was made with.
    public let theme: Theme
    /// Called when the field gains or loses focus (after the box shows it).
    public var onFocusChange: ((TextBox) -> Void)?

    /// A box `width` pixels wide holding `text`, with `placeholder` shown while it is empty.
    public init(context: SceneContext, width: Double, text: String = "", placeholder: String = "",
                maximumLength: Int = 256, theme: Theme = .dark) {
        self.theme = theme
        layer = Layer()
        var style = TextField.Style()
        style.font = theme.font
        style.fontSize = theme.fontSize
        style.textColor = theme.text
        style.placeholderColor = theme.secondaryText
        style.caretColor = theme.accent
        style.selectionColor = theme.accent.multiplyingAlpha(by: 0.35)
        style.placeholder = placeholder
        let padding = theme.padding / 1.5
        let height = theme.controlHeight
        let inner = Size(width: max(width - 2 * padding, 1), height: max(height - 2 * Self.borderWidth, 1))
        field = TextField(context: context, size: inner, text: text, maximumLength: maximumLength, style: style,
                          handlesTouches: true)
        withoutActions {
            layer.bounds = Rect(x: 0, y: 0, width: max(width, 2 * padding + 1), height: height)
            layer.backgroundColor = theme.card
            layer.cornerRadius = theme.cornerRadius
            layer.borderWidth = Self.borderWidth
            layer.borderColor = theme.surface
            field.layer.position = Point(x: layer.bounds.width / 2, y: height / 2)
            layer.addSublayer(field.layer)
        }
        field.tapArea = layer
        let relay = Relay()
        field.onFocusChange = { _ in relay.box?.focusChanged() }
        context.addGestureRecognizer(TapGestureRecognizer { tap in
            guard tap.state == .recognized, let box = relay.box else { return }
            // In the padding: the nearest point of the text's line.
            let p = tap.location(in: box.field.layer), size = box.field.layer.bounds.size
            box.field.tap(at: Point(x: min(max(p.x, 0), size.width), y: size.height / 2))
        }, to: layer)
        relay.box = self
    }

    private final class Relay {
        weak var box: TextBox?
    }

    /// The border's width in pixels.
    public static let borderWidth = 2.0

    private func focusChanged() {
        withoutActions { layer.borderColor = field.isFocused ? theme.accent : theme.surface }
        onFocusChange?(self)
    }
}
