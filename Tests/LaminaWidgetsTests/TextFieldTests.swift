import LaminaRaster
import LaminaDisplay
import LaminaGeometry
import LaminaInput
import LaminaLayers
import LaminaRuntime
import LaminaTestSupport
@testable import LaminaWidgets
import Testing

/// A scene with one text field, 400x60 at (120, 70) on a 640x480 screen.
final class TextFieldScene: Scene {
    static let name = "text-field"
    let field: TextField
    var commits: [String] = []
    var keyboardFrames: [Rect?] = []
    let context: SceneContext

    init(context: SceneContext, settings: NoSettings) {
        self.context = context
        var style = TextField.Style()
        style.fontSize = 30
        style.placeholder = "Name"
        field = TextField(context: context, size: Size(width: 400, height: 60), text: "hello", maximumLength: 64, style: style)
        field.layer.position = Point(x: 320, y: 100)
        context.rootLayer.addSublayer(field.layer)
        field.onCommit = { [unowned self] field in self.commits.append(field.text) }
        context.onKeyboardFrameChange { [unowned self] frame in self.keyboardFrames.append(frame) }
    }
}

@Suite("Text fields and the on-screen keyboard", .serialized)
struct TextFieldTests {
    private func makeScene(layout: String = "us") throws -> (DummyDisplayRig, Runtime, TextFieldScene) {
        let rig = try DummyDisplayRig(width: 640, height: 480, refresh: 60, start: 0)
        let runtime = rig.makeRuntime()
        runtime.keyboard = try Keyboard(layout: layout)
        let scene = try runtime.install(TextFieldScene.self, settings: NoSettings())
        #expect(runtime.run(untilSettled: true) == .settled)
        return (rig, runtime, scene)
    }

    /// Plays `script` (touch script lines, times from now) until everything settles, or for `seconds`.
    private func play(_ script: String, on runtime: Runtime, _ rig: DummyDisplayRig, for seconds: Double? = nil) throws {
        runtime.addTouchSource(ScriptedTouchSource(script: try TouchScript(parsing: script), start: rig.clock.now))
        if let seconds { runtime.run(exitAfter: seconds, untilSettled: false) } else { runtime.run(untilSettled: true) }
    }

    /// Where the key labelled `label` is on the screen (its centre).
    private func keyCentre(_ label: String, _ runtime: Runtime) throws -> String {
        let keyboard = try #require(runtime.onScreenKeyboard)
        let key = try #require(keyboard.keys.first { $0.label == label })
        let origin = keyboard.layer.frame.origin
        return "\(Int(origin.x + key.frame.midX)),\(Int(origin.y + key.frame.origin.y + key.frame.size.height / 2))"
    }

    @Test("a tap gives the field focus and puts the caret at the nearest boundary; the keyboard slides up from below the edge")
    func tapFocuses() throws {
        let (rig, runtime, scene) = try makeScene()
        #expect(!scene.field.isFocused && runtime.onScreenKeyboard == nil)
        let positions = scene.field.label.caretPositions()
        let x = 120 + (positions[2] * 0.7 + positions[3] * 0.3)          // nearer boundary 2
        try play("at 0.1 tap \(Int(x.rounded())),100", on: runtime, rig, for: 0.2)
        #expect(scene.field.isFocused && scene.field.editing.caret == 2)
        let keyboard = try #require(runtime.onScreenKeyboard)
        #expect(keyboard.isShown)
        // Sliding: the panel starts below the screen and ends flush with the bottom edge.
        let start = try #require(keyboard.layer.presentation()?.position.y)
        runtime.run(exitAfter: OnScreenKeyboard.slideDuration + 0.1, untilSettled: false)
        let end = try #require(keyboard.layer.presentation()?.position.y)
        #expect(start > end)
        #expect(abs(keyboard.layer.frame.maxY - 480) < 1e-9 && keyboard.layer.frame.size.width == 640)
        #expect(!scene.field.caretLayer.isHidden || !scene.field.isCaretOn)
    }

    @Test("the keyboard's frame is published: where it will stand as it slides up, nil as it goes (issue 30)")
    func keyboardFrame() throws {
        let (rig, runtime, scene) = try makeScene()
        #expect(scene.context.keyboardFrame == nil)
        try play("at 0.1 tap 320,100", on: runtime, rig, for: 0.6)
        let keyboard = try #require(runtime.onScreenKeyboard)
        let frame = try #require(scene.context.keyboardFrame)
        #expect(frame == keyboard.layer.frame && frame.maxY == 480 && frame.width == 640)
        #expect(scene.keyboardFrames == [frame])
        scene.field.resignFocus()
        #expect(scene.context.keyboardFrame == nil && scene.keyboardFrames == [frame, nil])
    }

