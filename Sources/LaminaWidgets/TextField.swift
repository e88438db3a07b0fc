import LaminaGeometry
import LaminaInput
import LaminaLayers
import LaminaRuntime

/// A one-line editable text (`UITextField`): a clipped layer holding the text, a placeholder
/// while it is empty, a blinking caret and the selection's highlight, over a
/// ``TextEditingState``.
///
/// A tap gives the field focus and puts the caret at the nearest character boundary; a drag
/// across the text while it has focus selects. While it has focus, typing from a keyboard
/// or from the on-screen keyboard (which slides up with the focus, decision 111) goes into
/// it; Return calls `onCommit` and ends editing, Escape ends it, and so does a touch
/// outside `tapArea` and the keyboard. Text wider than the field scrolls to keep the caret
/// in view.
///
/// The caret blinks on a ``SceneTimer`` (0.5 s shown, 0.5 s hidden, solid while typing), so
/// a focused field wakes the loop twice a second instead of animating every frame.
public final class TextField: TextInputTarget {
    /// How the field looks.
    public struct Style {
        /// The text's face; nil draws with the text layers' default face (with fallbacks
        /// fontconfig finds for other scripts).
        public var font: Font?
        /// The text's size in pixels.
        public var fontSize = 36.0
        /// The text's colour.
        public var textColor = Color.white
        /// The placeholder's colour.
        public var placeholderColor = Color.white.multiplyingAlpha(by: 0.6)
        /// The caret's colour.
        public var caretColor = Color(red8: 0xFF, green8: 0xFF, blue8: 0xFF)
        /// Behind selected characters.
        public var selectionColor = Color(red8: 0x9C, green8: 0xC3, blue8: 0xFF).multiplyingAlpha(by: 0.45)
        /// A hint shown while the field is empty.
        public var placeholder = ""

        /// White 36 px text with a white caret and a light blue selection, no placeholder.
        public init() {}
    }

    /// Seconds the caret shows, then hides, while blinking.
    public static let blinkInterval = 0.5
    /// The caret's width in pixels, at least: a twentieth of the font size above 40 px.
    public static let minimumCaretWidth = 2.0

    /// The field's layer: add it to the scene, set its `position`. It clips the text while
    /// the text is wider than the field (clipping costs a coverage mask every frame the
    /// field is drawn, so a text that fits is not clipped).
    public let layer: Layer
    /// The text.
    public let label: TextLayer
    /// The hint, shown instead of the text while the text is empty.
    public let placeholderLabel: TextLayer
    /// The caret: shown while the field has focus and nothing is selected, blinking.
    public let caretLayer: Layer
    /// The selection's highlight, behind the text.
    public let selectionLayer: Layer
    /// The touches that keep editing going: one outside this layer (and outside the
    /// on-screen keyboard) ends it. The field's own layer unless set (a field drawn inside
    /// a bigger shape sets the shape).
    public var tapArea: Layer
    /// Called after every change to the text.
    public var onChange: ((TextField) -> Void)?
    /// Called on Return, before editing ends.
    public var onCommit: ((TextField) -> Void)?
    /// Called when the field gains or loses focus.
    public var onFocusChange: ((TextField) -> Void)?

    /// How the field looks (fixed when it is made).
    public let style: Style
    /// The text and its selection.
    public private(set) var editing: TextEditingState
    /// The caret's blink phase: true while shown.
    public private(set) var isCaretOn = true
    /// How far the text is scrolled left to keep the caret in view, in pixels.
    public private(set) var scrollOffset = 0.0
    /// Where the text's left end is drawn when it fits: 0, or for right-to-left text (an
    /// Arabic or Hebrew first strong character) as far right as leaves room for the caret.
    public private(set) var textOrigin = 0.0
    /// The scene's context: its timers and text focus.
    private let context: SceneContext
    private var blinkTimer: SceneTimer?
    /// Where a drag started selecting (a character position).
    private var selectionAnchor: Int?

