import Testing
@testable import LaminaInput

/// Keys to text through xkbcommon keymaps (xkb-data's layouts); evdev codes from
/// linux/input-event-codes.h.
@Suite("Keyboard text entry")
struct KeyboardTests {
    static let KEY_A: UInt32 = 30, KEY_Y: UInt32 = 21, KEY_Z: UInt32 = 44, KEY_2: UInt32 = 3
    static let KEY_LEFTSHIFT: UInt32 = 42, KEY_BACKSPACE: UInt32 = 14, KEY_ENTER: UInt32 = 28, KEY_ESC: UInt32 = 1
    static let KEY_CAPSLOCK: UInt32 = 58, KEY_TAB: UInt32 = 15

    private func press(_ keyboard: Keyboard, _ keys: [UInt32], at time: Double = 0) -> [TextInput] {
        var out: [TextInput] = []
        for key in keys { out += keyboard.handle(KeyEvent(time: time, key: key, isPressed: true)) }
        for key in keys.reversed() { out += keyboard.handle(KeyEvent(time: time, key: key, isPressed: false)) }
        return out
    }

    @Test("us: letters, shift, caps lock, digits and their shifted symbols; editing keys")
    func us() throws {
        let k = try Keyboard(layout: "us")
        #expect(press(k, [Self.KEY_A]) == [.insert("a")])
        #expect(press(k, [Self.KEY_LEFTSHIFT, Self.KEY_A]) == [.insert("A")])
        #expect(press(k, [Self.KEY_LEFTSHIFT, Self.KEY_2]) == [.insert("@")])
        _ = press(k, [Self.KEY_CAPSLOCK])
        #expect(press(k, [Self.KEY_A]) == [.insert("A")])
        _ = press(k, [Self.KEY_CAPSLOCK])
        #expect(press(k, [Self.KEY_BACKSPACE]) == [.deleteBackward])
        #expect(press(k, [Self.KEY_ENTER]) == [.commit])
        #expect(press(k, [Self.KEY_ESC]) == [.cancel])
        #expect(press(k, [Self.KEY_TAB]).isEmpty)
    }

    @Test("de swaps y and z, and shift-2 is a quotation mark")
    func german() throws {
        let k = try Keyboard(layout: "de")
        #expect(press(k, [Self.KEY_Y]) == [.insert("z")])
        #expect(press(k, [Self.KEY_Z]) == [.insert("y")])
        #expect(press(k, [Self.KEY_LEFTSHIFT, Self.KEY_2]) == [.insert("\"")])
    }

    @Test("an unknown layout is an error naming it")
    func unknownLayout() {
        #expect(throws: Keyboard.KeymapError(layout: "lamina-nowhere")) { try Keyboard(layout: "lamina-nowhere") }
    }

    @Test("a held key repeats after 0.6 s at 25 per second until released; modifiers do not repeat")
    func keyRepeat() throws {
        let k = try Keyboard(layout: "us")
        #expect(k.handle(KeyEvent(time: 10, key: Self.KEY_A, isPressed: true)) == [.insert("a")])
        #expect(k.nextRepeatTime == 10.6)
        #expect(k.repeats(upTo: 10.59).isEmpty)
        #expect(k.repeats(upTo: 10.6) == [.insert("a")])
        #expect(k.repeats(upTo: 10.7 + 1e-9) == [.insert("a"), .insert("a")])          // 10.64, 10.68
        _ = k.handle(KeyEvent(time: 10.71, key: Self.KEY_A, isPressed: false))
        #expect(k.nextRepeatTime == nil && k.repeats(upTo: 20).isEmpty)
        _ = k.handle(KeyEvent(time: 30, key: Self.KEY_LEFTSHIFT, isPressed: true))
        #expect(k.nextRepeatTime == nil)
    }
}