    @Test("the keys type into the field: letters, one-shot shift, digits from the symbols page, space, backspace; Return commits and the keyboard slides away")
    func typing() throws {
        let (rig, runtime, scene) = try makeScene()
        scene.field.text = ""
        try play("at 0.1 tap 320,100", on: runtime, rig, for: 0.6)
        // One key at a time: a page key relabels the keys.
        func tap(_ labels: String...) throws {
            for label in labels { try play("at 0.1 tap \(try keyCentre(label, runtime))", on: runtime, rig, for: 0.3) }
        }
        try tap("\u{21E7}", "H", "i")                 // shift shows the capitals; after one it is off
        #expect(scene.field.text == "Hi")
        try tap(" ", "?123", "4", "2", "\u{232B}")
        #expect(scene.field.text == "Hi 4")
        try play("at 0.1 tap \(try keyCentre("\u{21B5}", runtime))", on: runtime, rig)
        #expect(scene.commits == ["Hi 4"] && !scene.field.isFocused)
        let keyboard = try #require(runtime.onScreenKeyboard)
        #expect(!keyboard.isShown && keyboard.layer.isHidden && keyboard.page == 0)
        #expect(scene.field.caretLayer.isHidden)
    }

    @Test("a drag across the text selects it, hiding the caret; typing replaces the selection")
    func dragSelects() throws {
        let (rig, runtime, scene) = try makeScene()
        scene.field.text = "hello world"
        try play("at 0.1 tap 320,100", on: runtime, rig, for: 0.3)
        let positions = scene.field.label.caretPositions()
        try play("at 0.1 drag \(Int(120 + positions[0] + 1)),100 \(Int(120 + positions[5] - 1)),100 over 0.3", on: runtime, rig, for: 0.6)
        #expect(scene.field.editing.selection == 0..<5)
        #expect(scene.field.caretLayer.isHidden && !scene.field.selectionLayer.isHidden)
        #expect(abs(scene.field.selectionLayer.frame.size.width - (positions[5] - positions[0])) < 1e-9)
        scene.field.apply(.insert("bye"))
        #expect(scene.field.text == "bye world" && scene.field.selectionLayer.isHidden)
    }

    @Test("a touch outside the field and the keyboard ends editing; a touch on the keyboard does not")
    func tapOutside() throws {
        let (rig, runtime, scene) = try makeScene()
        try play("at 0.1 tap 320,100", on: runtime, rig, for: 0.6)
        let keyboard = try #require(runtime.onScreenKeyboard)
        try play("at 0.1 tap \(Int(keyboard.layer.frame.origin.x + 2)),\(Int(keyboard.layer.frame.origin.y + 1))", on: runtime, rig, for: 0.3)
        #expect(scene.field.isFocused && keyboard.isShown)
        try play("at 0.1 tap 320,200", on: runtime, rig)
        #expect(!scene.field.isFocused && !keyboard.isShown && keyboard.layer.isHidden)
    }

    @Test("the caret blinks, 0.5 s on and 0.5 s off, solid again after each edit; a focused field at rest draws about two frames a second")
    func blinking() throws {
        let (rig, runtime, scene) = try makeScene()
        try play("at 0.1 tap 320,100", on: runtime, rig, for: 0.6)   // settles the keyboard's slide
        let field = scene.field
        scene.field.apply(.insert("!"))
        let edited = rig.clock.now
        #expect(!field.caretLayer.isHidden)
        runtime.run(exitAfter: 0.45, untilSettled: false)
        #expect(!field.caretLayer.isHidden)
        runtime.run(exitAfter: 0.1, untilSettled: false)              // 0.55 s after the edit
        #expect(field.caretLayer.isHidden)
        runtime.run(exitAfter: 0.5, untilSettled: false)              // 1.05 s
        #expect(!field.caretLayer.isHidden)
        #expect(rig.clock.now - edited > 1.0)
        let frames = runtime.renderedFrames
        runtime.run(exitAfter: 10, untilSettled: false)
        #expect((19...21).contains(runtime.renderedFrames - frames))
    }