    /// A field of `size`, showing `text`, holding at most `maximumLength` characters. With
    /// `handlesTouches` it attaches its own tap and pan recognizers to `layer`; a scene
    /// with gestures of its own on the same spot passes false and calls ``tap(at:)`` and
    /// ``dragSelection(_:)`` from its recognizers.
    public init(context: SceneContext, size: Size, text: String = "", maximumLength: Int = 256,
                style: Style = Style(), handlesTouches: Bool = true) {
        self.context = context
        self.style = style
        editing = TextEditingState(text: text, maximumLength: maximumLength)
        layer = Layer()
        layer.name = "text-field"
        layer.bounds = Rect(x: 0, y: 0, width: size.width, height: size.height)
        tapArea = layer
        let lineHeight = (style.fontSize * 1.3).rounded()
        selectionLayer = Layer()
        selectionLayer.backgroundColor = style.selectionColor
        selectionLayer.isHidden = true
        label = TextLayer()
        label.font = style.font
        label.fontSize = style.fontSize
        label.foregroundColor = style.textColor
        label.alignmentMode = .left                         // placed by `update()` as the text reads
        label.anchorPoint = Point(x: 0, y: 0.5)
        label.bounds = Rect(x: 0, y: 0, width: size.width, height: lineHeight)
        label.position = Point(x: 0, y: size.height / 2)
        placeholderLabel = TextLayer()
        placeholderLabel.font = style.font
        placeholderLabel.fontSize = style.fontSize
        placeholderLabel.foregroundColor = style.placeholderColor
        placeholderLabel.truncatesEnd = true
        placeholderLabel.anchorPoint = Point(x: 0, y: 0.5)
        placeholderLabel.bounds = label.bounds
        placeholderLabel.position = label.position
        placeholderLabel.string = style.placeholder
        caretLayer = Layer()
        caretLayer.backgroundColor = style.caretColor
        caretLayer.bounds = Rect(x: 0, y: 0, width: max(Self.minimumCaretWidth, (style.fontSize / 20).rounded()),
                                 height: (style.fontSize * 1.15).rounded())
        caretLayer.isHidden = true
        for sublayer in [selectionLayer, placeholderLabel, label, caretLayer] { layer.addSublayer(sublayer) }
        update()
        if handlesTouches {
            context.addGestureRecognizer(TapGestureRecognizer { [unowned self] tap in
                guard tap.state == .recognized else { return }
                self.tap(at: tap.location(in: self.layer))
            }, to: layer)
            context.addGestureRecognizer(PanGestureRecognizer { [unowned self] pan in self.dragSelection(pan) }, to: layer)
        }
    }

    /// The text; setting it puts the caret at its end (cut to the maximum length).
    public var text: String {
        get { editing.text }
        set {
            editing.setText(newValue)
            update()
        }
    }

    /// Selects the characters from `anchor` to `head` (character offsets, clamped; equal ones
    /// place the caret), as a drag across them would.
    public func select(from anchor: Int, to head: Int) {
        editing.select(from: anchor, to: head)
        restartBlink()
        update()
    }

    /// True while typing goes into this field.
    public var isFocused: Bool { context.focusedTextInput === self }

    /// Gives the field focus (the on-screen keyboard slides up) or takes it away.
    public func focus() { context.focus(self) }

    /// Ends editing here if the field has focus (the on-screen keyboard slides away).
    public func resignFocus() {
        if isFocused { context.focus(nil) }
    }

    /// A tap at `point` (the field's coordinates): focus, and the caret at the nearest
    /// character boundary.
    public func tap(at point: Point) {
        focus()
        editing.placeCaret(at: caretIndex(at: point))
        restartBlink()
        update()
    }

    /// A pan across the field: while it has focus, the selection runs from where the pan
    /// began to where the finger is. Returns false, doing nothing, when the field has no
    /// focus or the pan began outside it, so the caller can give the pan to something else.
    @discardableResult
    public func dragSelection(_ pan: PanGestureRecognizer) -> Bool {
        switch pan.state {
        case .began:
            guard isFocused, let start = pan.startLocation(in: layer), layer.bounds.contains(start) else { return false }
            selectionAnchor = caretIndex(at: start)
            fallthrough
        case .changed:
            guard let anchor = selectionAnchor else { return false }
            editing.select(from: anchor, to: caretIndex(at: pan.location(in: layer)))
            restartBlink()
            update()
            return true
        case .ended, .cancelled, .failed:
            defer { selectionAnchor = nil }
            return selectionAnchor != nil
        default:
            return false
        }
    }

    /// Applies one typed input (what a keyboard, real or on screen, sends to the focused field).
    /// The arrow keys move in visual order: Left to the caret position drawn next to the
    /// left, across a change of direction too.
    public func apply(_ input: TextInput) {
        let outcome: TextEditingState.Outcome
        switch input {
        case .moveLeft, .moveRight: outcome = moveVisually(right: input == .moveRight)
        default: outcome = editing.apply(input)
        }
        switch outcome {
        case .edited:
            restartBlink()
            update()
            onChange?(self)
        case .moved:
            restartBlink()
            update()
        case .unchanged:
            break
        case .committed:
            onCommit?(self)
            resignFocus()
        case .cancelled:
            resignFocus()
        }
    }

    /// The on-screen keyboard (decision 111), labelled from the configured layout: made by
    /// the first field to take focus and kept by the runtime for the ones after.
    package func makeInputPanel(layout: Keyboard?) -> (any TextInputPanel)? {
        OnScreenKeyboard(context: context, layout: layout)
    }

    /// Told by the runtime when focus arrives or leaves.
    package func focusChanged() {
        if isFocused {
            restartBlink()
        } else {
            blinkTimer?.invalidate()
            blinkTimer = nil
            selectionAnchor = nil
            editing.placeCaret(at: editing.caret)
        }
        update()
        onFocusChange?(self)
    }

