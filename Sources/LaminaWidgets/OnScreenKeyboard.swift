import LaminaAnimation
import LaminaGeometry
import LaminaInput
import LaminaLayers
import LaminaRuntime

/// The keyboard a touch kiosk types with (decision 111): a panel of keys that slides up from
/// the bottom edge while a ``TextField`` has focus and types into it.
///
/// The letter keys come from the xkb layout configured (`[input] keyboard_layout`): each
/// letter key of the three letter rows of a PC keyboard is labelled with what it types
/// there, so `de` gives QWERTZ with ü, ö and ä, `fr` AZERTY, `ara` Arabic, `il` Hebrew, `ru`
/// Russian, `gr` Greek and `th` Thai (a key that types a combining vowel or tone mark shows
/// it on a dotted circle). Shift shows the shifted level for one character. With several
/// layouts (`us,ara,il`), a key beside the space bar names the next one and switches to it;
/// the space bar names the one shown. The symbols pages hold the digits and the layout's
/// punctuation, both levels. A key lights while a finger is on it and types when the
/// finger lifts on it; sliding onto another key moves the light. Return ends editing and
/// the keyboard slides away.
public final class OnScreenKeyboard: TextInputPanel {
    /// What a key does.
    public enum Action: Hashable, Sendable {
        /// Types these characters.
        case type(String)
        /// Shows the shifted letters for one character (or the plain ones again).
        case shift
        /// Backspace.
        case backspace
        /// Return: ends editing.
        case commit
        /// Shows the page with this number (0 letters, 1… symbols).
        case page(Int)
        /// Shows the next layout's letters (with several layouts configured).
        case nextLayout
    }

    /// One layout's keys: its letters and symbols, and its names.
    public struct LayoutKeys {
        /// The keymap's name for it ("Arabic"), shown on the space bar.
        public var name: String
        /// Its name in the configuration, upper case ("ARA"), shown on the key that selects it.
        public var shortName: String
        /// Letter keys by row, plain and shifted.
        public var letterRows: [[(plain: String, shifted: String)]]
        /// The symbols of the symbols pages, in layout order (digits excepted).
        public var symbols: [String]
    }

    /// One key: what it does, its label and where it is in the panel.
    public struct Key {
        /// What pressing it does.
        public var action: Action
        /// What its cap shows.
        public var label: String
        /// In the panel's coordinates.
        public var frame: Rect
        /// Drawn darker, as shift, backspace and the page keys are.
        public var isSpecial: Bool
    }

    /// Seconds the panel takes to slide up or away.
    public static let slideDuration = 0.25

    /// The panel: the keys are its sublayers.
    public let layer: Layer
    /// The page shown: 0 the letters, 1 and up the symbols.
    public private(set) var page = 0
    /// True while the letters show their shifted level.
    public private(set) var isShifted = false
    /// True from `show()` until `hide()`.
    public private(set) var isShown = false
    /// The keys of the page shown.
    public private(set) var keys: [Key] = []
    /// Every configured layout's keys, in the configuration's order.
    public let layouts: [LayoutKeys]
    /// The layout shown.
    public private(set) var layoutIndex = 0
    /// Letter keys by row, plain and shifted, of the layout shown.
    public var letterRows: [[(plain: String, shifted: String)]] { layouts[layoutIndex].letterRows }
    /// The symbols of the symbols pages of the layout shown, in layout order (digits excepted).
    public var symbols: [String] { layouts[layoutIndex].symbols }

    /// The context of the field that made the keyboard: the screen, touches and typing.
    private let context: SceneContext
    private var keyLayers: [Layer] = []
    /// The key under each finger on the panel, by touch slot.
    private var pressed: [Int: Int] = [:]

    static let background = Color(red8: 0x1C, green8: 0x1D, blue8: 0x21)
    static let keyColor = Color(red8: 0x4A, green8: 0x4B, blue8: 0x53)
    static let specialKeyColor = Color(red8: 0x30, green8: 0x31, blue8: 0x37)
    static let pressedColor = Color(red8: 0x8C, green8: 0x8D, blue8: 0x98)
    static let commitColor = Color(red8: 0x3B, green8: 0x82, blue8: 0xF6)

