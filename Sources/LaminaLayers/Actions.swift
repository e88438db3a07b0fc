import LaminaAnimation
import LaminaRaster

/// Something a layer runs when one of its properties changes (`CAAction`).
public protocol LayerAction {
    /// Runs the action for the property `key` of `layer` (an animation adds itself).
    func run(forKey key: String, on layer: Layer)
}

extension BasicAnimation: LayerAction {
    /// Adds a copy of the animation to `layer` under `key`.
    public func run(forKey key: String, on layer: Layer) {
        layer.add(self, forKey: key)
    }
}

extension Transition: LayerAction {
    /// Runs the transition on `layer` (always under "transition", rule 34): a custom push or
    /// fade action for any key.
    public func run(forKey key: String, on layer: Layer) {
        layer.add(self)
    }
}

/// One step's answer in the action search (rule 40).
public enum ActionAnswer {
    /// `NSNull`: the search ends with no action.
    case none
    /// The search ends with this action.
    case action(any LayerAction)
}

/// The layer's delegate: asked first for a property's action (`CALayerDelegate`).
public protocol LayerDelegate: AnyObject {
    /// An answer ends the search (`.none` with no action); nil lets it continue.
    func action(for layer: Layer, forKey key: String) -> ActionAnswer?
}

/// A layer's style dictionary as far as actions go: `style["actions"]`, and a nested
/// `style["style"]` searched next (rule 40).
public final class LayerStyle {
    /// Per-key actions, searched like a layer's `actions`.
    public var actions: [String: ActionAnswer]
    /// The next style searched when a key is not in `actions`.
    public var style: LayerStyle?

    /// A style with these actions, falling back to `style`.
    public init(actions: [String: ActionAnswer] = [:], style: LayerStyle? = nil) {
        self.actions = actions
        self.style = style
    }
}

extension Layer {
    /// Keys whose change animates with a basic animation by default (rule 41; Lamina's
    /// shape keys per its choice there). Only these among the properties Lamina has.
    static let implicitlyAnimatedKeys: Set<String> = [
        "bounds", "position", "zPosition", "anchorPoint", "transform", "opacity", "backgroundColor",
        "cornerRadius", "borderWidth", "borderColor", "transform.scale", "anchorPointZ", "sublayerTransform",
        "startPoint", "endPoint", "fontSize", "foregroundColor", "shadowColor", "shadowOpacity", "shadowOffset",
        "shadowRadius",
        "path", "fillColor", "strokeColor", "lineWidth", "miterLimit", "strokeStart", "strokeEnd", "lineDashPhase",
    ]

    /// The action for `key` (`CALayer.action(forKey:)`): the delegate, then `actions`, then
    /// `style`, then `defaultAction(forKey:)`, then the stock default that applies only to a
    /// layer already committed in a rendered tree (rule 40, 41). `oldValue` is what the
    /// property held before the change (the stock animation starts there).
    public func action(forKey key: String, oldValue: AnimatableValue? = nil) -> (any LayerAction)? {
        if let answer = delegate?.action(for: self, forKey: key) { return answer.action }
        if let answer = actions[key] { return answer.action }
        var style = self.style
        while let current = style {
            if let answer = current.actions[key] { return answer.action }
            style = current.style
        }
        if let action = type(of: self).defaultAction(forKey: key) { return action }
        return stockAction(forKey: key, oldValue: oldValue)
    }

    /// The implicit animation of rule 42, for a committed layer in a rendered tree.
    private func stockAction(forKey key: String, oldValue: AnimatableValue?) -> (any LayerAction)? {
        guard isCommittedInRenderedTree, Self.implicitlyAnimatedKeys.contains(key), let oldValue else { return nil }
        if key == "backgroundColor", case .color(nil) = oldValue { return nil }   // from no colour: none
        var animation = BasicAnimation(keyPath: key, from: oldValue, duration: Transaction.animationDuration)
        animation.timing.fillMode = .backwards
        animation.timingFunction = Transaction.animationTimingFunction ?? .default
        return animation
    }

    /// True once the layer has been presented as part of a hosted tree.
    var isCommittedInRenderedTree: Bool {
        presentationLayer != nil && isInHostedTree
    }

    /// Called after a model property changed: looks up its action and runs it unless the
    /// transaction disables actions (rule 40).
    func propertyDidChange(_ key: String, from oldValue: AnimatableValue?) {
        if let recorder = TransactionStack.current.recorder {
            recorder(self, key, oldValue)
            return
        }
        guard let action = action(forKey: key, oldValue: oldValue), !Transaction.disableActions else { return }
        action.run(forKey: key, on: self)
    }
}

extension Layer {
    /// Sets `contents` as a change no action follows, as inside a transaction that disables
    /// actions, without reading the old value or searching for an action: a video's next
    /// frame (`AVPlayerLayer`'s frames are never animated). The search and the old value were
    /// a third of a 30 fps player's work per frame.
    package func setContentsWithoutAction(_ image: PixelBuffer?) {
        precondition(!isPresentation, "a presentation layer is read-only; set the model layer")
        properties.contents = image
        setNeedsCommit()
    }
}

extension ActionAnswer {
    var action: (any LayerAction)? {
        if case .action(let action) = self { return action }
        return nil
    }
}

/// The delegate a UIKit view is to its layer (rule 44): outside block animations it answers
/// every action with `.none`, so changes to a view-backed layer never animate implicitly;
/// inside `Layer.animate` the block animation itself captures the changes.
public final class ViewBackingDelegate: LayerDelegate, Sendable {
    /// The one delegate every view-backed layer shares.
    public static let shared = ViewBackingDelegate()

    public func action(for layer: Layer, forKey key: String) -> ActionAnswer? { ActionAnswer.none }
}

extension Layer {
    /// Makes the layer behave like a view's: no implicit animations (rule 44).
    public func makeViewBacked() {
        delegate = ViewBackingDelegate.shared
    }
}
