import LaminaInput
import LaminaLayers

/// What typing goes into: the focused text field. The runtime keeps which target has focus,
/// hands it what is typed and tells it when focus comes or goes; the widgets (LaminaWidgets)
/// implement it, so the runtime names no widget.
package protocol TextInputTarget: AnyObject {
    /// A touch that lands outside this layer (and outside the on-screen keyboard) ends editing.
    var tapArea: Layer { get }
    /// One typed input, from a keyboard or the on-screen one.
    func apply(_ input: TextInput)
    /// Focus arrived or left; the runtime's focus already says which.
    func focusChanged()
    /// The panel of keys that slides up while a target has focus, labelled from `layout`
    /// (nil: none). Asked of the target taking focus when no panel is made yet, and again
    /// after the layout or the screen's width changed.
    func makeInputPanel(layout: Keyboard?) -> (any TextInputPanel)?
}

/// The on-screen keyboard as the runtime drives it: shown while a target has focus.
package protocol TextInputPanel: AnyObject {
    /// The panel's layer (touches on it do not end editing).
    var layer: Layer { get }
    /// Slides the panel up and takes the touches on it.
    func show()
    /// Slides the panel away.
    func hide()
}
