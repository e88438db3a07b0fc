import LaminaGeometry
import LaminaInput
import LaminaLayers
import LaminaRaster
import Testing

@Suite("Text editing state")
struct TextEditingStateTests {
    @Test("typing replaces the selection and leaves the caret after it; Backspace and Delete take the selection or one character")
    func editing() {
        var state = TextEditingState(text: "hello world")
        #expect(state.caret == 11 && state.selection.isEmpty)
        state.select(from: 5, to: 0)                                   // either order
        #expect(state.selection == 0..<5 && state.selectedText == "hello")
        #expect(state.apply(.insert("bye")) == .edited)
        #expect(state.text == "bye world" && state.selection == 3..<3)
        #expect(state.apply(.deleteBackward) == .edited && state.text == "by world" && state.caret == 2)
        #expect(state.apply(.deleteForward) == .edited && state.text == "byworld" && state.caret == 2)
        state.select(from: 2, to: 7)
        #expect(state.apply(.deleteForward) == .edited && state.text == "by" && state.caret == 2)
        state.placeCaret(at: 0)
        #expect(state.apply(.deleteBackward) == .unchanged && state.text == "by")
        state.placeCaret(at: 99)                                       // clamped
        #expect(state.caret == 2)
        #expect(state.apply(.deleteForward) == .unchanged)
        #expect(state.apply(.commit) == .committed && state.apply(.cancel) == .cancelled && state.text == "by")
    }

    @Test("the arrows collapse a selection to its side, then move by one character; Home and End; no move past either end")
    func moving() {
        var state = TextEditingState(text: "abcdef")
        state.select(from: 2, to: 4)
        #expect(state.apply(.moveBackward) == .moved && state.selection == 2..<2)
        state.select(from: 2, to: 4)
        #expect(state.apply(.moveForward) == .moved && state.selection == 4..<4)
        #expect(state.apply(.moveForward) == .moved && state.caret == 5)
        #expect(state.apply(.moveToStart) == .moved && state.caret == 0)
        #expect(state.apply(.moveBackward) == .unchanged && state.caret == 0)
        #expect(state.apply(.moveToEnd) == .moved && state.caret == 6)
        #expect(state.apply(.moveForward) == .unchanged && state.caret == 6)
    }

    @Test("positions count characters: an accent typed as a combining mark is one character with its letter")
    func graphemes() {
        var state = TextEditingState(text: "cafe\u{301}!")                    // "café!" with a combining acute
        #expect(state.count == 5 && state.caret == 5)
        state.placeCaret(at: 4)
        #expect(state.apply(.deleteBackward) == .edited && state.text == "caf!")
        state.placeCaret(at: 3)
        #expect(state.apply(.insert("e")) == .edited && state.caret == 4)
        // A combining mark typed after a letter merges with it: the count stays, the caret
        // stays after the merged character.
        #expect(state.apply(.insert("\u{300}")) == .edited && state.text == "cafe\u{300}!" && state.caret == 4 && state.count == 5)
    }

    @Test("a full text takes no more; an insertion that would overflow is refused whole; replacing a selection makes room")
    func maximumLength() {
        var state = TextEditingState(text: "abcdefgh", maximumLength: 5)
        #expect(state.text == "abcde" && state.caret == 5)             // cut at creation
        #expect(state.apply(.insert("x")) == .unchanged && state.text == "abcde")
        state.select(from: 1, to: 3)
        #expect(state.apply(.insert("xyz")) == .unchanged)              // 5 − 2 + 3 = 6
        #expect(state.apply(.insert("xy")) == .edited && state.text == "axyde")
        state.setText("0123456789")
        #expect(state.text == "01234" && state.caret == 5)
    }

    @Test("a text layer's caret positions: one per boundary, rising, from the left end to the line's advance width; alignment shifts them")
    func caretPositions() throws {
        let font = try Font()
        let layer = TextLayer()
        layer.font = font
        layer.fontSize = 30
        layer.string = "Wave hi"
        layer.bounds = Rect(x: 0, y: 0, width: 400, height: 40)
        let line = font.layout("Wave hi", size: 30)
        let positions = layer.caretPositions()
        #expect(positions.count == 8 && positions.first == 0)
        #expect(abs(positions.last! - line.width) < 1e-9)
        #expect(zip(positions, positions.dropFirst()).allSatisfy { $0 < $1 })
        // Each boundary is the pen position of the glyph after it (kerning included), and
        // the end of a prefix is that prefix's own width.
        #expect(abs(positions[1] - line.glyphs[1].x) < 1e-9)
        #expect(abs(positions[4] - font.layout("Wave", size: 30).width) < 1e-9)
        layer.alignmentMode = .center
        let centred = layer.caretPositions()
        #expect(abs(centred[0] - (400 - line.width) / 2) < 1e-9)
        // A tap lands on the nearer boundary.
        let mid = (centred[2] + centred[3]) / 2
        #expect(layer.caretIndex(nearestTo: mid - 0.5) == 2 && layer.caretIndex(nearestTo: mid + 0.5) == 3)
        #expect(layer.caretIndex(nearestTo: -100) == 0 && layer.caretIndex(nearestTo: 1000) == 7)
    }
}