    /// Evdev key codes of a PC keyboard's letter rows (Q…, A…, Z… and the keys after them).
    static let letterKeyRows: [[UInt32]] = [Array(16...27), Array(30...41) + [43], Array(44...53)]
    /// Evdev key codes of the number row (1… and the two keys after 0): a row of letters too
    /// in layouts that type letters there (Thai).
    static let numberRowKeys: [UInt32] = Array(2...13)
    /// How many keys of the number row must type letters for it to be a letter row.
    static let letterNumberRowMinimum = 8
    /// Evdev key codes holding digits and punctuation: the number row and the keys beside
    /// the letters.
    static let symbolKeys: [UInt32] = Array(2...13) + [26, 27, 39, 40, 41, 43, 51, 52, 53]
    /// The symbols shown on one symbols page (two rows).
    static let symbolsPerPage = 19

    /// A keyboard on `context`'s screen labelled from `layout` (the US letters when nil).
    init(context: SceneContext, layout: Keyboard?) {
        self.context = context
        let names = (layout?.layout ?? "us").split(separator: ",", omittingEmptySubsequences: false).map { $0.uppercased() }
        layouts = (0..<max(layout?.layoutCount ?? 1, 1)).map { k in
            LayoutKeys(name: layout?.layoutName(k) ?? "English (US)", shortName: k < names.count ? names[k] : "\(k + 1)",
                       letterRows: Self.letterRows(from: layout, layout: k), symbols: Self.symbols(from: layout, layout: k))
        }
        layer = Layer()
        layer.name = "on-screen-keyboard"
        layer.backgroundColor = Self.background
        layer.zPosition = 1_000_000
        layer.isHidden = true
        buildKeys()
    }

    /// The letter keys of layout `index` of `keymap`: in each PC letter row, the keys that
    /// type a letter or a combining mark (Thai vowels and tone marks, Arabic harakat).
    /// The number row is a letter row above them when most of its keys type letters (Thai).
    public static func letterRows(from keymap: Keyboard?, layout index: Int = 0) -> [[(plain: String, shifted: String)]] {
        func letters(_ row: [UInt32]) -> [(plain: String, shifted: String)] {
            row.compactMap { key -> (plain: String, shifted: String)? in
                guard let plain = keymap?.character(forKey: key, level: 0, layout: index), isLetterOrMark(plain) else { return nil }
                return (plain, keymap?.character(forKey: key, level: 1, layout: index) ?? plain.uppercased())
            }
        }
        var rows = letterKeyRows.map(letters)
        let numberRow = letters(numberRowKeys)
        if numberRow.count >= letterNumberRowMinimum { rows.insert(numberRow, at: 0) }
        guard rows.allSatisfy({ !$0.isEmpty }) else {
            return ["qwertyuiop", "asdfghjkl", "zxcvbnm"].map { $0.map { (String($0), $0.uppercased()) } }
        }
        return rows
    }

    /// True for a letter, or characters that are all letters and combining marks.
    static func isLetterOrMark(_ text: String) -> Bool {
        !text.isEmpty && text.unicodeScalars.allSatisfy {
            switch $0.properties.generalCategory {
            case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
                 .nonspacingMark, .spacingMark, .enclosingMark: true
            default: false
            }
        }
    }