    @Test("text wider than the field scrolls to keep the caret inside; Home scrolls back")
    func scrolling() throws {
        let (rig, runtime, scene) = try makeScene()
        try play("at 0.1 tap 320,100", on: runtime, rig, for: 0.3)
        let field = scene.field
        #expect(!field.layer.masksToBounds)                          // a text that fits is not clipped
        for _ in 0..<40 { field.apply(.insert("m")) }
        #expect(field.scrollOffset > 0 && field.layer.masksToBounds)
        let caretX = field.caretLayer.position.x
        #expect(caretX > 0 && caretX < 400)
        #expect(abs(field.label.position.x + field.scrollOffset) < 1e-9)
        field.apply(.moveToStart)
        #expect(field.scrollOffset == 0 && field.caretLayer.position.x < 5)
    }

    /// The plain letters of each letter row of `layout`'s on-screen keyboard.
    private func rows(_ layout: String) throws -> [String] {
        OnScreenKeyboard.letterRows(from: try Keyboard(layout: layout)).map { $0.map(\.plain).joined() }
    }

    @Test("the letter keys follow the xkb layout: QWERTY, QWERTZ with umlauts, AZERTY")
    func layouts() throws {
        #expect(try rows("us") == ["qwertyuiop", "asdfghjkl", "zxcvbnm"])
        #expect(try rows("de") == ["qwertzuiopü", "asdfghjklöä", "yxcvbnm"])
        #expect(try rows("fr") == ["azertyuiop", "qsdfghjklmù", "wxcvbn"])
        let us = OnScreenKeyboard.letterRows(from: try Keyboard(layout: "us"))
        #expect(us[0][0].shifted == "Q")
        let symbols = OnScreenKeyboard.symbols(from: try Keyboard(layout: "us"))
        #expect(symbols.prefix(10) == ["!", "@", "#", "$", "%", "^", "&", "*", "(", ")"])
        #expect(Set(symbols).count == symbols.count && symbols.allSatisfy { !$0.contains(where: \.isLetter) })
    }

    @Test("the keys of every page sit inside the panel without overlapping, German layout included")
    func keyGeometry() throws {
        let (rig, runtime, scene) = try makeScene(layout: "de")
        try play("at 0.1 tap 320,100", on: runtime, rig, for: 0.6)
        let keyboard = try #require(runtime.onScreenKeyboard)
        var pages = 0
        let symbolPages = (1..<keyboard.symbolPageCount).map { "\($0)/\(keyboard.symbolPageCount)" }
        for page in [nil, "?123"] + symbolPages {
            if let page { try play("at 0.1 tap \(try keyCentre(page, runtime))", on: runtime, rig, for: 0.3) }
            let panel = keyboard.layer.bounds
            let keys = keyboard.keys
            #expect(keys.allSatisfy { panel.contains($0.frame.origin) && $0.frame.maxX <= panel.maxX && $0.frame.maxY <= panel.maxY })
            for (i, a) in keys.enumerated() {
                for b in keys[(i + 1)...] {
                    #expect(a.frame.maxX <= b.frame.minX || b.frame.maxX <= a.frame.minX
                            || a.frame.maxY <= b.frame.minY || b.frame.maxY <= a.frame.minY)
                }
            }
            pages += 1
        }
        #expect(pages >= 2 && scene.field.isFocused)
    }
}


extension TextFieldTests {
    @Test("the letter keys of Arabic, Hebrew, Russian, Greek and Thai are their xkb layouts' (Thai's number row too, its marks on a dotted circle)")
    func worldLayouts() throws {
        #expect(try rows("ara") == ["ضصثقفغعهخحجد", "شسيبلاتنمكطذ", "ئءؤر\u{FEFB}ىةوزظ"])
        #expect(try rows("il") == ["קראטוןםפ", "שדגכעיחלךף", "זסבהנמצתץ"])
        #expect(try rows("ru") == ["йцукенгшщзхъ", "фывапролджэё", "ячсмитьбю"])
        #expect(try rows("gr") == ["ςερτυθιοπ", "ασδφγηξκλ", "ζχψωβνμ"])
        #expect(try rows("th") == ["ๅภถุึคตจขช", "ๆไำพะัีรนยบล", "ฟหกดเ้่าสวงฃ", "ผปแอิืทมใฝ"])
        #expect(OnScreenKeyboard.capLabel("\u{E31}") == "\u{25CC}\u{E31}" && OnScreenKeyboard.capLabel("ก") == "ก")
    }

