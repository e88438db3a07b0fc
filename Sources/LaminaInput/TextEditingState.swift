/// A one-line text being edited: the text, and the selection in it (an empty selection is the
/// caret). Positions count characters (grapheme clusters), so the caret never lands inside
/// an "é" typed as e + combining accent, and Backspace removes what the user sees as one.
///
/// It is the model under ``TextField`` and the on-screen keyboard, with no layers: typing
/// replaces the selection, Backspace and Delete remove the selection or one character,
/// the arrows and Home/End collapse and move the caret, and the text never grows past
/// `maximumLength` characters.
public struct TextEditingState: Hashable, Sendable {
    /// What applying an input did.
    public enum Outcome: Hashable, Sendable {
        /// The text changed.
        case edited
        /// Only the selection moved.
        case moved
        /// Nothing changed (a full field, Backspace at the start, a move past the end).
        case unchanged
        /// Return: editing is done.
        case committed
        /// Escape: editing is abandoned.
        case cancelled
    }

    /// The text.
    public private(set) var text: String
    /// The selection, in characters; empty when it is the caret.
    public private(set) var selection: Range<Int>
    /// The most characters the text holds; typing into a full text does nothing.
    public let maximumLength: Int

    /// `text` (cut to `maximumLength` characters) with the caret at its end.
    public init(text: String = "", maximumLength: Int = 256) {
        precondition(maximumLength >= 0, "a text's maximum length is not negative")
        self.maximumLength = maximumLength
        self.text = String(text.prefix(maximumLength))
        let end = self.text.count
        selection = end..<end
    }

    /// The caret's position: where typing goes (the selection's end).
    public var caret: Int { selection.upperBound }
    /// The number of characters.
    public var count: Int { text.count }
    /// The selected characters.
    public var selectedText: Substring { text[index(selection.lowerBound)..<index(selection.upperBound)] }

    /// Replaces the whole text (cut to `maximumLength`); the caret goes to its end.
    public mutating func setText(_ newText: String) {
        self = TextEditingState(text: newText, maximumLength: maximumLength)
    }

    /// Selects from `anchor` to `head` (either order), each clamped into the text; equal
    /// positions place the caret.
    public mutating func select(from anchor: Int, to head: Int) {
        let a = clamp(anchor), b = clamp(head)
        selection = min(a, b)..<max(a, b)
    }

    /// Places the caret at `position`, clamped into the text.
    public mutating func placeCaret(at position: Int) {
        select(from: position, to: position)
    }

    /// Applies one typed input.
    @discardableResult
    public mutating func apply(_ input: TextInput) -> Outcome {
        switch input {
        case .insert(let characters):
            return replaceSelection(with: characters)
        case .deleteBackward:
            if !selection.isEmpty { return replaceSelection(with: "") }
            guard caret > 0 else { return .unchanged }
            selection = (caret - 1)..<caret
            return replaceSelection(with: "")
        case .deleteForward:
            if !selection.isEmpty { return replaceSelection(with: "") }
            guard caret < count else { return .unchanged }
            selection = caret..<(caret + 1)
            return replaceSelection(with: "")
        case .moveBackward, .moveLeft:
            return move(to: selection.isEmpty ? caret - 1 : selection.lowerBound)
        case .moveForward, .moveRight:
            return move(to: selection.isEmpty ? caret + 1 : selection.upperBound)
        case .moveToStart:
            return move(to: 0)
        case .moveToEnd:
            return move(to: count)
        case .commit:
            return .committed
        case .cancel:
            return .cancelled
        }
    }

    /// Replaces the selection with `characters` and puts the caret after them; an insertion
    /// that would pass `maximumLength` is refused whole (a paste is not half-typed).
    private mutating func replaceSelection(with characters: String) -> Outcome {
        let inserted = characters.count
        guard count - selection.count + inserted <= maximumLength else { return .unchanged }
        guard inserted > 0 || !selection.isEmpty else { return .unchanged }
        let start = index(selection.lowerBound)
        // Characters typed next to existing ones can merge with them (a combining accent
        // after a letter), so the caret goes after what the text before it became.
        let caret = (String(text[..<start]) + characters).count
        text.replaceSubrange(start..<index(selection.upperBound), with: characters)
        selection = caret..<caret
        return .edited
    }

    /// Places the caret at `position` (a move by the layout: a visual arrow key), saying
    /// whether it moved.
    @discardableResult
    public mutating func move(to position: Int) -> Outcome {
        let before = selection
        placeCaret(at: position)
        return selection == before ? .unchanged : .moved
    }

    private func clamp(_ position: Int) -> Int { min(max(position, 0), count) }
    private func index(_ offset: Int) -> String.Index { text.index(text.startIndex, offsetBy: offset) }
}