    /// Moves the caret to the boundary drawn nearest to its left (or right); a selection
    /// collapses to its end on that side.
    private func moveVisually(right: Bool) -> TextEditingState.Outcome {
        let positions = label.caretPositions()
        guard positions.count == editing.count + 1 else { return editing.apply(right ? .moveForward : .moveBackward) }
        if !editing.selection.isEmpty {
            let ends = [editing.selection.lowerBound, editing.selection.upperBound]
            let end = right ? ends.max { positions[$0] < positions[$1] }! : ends.min { positions[$0] < positions[$1] }!
            return editing.move(to: end)
        }
        let here = positions[editing.caret]
        // The nearest boundary strictly on that side; of boundaries drawn at one place (where
        // the direction changes), the one logically nearest the caret.
        let side = positions.indices.filter { right ? positions[$0] > here + 1e-6 : positions[$0] < here - 1e-6 }
        guard let next = side.min(by: { a, b in
            let da = abs(positions[a] - here), db = abs(positions[b] - here)
            return abs(da - db) > 1e-6 ? da < db : abs(a - editing.caret) < abs(b - editing.caret)
        }) else { return .unchanged }
        return editing.move(to: next)
    }

    /// The character boundary nearest to `point` (the field's coordinates).
    private func caretIndex(at point: Point) -> Int {
        label.caretIndex(nearestTo: point.x - textOrigin + scrollOffset)
    }

    /// Shows the caret and starts its blink over.
    private func restartBlink() {
        isCaretOn = true
        blinkTimer?.invalidate()
        guard isFocused else { return }
        blinkTimer = context.addTimer(interval: Self.blinkInterval, repeats: true) { [unowned self] _ in
            self.isCaretOn.toggle()
            Transaction.begin()
            Transaction.disableActions = true
            self.showCaretIfDue()
            Transaction.commit()
        }
    }

    /// The caret shows while the field has focus, nothing is selected and the blink is on.
    private func showCaretIfDue() {
        caretLayer.isHidden = !(isFocused && editing.selection.isEmpty && isCaretOn)
    }

    /// Lays the layers out from the editing state: text, scroll, caret, selection.
    private func update() {
        Transaction.begin()
        Transaction.disableActions = true
        defer { Transaction.commit() }
        let width = layer.bounds.width
        label.string = editing.text
        placeholderLabel.isHidden = !editing.text.isEmpty
        let positions = label.caretPositions()              // left-aligned: the label's width does not move them
        let textWidth = positions.max() ?? 0
        let margin = caretLayer.bounds.width
        label.bounds.size.width = max(width, textWidth + margin)
        layer.masksToBounds = textWidth + margin > width
        // Right-to-left text that fits stands against the right edge, as it reads.
        textOrigin = label.firstLineDirection == .rightToLeft && textWidth + margin <= width ? width - margin - textWidth : 0
        let caretX = positions.isEmpty ? 0 : positions[min(editing.caret, positions.count - 1)]
        // Scroll only as far as it takes to keep the caret inside, and never past the text's end.
        if caretX - scrollOffset > width - margin { scrollOffset = caretX - width + margin }
        if caretX - scrollOffset < 0 { scrollOffset = caretX }
        scrollOffset = max(0, min(scrollOffset, max(0, textWidth + margin - width)))
        let shift = textOrigin - scrollOffset
        label.position.x = shift
        caretLayer.position = Point(x: caretX + shift + caretLayer.bounds.width / 2, y: layer.bounds.height / 2)
        showCaretIfDue()
        let spans = isFocused && !editing.selection.isEmpty ? label.selectionSpans(characters: editing.selection) : []
        let top = (layer.bounds.height - caretLayer.bounds.height) / 2, height = caretLayer.bounds.height
        if let first = spans.first, let last = spans.last {
            // One span is the selection layer itself; a selection across a change of
            // direction is one piece per span inside it.
            selectionLayer.frame = Rect(x: first.left + shift, y: top, width: last.right - first.left, height: height)
            selectionLayer.backgroundColor = spans.count == 1 ? style.selectionColor : nil
            let pieces = spans.count == 1 ? [] : spans
            while selectionLayer.sublayers.count > pieces.count { selectionLayer.sublayers.last?.removeFromSuperlayer() }
            while selectionLayer.sublayers.count < pieces.count {
                let piece = Layer()
                piece.backgroundColor = style.selectionColor
                selectionLayer.addSublayer(piece)
            }
            for (piece, span) in zip(selectionLayer.sublayers, pieces) {
                piece.frame = Rect(x: span.left - first.left, y: 0, width: span.right - span.left, height: height)
            }
            selectionLayer.isHidden = false
        } else {
            selectionLayer.isHidden = true
        }
    }
}
