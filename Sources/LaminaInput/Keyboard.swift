import CXKBCommon

/// What a key press means for text entry.
public enum TextInput: Hashable, Sendable {
    /// Characters to insert (the keymap's UTF-8 for the key with the modifiers held).
    case insert(String)
    /// Backspace: delete the character before the caret.
    case deleteBackward
    /// Delete: delete the character after the caret.
    case deleteForward
    /// Return / Enter.
    case commit
    /// Escape.
    case cancel
    /// The caret one character back in the text (or to the selection's start).
    case moveBackward
    /// The caret one character on in the text (or to the selection's end).
    case moveForward
    /// Left arrow: the caret one character to the left on screen, in visual order (back in
    /// left-to-right text, on in right-to-left text; or to the selection's left end). A
    /// text field moves it by what it draws; ``TextEditingState`` alone, which knows no
    /// layout, moves back.
    case moveLeft
    /// Right arrow: the caret one character to the right on screen (on in left-to-right
    /// text, back in right-to-left text; or to the selection's right end).
    case moveRight
    /// Home: the caret to the start of the text.
    case moveToStart
    /// End: the caret to the end of the text.
    case moveToEnd
}

/// Keys to text through an xkbcommon keymap (display-input.md §12): the layout from config
/// (`us`, `de`, `fr(azerty)`…), modifiers and lock state tracked by xkbcommon, and key repeat
/// for keys the keymap says repeat (**[Lamina choice]** after 0.6 s, 25 per second).
public final class Keyboard {
    /// Why a keymap could not be made.
    public struct KeymapError: Error, CustomStringConvertible, Equatable {
        /// The layout name that has no keymap.
        public var layout: String
        public var description: String { "no xkb keymap for layout '\(layout)' (is xkb-data installed?)" }
    }

    /// The xkb layout in use, such as `us` or `de`.
    public let layout: String
    /// Seconds a repeating key is held before it repeats.
    public var repeatDelay = 0.6
    /// Repeats per second once repeating.
    public var repeatRate = 25.0

    private let context: OpaquePointer
    private let keymap: OpaquePointer
    private let state: OpaquePointer
    /// The key repeating now (xkb keycode), and when it repeats next.
    private var repeating: (keycode: UInt32, next: Double)?

    /// A keymap for `layout` (xkb layout name), with an optional variant and options.
    public init(layout: String, variant: String = "", options: String = "") throws(KeymapError) {
        guard let context = xkb_context_new(XKB_CONTEXT_NO_FLAGS) else { throw KeymapError(layout: layout) }
        // xkbcommon prints its own ERROR lines to stderr; Lamina reports a missing keymap in
        // one line of its own, so only critical messages stay.
        xkb_context_set_log_level(context, XKB_LOG_LEVEL_CRITICAL)
        let keymap = layout.withCString { l in
            variant.withCString { v in
                options.withCString { o in
                    var names = xkb_rule_names(rules: nil, model: nil, layout: l, variant: variant.isEmpty ? nil : v,
                                               options: options.isEmpty ? nil : o)
                    return xkb_keymap_new_from_names(context, &names, XKB_KEYMAP_COMPILE_NO_FLAGS)
                }
            }
        }
        guard let keymap, let state = xkb_state_new(keymap) else {
            xkb_context_unref(context)
            throw KeymapError(layout: layout)
        }
        self.layout = layout
        self.context = context
        self.keymap = keymap
        self.state = state
    }

    deinit {
        xkb_state_unref(state)
        xkb_keymap_unref(keymap)
        xkb_context_unref(context)
    }

    /// Feeds one key event; returns what it types (nothing for modifiers and releases).
    public func handle(_ event: KeyEvent) -> [TextInput] {
        let keycode = event.key + 8                          // evdev → xkb keycodes
        if !event.isPressed {
            _ = xkb_state_update_key(state, keycode, XKB_KEY_UP)
            if repeating?.keycode == keycode { repeating = nil }
            return []
        }
        let input = text(for: keycode)                       // with the modifiers held before this key
        _ = xkb_state_update_key(state, keycode, XKB_KEY_DOWN)
        if input != nil, xkb_keymap_key_repeats(keymap, keycode) != 0 {
            repeating = (keycode, event.time + repeatDelay)
        }
        return input.map { [$0] } ?? []
    }

