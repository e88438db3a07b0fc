import LaminaAnimation
import LaminaGeometry
import LaminaLayers
import LaminaRuntime

/// A modal question over the dimmed screen (`UIAlertController`): a card with a title, a
/// message and a row of buttons that springs in over a darkened background.
///
/// While it shows, touches are confined to it (`SceneContext.beginModal`): nothing behind
/// it — a button, a recognizer on the root — hears a touch, and text editing behind it ends.
/// A button dismisses the dialog, then calls its action's handler; a tap on the background
/// does nothing unless `dismissesOnBackgroundTap`.
public final class Dialog {
    /// A button of the dialog.
    public struct Action {
        /// Its label.
        public var title: String
        /// How it is drawn: `.primary` for the answer the dialog expects.
        public var kind: Button.Kind
        /// Called after the dialog starts to go.
        public var handler: (() -> Void)?

        /// An action titled `title`.
        public init(_ title: String, kind: Button.Kind = .primary, handler: (() -> Void)? = nil) {
            self.title = title
            self.kind = kind
            self.handler = handler
        }
    }

    /// The widest a card is, in pixels (narrower on a narrow screen).
    public static let maximumWidth = 560.0
    /// Seconds the dialog takes to appear or go.
    public static let fadeDuration = 0.2

    /// The whole dialog: the dimming and the card, over the screen. `show()` adds it.
    public let layer: Layer
    /// The dimmed background.
    public let dimming: Layer
    /// The card.
    public let card: Layer
    /// The title.
    public let titleLabel: TextLayer
    /// The message under it.
    public let messageLabel: TextLayer
    /// The actions' buttons, left to right.
    public private(set) var buttons: [Button] = []
    /// Whether a tap on the dimmed background dismisses it (false: only a button does).
    public var dismissesOnBackgroundTap = false
    /// Called once it has been dismissed, by a button or the background.
    public var onDismiss: ((Dialog) -> Void)?
    /// True from `show()` until `dismiss()`.
    public private(set) var isShown = false
    /// The theme it was made with.
    public let theme: Theme

    private let context: SceneContext
    private let actions: [Action]

    /// A dialog asking `title` (with `message` under it) with `actions` as its buttons (one
    /// "OK" when empty), sized for the screen; call `show()`.
    public init(context: SceneContext, title: String, message: String = "", actions: [Action], theme: Theme = .dark) {
        self.context = context
        self.theme = theme
        self.actions = actions.isEmpty ? [Action("OK")] : actions
        layer = Layer()
        dimming = Layer()
        card = Layer()
        titleLabel = TextLayer()
        messageLabel = TextLayer()
        let screen = context.screenSize
        let width = min(Self.maximumWidth, max(screen.width - 64, 200))
        let padding = theme.padding
        let inner = width - 2 * padding
        withoutActions {
            layer.bounds = Rect(origin: .zero, size: screen)
            layer.anchorPoint = .zero
            dimming.bounds = layer.bounds
            dimming.anchorPoint = .zero
            dimming.backgroundColor = theme.dimming
            layer.addSublayer(dimming)
            titleLabel.string = title
            titleLabel.font = theme.font
            titleLabel.fontSize = theme.titleFontSize
            titleLabel.foregroundColor = theme.text
            titleLabel.isWrapped = true
            titleLabel.alignmentMode = .center
            titleLabel.bounds = Rect(x: 0, y: 0, width: inner, height: 1)
            titleLabel.bounds.size.height = titleLabel.textHeight
            messageLabel.string = message
            messageLabel.font = theme.font
            messageLabel.fontSize = theme.fontSize * 0.85
            messageLabel.foregroundColor = theme.secondaryText
            messageLabel.isWrapped = true
            messageLabel.alignmentMode = .center
            messageLabel.bounds = Rect(x: 0, y: 0, width: inner, height: 1)
            messageLabel.bounds.size.height = min(messageLabel.textHeight, screen.height / 2)
            messageLabel.masksToBounds = messageLabel.textHeight > screen.height / 2
        }
        let relay = Relay()
        let gap = padding / 2
        let buttonWidth = (inner - gap * Double(self.actions.count - 1)) / Double(self.actions.count)
        buttons = self.actions.enumerated().map { index, action in
            let button = Button(context: context, title: action.title, size: Size(width: buttonWidth, height: theme.controlHeight),
                                kind: action.kind, theme: theme)
            button.onTap = { _ in relay.dialog?.chose(index) }
            return button
        }
        withoutActions {
            var y = padding
            titleLabel.position = Point(x: width / 2, y: y + titleLabel.bounds.height / 2)
            y += titleLabel.bounds.height
            if !message.isEmpty {
                y += gap
                messageLabel.position = Point(x: width / 2, y: y + messageLabel.bounds.height / 2)
                y += messageLabel.bounds.height
                card.addSublayer(messageLabel)
            }
            y += padding
            for (i, button) in buttons.enumerated() {
                button.layer.position = Point(x: padding + (buttonWidth + gap) * Double(i) + buttonWidth / 2,
                                              y: y + theme.controlHeight / 2)
                card.addSublayer(button.layer)
            }
            y += theme.controlHeight + padding
            card.bounds = Rect(x: 0, y: 0, width: width, height: y)
            card.position = Point(x: screen.width / 2, y: screen.height / 2)
            card.cornerRadius = theme.cornerRadius * 1.5
            card.backgroundColor = theme.card
            card.shadowOpacity = 0.4
            card.shadowRadius = 24
            card.shadowOffset = Size(width: 0, height: 8)
            card.addSublayer(titleLabel)
            layer.addSublayer(card)
        }
        context.addTouchHandler(to: dimming) { touch in
            guard touch.phase == .ended, let dialog = relay.dialog, dialog.dismissesOnBackgroundTap else { return }
            dialog.dismiss()
        }
        relay.dialog = self
    }

    private final class Relay {
        weak var dialog: Dialog?
    }

    /// Puts the dialog over everything in the scene: the background fades in, the card
    /// springs from a little smaller, and touches are confined to it.
    public func show() {
        guard !isShown else { return }
        isShown = true
        context.focus(nil)                                         // typing behind the dialog ends
        withoutActions {
            layer.opacity = 1
            context.rootLayer.addSublayer(layer)
        }
        layer.add(BasicAnimation(keyPath: "opacity", from: .scalar(0), to: .scalar(1), duration: Self.fadeDuration), forKey: "show")
        card.add(BasicAnimation(keyPath: "transform.scale", from: .scalar(0.9), to: .scalar(1),
                                spring: Spring(dampingRatio: 0.7, duration: 0.45)), forKey: "show")
        context.beginModal(layer)
    }

    /// Takes the dialog away: it fades out, touches go where they went before, and
    /// `onDismiss` is called.
    public func dismiss() {
        guard isShown else { return }
        isShown = false
        context.endModal(layer)
        let fade = BasicAnimation(keyPath: "opacity", from: .scalar(1), to: .scalar(0), duration: Self.fadeDuration)
        withoutActions { layer.opacity = 0 }
        layer.add(fade, forKey: "show") { [weak layer] _ in
            if let layer, layer.opacity == 0 { layer.removeFromSuperlayer() }   // not if shown again meanwhile
        }
        onDismiss?(self)
    }

    private func chose(_ index: Int) {
        guard isShown else { return }
        dismiss()
        actions[index].handler?()
    }
}
