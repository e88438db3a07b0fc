import LaminaGeometry
import LaminaInput
import LaminaLayers
import LaminaPixels
import LaminaRuntime

/// A push button (`UIButton`): a rounded face with a label, an image, or both, that darkens
/// while pressed and calls `onTap` when a finger lifts on it.
///
/// Its touch target (`layer`) is at least `Theme.minimumTouchTarget` each way, centred on the
/// face, so a small icon button is still easy to hit. A finger that slides more than
/// `Button.slop` off the target before lifting does not tap (it can slide back), and a drag
/// that a scroll view around the button takes cancels the press, as on iOS. A disabled
/// button shows at `Theme.disabledOpacity` and ignores touches.
public final class Button {
    /// How the face is filled.
    public enum Kind: String, Sendable {
        /// The accent colour, for the action a screen is for.
        case primary
        /// A raised surface, for the others.
        case secondary
        /// No face, only the label in the accent colour.
        case plain
    }

    /// How far a finger may slide off the target and still tap, in pixels.
    public static let slop = 24.0

    /// The touch target: place it (its `position` is the button's centre). Clear; the face
    /// is its sublayer.
    public let layer: Layer
    /// The visible face: rounded, filled by `kind`.
    public let face: Layer
    /// The label.
    public let label: TextLayer
    /// The image beside (or instead of) the label.
    public let imageLayer: Layer
    /// Called when a finger lifts on the button.
    public var onTap: ((Button) -> Void)?
    /// The theme it was made with.
    public let theme: Theme
    /// How the face is filled.
    public let kind: Kind
    /// True while a finger holds it down over it.
    public private(set) var isPressed = false {
        didSet { if isPressed != oldValue { showState() } }
    }

    /// Whether it takes touches.
    public var isEnabled = true {
        didSet {
            if !isEnabled { isPressed = false }
            showState()
        }
    }

    /// The label's text; setting it keeps the button's size.
    public var title: String {
        get { label.string }
        set {
            withoutActions { label.string = newValue }
        }
    }

    /// A button showing `title` and/or `image` (an image sits left of the title), `size` large
    /// or, without one, as wide as its content and `theme.controlHeight` tall.
    public init(context: SceneContext, title: String = "", image: PixelBuffer? = nil, size: Size? = nil,
                kind: Kind = .primary, theme: Theme = .dark) {
        self.theme = theme
        self.kind = kind
        layer = Layer()
        face = Layer()
        label = TextLayer()
        imageLayer = Layer()
        withoutActions {
            label.string = title
            label.font = theme.font
            label.fontSize = theme.fontSize
            label.alignmentMode = .center
            let imageSide = image == nil ? 0.0 : theme.fontSize * 1.25
            let gap = image != nil && !title.isEmpty ? theme.padding / 2 : 0
            let content = label.textWidth + imageSide + gap
            let faceSize = size ?? Size(width: content + 2 * theme.padding, height: theme.controlHeight)
            let target = Size(width: max(faceSize.width, theme.minimumTouchTarget), height: max(faceSize.height, theme.minimumTouchTarget))
            layer.bounds = Rect(origin: .zero, size: target)
            face.bounds = Rect(origin: .zero, size: faceSize)
            face.position = Point(x: target.width / 2, y: target.height / 2)
            face.cornerRadius = min(theme.cornerRadius, faceSize.height / 2)
            layer.addSublayer(face)
            let left = (faceSize.width - content) / 2
            if let image {
                imageLayer.contents = image
                imageLayer.contentsGravity = .resizeAspect
                imageLayer.bounds = Rect(x: 0, y: 0, width: imageSide, height: imageSide)
                imageLayer.position = Point(x: left + imageSide / 2, y: faceSize.height / 2)
                face.addSublayer(imageLayer)
            }
            let lineHeight = theme.fontSize * 1.3
            label.bounds = Rect(x: 0, y: 0, width: max(faceSize.width - imageSide - gap, 0), height: lineHeight)
            label.position = Point(x: image == nil ? faceSize.width / 2 : left + imageSide + gap + label.textWidth / 2,
                                   y: faceSize.height / 2)
            if image != nil { label.bounds.size.width = label.textWidth + 2 }
            face.addSublayer(label)
        }
        showState()
        let relay = Relay()
        context.addTouchHandler(to: layer) { relay.button?.touched($0) }
        relay.button = self
    }

    private final class Relay {
        weak var button: Button?
    }

    private func touched(_ touch: Touch) {
        guard isEnabled else { return }
        switch touch.phase {
        case .began:
            isPressed = true
        case .moved, .stationary:
            isPressed = isOver(touch)
        case .ended:
            let tapped = isPressed && isOver(touch)
            isPressed = false
            if tapped { onTap?(self) }
        case .cancelled:
            isPressed = false
        }
    }

    /// Whether the finger is over the target, `slop` around it included.
    private func isOver(_ touch: Touch) -> Bool {
        let p = touch.location(in: layer)
        return layer.bounds.insetBy(dx: -Self.slop, dy: -Self.slop).contains(p)
    }

    private func showState() {
        let fill: Color?, text: Color
        switch kind {
        case .primary: (fill, text) = (theme.accent, theme.onAccent)
        case .secondary: (fill, text) = (theme.surface, theme.text)
        case .plain: (fill, text) = (nil, theme.accent)
        }
        withoutActions {
            face.backgroundColor = fill.map { isPressed ? theme.pressed($0) : $0 }
            label.foregroundColor = kind == .plain && isPressed ? theme.pressed(text) : text
            layer.opacity = isEnabled ? 1 : theme.disabledOpacity
        }
    }
}
