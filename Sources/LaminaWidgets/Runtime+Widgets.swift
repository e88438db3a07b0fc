import LaminaRuntime

/// The runtime's text focus named by the widgets' types: the runtime itself knows only a
/// `TextInputTarget` and a `TextInputPanel`.
extension Runtime {
    /// The text field typing goes into (`TextField.focus()`), nil when none has focus.
    public var focusedTextField: TextField? { focusedTextInput as? TextField }

    /// The on-screen keyboard, made the first time a text field takes focus.
    public var onScreenKeyboard: OnScreenKeyboard? { textInputPanel as? OnScreenKeyboard }
}
