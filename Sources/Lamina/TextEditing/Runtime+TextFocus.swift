import LaminaInput
import LaminaLayers

/// Text focus: which field typing goes into, the on-screen keyboard that follows it, and
/// the touch outside that ends editing.
extension Runtime {
    /// Moves typing to `field` (nil: to nowhere). The field that had focus loses it; the
    /// on-screen keyboard slides up for a field and away for nil.
    func focus(_ field: TextField?) {
        guard focusedTextField !== field else { return }
        let previous = focusedTextField
        focusedTextField = field
        previous?.focusChanged()
        field?.focusChanged()
        if field != nil, showsOnScreenKeyboard {
            let keyboard = onScreenKeyboard ?? makeOnScreenKeyboard()
            keyboard.show()
        } else {
            onScreenKeyboard?.hide()
        }
    }

    /// One typed input, from a keyboard or the on-screen one: to the focused field, then to
    /// the scene's own handler.
    func deliver(_ input: TextInput) {
        focusedTextField?.apply(input)
        textInputHandler?(input)
    }

    /// A new touch: one that lands outside the focused field's tap area and outside the
    /// on-screen keyboard ends editing.
    func endEditingIfOutside(_ touch: Touch) {
        guard let field = focusedTextField else { return }
        var layer = touch.layer
        while let current = layer {
            if current === field.tapArea || current === onScreenKeyboard?.layer { return }
            layer = current.superlayer
        }
        focus(nil)
    }

    /// Hides the on-screen keyboard and forgets it, so the next focus builds it again from
    /// `keyboard` (a reload changed the layout).
    func dropOnScreenKeyboard() {
        onScreenKeyboard?.hide()
        onScreenKeyboard?.layer.removeFromSuperlayer()
        onScreenKeyboard = nil
        if focusedTextField != nil, showsOnScreenKeyboard { makeOnScreenKeyboard().show() }
    }

    @discardableResult
    private func makeOnScreenKeyboard() -> OnScreenKeyboard {
        let layout = keyboard ?? (try? Keyboard(layout: "us"))
        let made = OnScreenKeyboard(runtime: self, layout: layout)
        onScreenKeyboard = made
        return made
    }
}