    /// When the held key repeats next, for the run loop's timeout.
    public var nextRepeatTime: Double? { repeating?.next }

    /// The repeats of the held key due by `time`.
    public func repeats(upTo time: Double) -> [TextInput] {
        var out: [TextInput] = []
        while let r = repeating, r.next <= time {
            if let input = text(for: r.keycode) { out.append(input) }
            repeating = (r.keycode, r.next + 1 / repeatRate)
        }
        return out
    }

    /// How many layouts (xkb groups) the keymap holds: one per comma-separated name of
    /// `layout` (`us,ara,il` holds three).
    public var layoutCount: Int { Int(xkb_keymap_num_layouts(keymap)) }

    /// The keymap's own name for layout `index` ("English (US)", "Arabic", "Hebrew"), or nil
    /// past the last.
    public func layoutName(_ index: Int) -> String? {
        guard index >= 0, index < layoutCount, let name = xkb_keymap_layout_get_name(keymap, UInt32(index)) else { return nil }
        return String(cString: name)
    }

    /// What the key with evdev code `key` types in layout `layoutIndex` (the first by default)
    /// at shift level `level` (0 plain, 1 shifted), whatever the modifiers held now: the
    /// on-screen keyboard labels its keys with it. Nil for keys that type nothing printable
    /// there.
    public func character(forKey key: UInt32, level: UInt32, layout layoutIndex: Int = 0) -> String? {
        guard layoutIndex >= 0, layoutIndex < layoutCount else { return nil }
        var symbols: UnsafePointer<xkb_keysym_t>?
        let count = xkb_keymap_key_get_syms_by_level(keymap, key + 8, UInt32(layoutIndex), level, &symbols)
        guard count == 1, let symbol = symbols?.pointee else { return nil }
        var buffer = [CChar](repeating: 0, count: 16)
        let length = xkb_keysym_to_utf8(symbol, &buffer, buffer.count)
        guard length > 1 else { return nil }                 // the length counts the terminating NUL
        let text = String(decoding: buffer.prefix(Int(length) - 1).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard let scalar = text.unicodeScalars.first, scalar.value >= 0x20, scalar.value != 0x7F else { return nil }
        return text
    }

    /// What `keycode` types in the current modifier state.
    private func text(for keycode: UInt32) -> TextInput? {
        switch xkb_state_key_get_one_sym(state, keycode) {
        case UInt32(XKB_KEY_BackSpace): return .deleteBackward
        case UInt32(XKB_KEY_Delete), UInt32(XKB_KEY_KP_Delete): return .deleteForward
        case UInt32(XKB_KEY_Return), UInt32(XKB_KEY_KP_Enter): return .commit
        case UInt32(XKB_KEY_Escape): return .cancel
        case UInt32(XKB_KEY_Left), UInt32(XKB_KEY_KP_Left): return .moveLeft
        case UInt32(XKB_KEY_Right), UInt32(XKB_KEY_KP_Right): return .moveRight
        case UInt32(XKB_KEY_Home), UInt32(XKB_KEY_KP_Home): return .moveToStart
        case UInt32(XKB_KEY_End), UInt32(XKB_KEY_KP_End): return .moveToEnd
        default: break
        }
        var buffer = [CChar](repeating: 0, count: 64)
        let length = xkb_state_key_get_utf8(state, keycode, &buffer, buffer.count)
        guard length > 0 else { return nil }
        let text = String(decoding: buffer.prefix(Int(length)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        // Control characters (Tab, Ctrl+letter) are not typed into a one-line field.
        guard let scalar = text.unicodeScalars.first, scalar.value >= 0x20, scalar.value != 0x7F else { return nil }
        return .insert(text)
    }
}