    /// How a key cap shows `text`: a combining mark alone stands on a dotted circle (U+25CC).
    static func capLabel(_ text: String) -> String {
        guard let first = text.unicodeScalars.first else { return text }
        switch first.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark: return "\u{25CC}" + text
        default: return text
        }
    }

    /// The punctuation of layout `index` of `keymap`, both levels, each once, in key order.
    public static func symbols(from keymap: Keyboard?, layout index: Int = 0) -> [String] {
        var seen: Set<String> = []
        var out: [String] = []
        for level in [UInt32(1), 0] {
            for key in symbolKeys {
                guard let c = keymap?.character(forKey: key, level: level, layout: index),
                      !c.contains(where: { $0.isLetter || $0.isNumber }) && !isLetterOrMark(c),
                      c != " ", seen.insert(c).inserted else { continue }
                out.append(c)
            }
        }
        return out.isEmpty ? "!@#$%^&*()-_=+[]{};:'\",.<>/?".map(String.init) : out
    }

    /// The number of symbols pages.
    public var symbolPageCount: Int { max(1, (symbols.count + Self.symbolsPerPage - 1) / Self.symbolsPerPage) }

    /// Rows of keys on the panel: the letter rows and the space bar's (four, or five for a
    /// layout with a row of letters on its number keys).
    var rowCount: Int { max(4, (layouts.map(\.letterRows.count).max() ?? 3) + 1) }

    /// The panel's size: the screen's width, rows of keys no taller than 1.15 key widths and
    /// no more than 42 % of the screen's height together (four rows; a fifth adds a quarter).
    var panelSize: Size {
        let screen = context.screenSize
        // The widest of every layout's rows, so switching layouts keeps the panel's size.
        let widest = layouts.flatMap { $0.letterRows.map(\.count) }.max() ?? 10
        let lastRow = layouts.compactMap { $0.letterRows.last?.count }.max() ?? 7
        let unit = screen.width / Double(max(10, widest, lastRow + 3))
        let rowHeight = min(unit * 1.15, screen.height * 0.42 / 4)
        return Size(width: screen.width, height: (rowHeight * Double(rowCount)).rounded())
    }

    /// Slides the panel up (from below the bottom edge) and takes the touches on it.
    package func show() {
        guard !isShown else { return }
        isShown = true
        if layer.superlayer !== context.rootLayer { context.rootLayer.addSublayer(layer) }
        page = 0
        isShifted = false
        buildKeys()
        context.removeTouchHandlers(of: layer)
        context.addTouchHandler(to: layer) { [unowned self] touch in self.touched(touch) }
        slide(shown: true)
        let size = panelSize, screen = context.screenSize
        context.keyboardMoved(to: Rect(x: 0, y: screen.height - size.height, width: size.width, height: size.height))
    }

    /// Slides the panel away below the bottom edge.
    package func hide() {
        guard isShown else { return }
        isShown = false
        page = 0                                            // the letters, the next time it shows
        isShifted = false
        buildKeys()
        context.removeTouchHandlers(of: layer)
        slide(shown: false)
        context.keyboardMoved(to: nil)
    }

    private func slide(shown: Bool) {
        let size = panelSize, screen = context.screenSize
        let up = Point(x: screen.width / 2, y: screen.height - size.height / 2)
        let down = Point(x: screen.width / 2, y: screen.height + size.height / 2)
        let from = layer.isHidden ? down : (layer.presentation()?.position ?? layer.position)
        Transaction.begin()
        Transaction.disableActions = true
        layer.isHidden = false
        layer.position = shown ? up : down
        var animation = BasicAnimation(keyPath: "position", from: .point(from), to: .point(shown ? up : down),
                                       duration: Self.slideDuration)
        animation.timingFunction = shown ? .easeOut : .easeIn
        layer.add(animation, forKey: "slide") { [weak self] finished in
            guard finished, let self, !self.isShown else { return }
            Transaction.begin()
            Transaction.disableActions = true
            self.layer.isHidden = true                      // off screen: nothing to draw or hit
            Transaction.commit()
        }
        Transaction.commit()
    }

    /// The key at `point` (the panel's coordinates), if any.
    public func keyIndex(at point: Point) -> Int? {
        keys.indices.first { keys[$0].frame.contains(point) }
    }

    /// Carries out `key`'s action.
    public func press(_ key: Key) {
        switch key.action {
        case .type(let text):
            context.type(.insert(text))
            if isShifted && page == 0 {
                isShifted = false
                buildKeys()
            }
        case .shift:
            isShifted.toggle()
            buildKeys()
        case .backspace:
            context.type(.deleteBackward)
        case .commit:
            context.type(.commit)
        case .page(let next):
            page = next
            isShifted = false
            buildKeys()
        case .nextLayout:
            layoutIndex = (layoutIndex + 1) % layouts.count
            page = 0
            isShifted = false
            buildKeys()
        }
    }

    private func touched(_ touch: Touch) {
        let point = touch.location(in: layer)
        switch touch.phase {
        case .began, .moved, .stationary:
            if let index = keyIndex(at: point) { pressed[touch.slot] = index }
        case .ended:
            // A lift in the gap between keys types the key last lit.
            let lastLit = pressed.removeValue(forKey: touch.slot)
            if let index = keyIndex(at: point) ?? lastLit { press(keys[index]) }
        case .cancelled:
            pressed.removeValue(forKey: touch.slot)
        }
        paintKeys()
    }

    /// The keys of the page shown, laid out in four rows.
    func pageKeys() -> [Key] {
        let size = panelSize
        var rows: [[(action: Action, label: String, width: Double, special: Bool)]] = []
        let symbolPages = symbolPageCount
        if page == 0 {
            for (r, row) in letterRows.enumerated() {
                var keys = row.map { letter -> (action: Action, label: String, width: Double, special: Bool) in
                    let text = isShifted ? letter.shifted : letter.plain
                    return (.type(text), Self.capLabel(text), 1, false)
                }
                if r == letterRows.count - 1 {
                    keys.insert((.shift, "\u{21E7}", 1.5, !isShifted), at: 0)
                    keys.append((.backspace, "\u{232B}", 1.5, true))
                }
                rows.append(keys)
            }
            if layouts.count > 1 {
                let next = layouts[(layoutIndex + 1) % layouts.count].shortName
                rows.append([(.page(1), "?123", 1.5, true), (.nextLayout, next, 1.5, true),
                             (.type(" "), layouts[layoutIndex].name, 4, false), (.commit, "\u{21B5}", 2, true)])
            } else {
                rows.append([(.page(1), "?123", 1.5, true), (.type(" "), " ", 5.5, false), (.commit, "\u{21B5}", 2, true)])
            }
        } else {
            rows.append((0...9).map { d in (.type(String((d + 1) % 10)), String((d + 1) % 10), 1, false) })
            let chunk = Array(symbols.dropFirst((page - 1) * Self.symbolsPerPage).prefix(Self.symbolsPerPage))
            rows.append(chunk.prefix(10).map { (.type($0), $0, 1, false) })
            var last = chunk.dropFirst(10).map { (action: Action.type($0), label: $0, width: 1.0, special: false) }
            let nextPage = page % symbolPages + 1
            if symbolPages > 1 { last.insert((.page(nextPage), "\(page)/\(symbolPages)", 1.5, true), at: 0) }
            last.append((.backspace, "\u{232B}", 1.5, true))
            rows.append(last)
            rows.append([(.page(0), "ABC", 1.5, true), (.type(" "), " ", 5.5, false), (.commit, "\u{21B5}", 2, true)])
        }
        let rowHeight = size.height / Double(rows.count)
        let units = rows.map { $0.reduce(0) { $0 + $1.width } }
        let unit = size.width / max(10, units.max() ?? 10)
        let gap = (unit * 0.08).rounded()
        var keys: [Key] = []
        for (r, row) in rows.enumerated() {
            var x = (size.width - units[r] * unit) / 2
            for key in row {
                let frame = Rect(x: x + gap / 2, y: Double(r) * rowHeight + gap / 2,
                                 width: key.width * unit - gap, height: rowHeight - gap)
                keys.append(Key(action: key.action, label: key.label, frame: frame, isSpecial: key.special))
                x += key.width * unit
            }
        }
        return keys
    }

    /// Rebuilds the key layers for the page shown.
    private func buildKeys() {
        Transaction.begin()
        Transaction.disableActions = true
        defer { Transaction.commit() }
        let size = panelSize
        layer.bounds = Rect(x: 0, y: 0, width: size.width, height: size.height)
        keys = pageKeys()
        pressed.removeAll()                                 // the old page's keys are gone
        for old in keyLayers { old.removeFromSuperlayer() }
        keyLayers = keys.map { key in
            let cap = Layer()
            cap.frame = key.frame
            cap.cornerRadius = (key.frame.size.height * 0.12).rounded()
            let label = TextLayer()
            label.string = key.label
            label.fontSize = (key.frame.size.height * 0.42).rounded()
            label.alignmentMode = .center
            label.truncationMode = .end
            label.bounds = Rect(x: 0, y: 0, width: key.frame.size.width, height: label.fontSize * 1.2)
            label.position = Point(x: key.frame.size.width / 2, y: key.frame.size.height / 2)
            cap.addSublayer(label)
            layer.addSublayer(cap)
            return cap
        }
        paintKeys()
    }

    /// Colours the keys: lit under a finger, the Return key blue, the others by kind.
    private func paintKeys() {
        Transaction.begin()
        Transaction.disableActions = true
        defer { Transaction.commit() }
        let lit = Set(pressed.values)
        for (index, cap) in keyLayers.enumerated() {
            let key = keys[index]
            cap.backgroundColor = lit.contains(index) ? Self.pressedColor
                : key.action == .commit ? Self.commitColor
                : key.isSpecial ? Self.specialKeyColor : Self.keyColor
        }
    }
}
