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
/// there, so `de` gives QWERTZ with ü, ö and ä, and `fr` gives AZERTY. Shift shows the
/// shifted level for one character. The symbols pages hold the digits and the layout's
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
    /// Letter keys by row, plain and shifted, from the layout.
    public let letterRows: [[(plain: String, shifted: String)]]
    /// The symbols of the symbols pages, in layout order (digits excepted).
    public let symbols: [String]

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
    /// Evdev key codes holding digits and punctuation: the number row and the keys beside
    /// the letters.
    static let symbolKeys: [UInt32] = Array(2...13) + [26, 27, 39, 40, 41, 43, 51, 52, 53]
    /// The symbols shown on one symbols page (two rows).
    static let symbolsPerPage = 19

    /// A keyboard on `context`'s screen labelled from `layout` (the US letters when nil).
    init(context: SceneContext, layout: Keyboard?) {
        self.context = context
        letterRows = Self.letterRows(from: layout)
        symbols = Self.symbols(from: layout)
        layer = Layer()
        layer.name = "on-screen-keyboard"
        layer.backgroundColor = Self.background
        layer.zPosition = 1_000_000
        layer.isHidden = true
        buildKeys()
    }

    /// The letter keys of `layout`: in each PC letter row, the keys that type a letter.
    public static func letterRows(from layout: Keyboard?) -> [[(plain: String, shifted: String)]] {
        let rows = letterKeyRows.map { row in
            row.compactMap { key -> (plain: String, shifted: String)? in
                guard let plain = layout?.character(forKey: key, level: 0), plain.allSatisfy(\.isLetter) else { return nil }
                return (plain, layout?.character(forKey: key, level: 1) ?? plain.uppercased())
            }
        }
        guard rows.allSatisfy({ !$0.isEmpty }) else {
            return ["qwertyuiop", "asdfghjkl", "zxcvbnm"].map { $0.map { (String($0), $0.uppercased()) } }
        }
        return rows
    }

    /// The layout's punctuation, both levels, each once, in key order.
    public static func symbols(from layout: Keyboard?) -> [String] {
        var seen: Set<String> = []
        var out: [String] = []
        for level in [UInt32(1), 0] {
            for key in symbolKeys {
                guard let c = layout?.character(forKey: key, level: level), !c.contains(where: { $0.isLetter || $0.isNumber }),
                      c != " ", seen.insert(c).inserted else { continue }
                out.append(c)
            }
        }
        return out.isEmpty ? "!@#$%^&*()-_=+[]{};:'\",.<>/?".map(String.init) : out
    }

    /// The number of symbols pages.
    public var symbolPageCount: Int { max(1, (symbols.count + Self.symbolsPerPage - 1) / Self.symbolsPerPage) }

    /// The panel's size: the screen's width, four rows of keys no taller than 1.15 key
    /// widths and no more than 42 % of the screen's height together.
    var panelSize: Size {
        let screen = context.screenSize
        let widest = letterRows.map(\.count).max() ?? 10
        let unit = screen.width / Double(max(10, widest, (letterRows.last?.count ?? 7) + 3))
        let rowHeight = min(unit * 1.15, screen.height * 0.42 / 4)
        return Size(width: screen.width, height: (rowHeight * 4).rounded())
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
        let rowHeight = size.height / 4
        var rows: [[(action: Action, label: String, width: Double, special: Bool)]] = []
        let symbolPages = symbolPageCount
        if page == 0 {
            for (r, row) in letterRows.enumerated() {
                var keys = row.map { letter -> (action: Action, label: String, width: Double, special: Bool) in
                    let text = isShifted ? letter.shifted : letter.plain
                    return (.type(text), text, 1, false)
                }
                if r == letterRows.count - 1 {
                    keys.insert((.shift, "\u{21E7}", 1.5, !isShifted), at: 0)
                    keys.append((.backspace, "\u{232B}", 1.5, true))
                }
                rows.append(keys)
            }
            rows.append([(.page(1), "?123", 1.5, true), (.type(" "), " ", 5.5, false), (.commit, "\u{21B5}", 2, true)])
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