    @Test("with several layouts a key switches to the next; the space bar names the one shown; Arabic typed reads right to left")
    func switchingLayouts() throws {
        let (rig, runtime, scene) = try makeScene(layout: "us,ara,il")
        try play("at 0.1 tap 320,100", on: runtime, rig, for: 0.6)
        let keyboard = try #require(runtime.onScreenKeyboard)
        #expect(keyboard.layouts.map(\.shortName) == ["US", "ARA", "IL"])
        #expect(keyboard.keys.contains { $0.label == "English (US)" } && keyboard.keys.contains { $0.label == "ARA" })
        let size = keyboard.layer.bounds.size
        scene.field.text = ""
        try play("at 0.1 tap \(try keyCentre("ARA", runtime))", on: runtime, rig, for: 0.3)
        #expect(keyboard.layoutIndex == 1 && keyboard.keys.contains { $0.label == "Arabic" } && keyboard.keys.contains { $0.label == "IL" })
        #expect(keyboard.layer.bounds.size == size)
        for letter in ["م", "ر", "ح", "ب", "ا"] { try play("at 0.1 tap \(try keyCentre(letter, runtime))", on: runtime, rig, for: 0.2) }
        #expect(scene.field.text == "مرحبا")
        let line = try Font().layout(scene.field.text, size: scene.field.label.fontSize)
        #expect(line.direction == .rightToLeft)
        try play("at 0.1 tap \(try keyCentre("IL", runtime))", on: runtime, rig, for: 0.3)
        try play("at 0.1 tap \(try keyCentre("US", runtime))", on: runtime, rig, for: 0.3)
        #expect(keyboard.layoutIndex == 0 && keyboard.keys.contains { $0.label == "q" })
    }
}


extension TextFieldTests {
    @Test("the arrow keys move the caret in visual order: every press one boundary further across the screen, through changes of direction",
          arguments: ["abc אבג def", "שלום abc 123 עולם", "אבג"])
    func visualArrows(text: String) throws {
        let (rig, runtime, scene) = try makeScene()
        try play("at 0.1 tap 320,100", on: runtime, rig, for: 0.3)
        scene.field.text = text
        let positions = scene.field.label.caretPositions()
        func x() -> Double { positions[scene.field.editing.caret] }
        let distinct = Set(positions.map { ($0 * 1e6).rounded() }).count
        let leftmost = positions.indices.min { positions[$0] < positions[$1] }!
        scene.field.select(from: leftmost, to: leftmost)
        var xs = [x()]
        for _ in 0..<(distinct + 2) { scene.field.apply(.moveRight); xs.append(x()) }
        // Strictly rightwards until the right end, then it stays; every boundary's place visited.
        let moved = Array(xs.prefix(distinct))
        #expect(zip(moved, moved.dropFirst()).allSatisfy { $0 < $1 })
        #expect(xs.last == positions.max() && xs.suffix(3).allSatisfy { $0 == positions.max() })
        for _ in 0..<(distinct + 2) { scene.field.apply(.moveLeft) }
        #expect(x() == positions.min())
    }

    @Test("in Hebrew, Left moves on through the text and Right back; the text stands against the right edge")
    func rightToLeftField() throws {
        let (rig, runtime, scene) = try makeScene()
        try play("at 0.1 tap 320,100", on: runtime, rig, for: 0.3)
        scene.field.text = "אבג"
        scene.field.select(from: 0, to: 0)
        scene.field.apply(.moveLeft)
        #expect(scene.field.editing.caret == 1)
        scene.field.apply(.moveRight)
        #expect(scene.field.editing.caret == 0)
        let width = scene.field.label.caretPositions().max()!
        #expect(scene.field.textOrigin > 0)
        #expect(abs(scene.field.textOrigin + width + scene.field.caretLayer.bounds.width - scene.field.layer.bounds.width) < 1e-9)
    }

    @Test("a selection across a change of direction is drawn as the pieces it covers on screen")
    func bidiSelection() throws {
        let (rig, runtime, scene) = try makeScene()
        try play("at 0.1 tap 320,100", on: runtime, rig, for: 0.3)
        scene.field.text = "abc אבג def"
        // "c", the space, "א" and "ב": on screen "c ", then "בא" at the right of the Hebrew word.
        scene.field.select(from: 2, to: 6)
        let spans = scene.field.label.selectionSpans(characters: 2..<6)
        #expect(spans.count == 2)
        let font = try Font()
        let expected = ["c", " ", "א", "ב"].reduce(0.0) { $0 + font.layout($1, size: 30).width }
        #expect(abs(spans.reduce(0.0) { $0 + $1.right - $1.left } - expected) < 1e-6)
        #expect(scene.field.selectionLayer.sublayers.count == 2)
    }
}
