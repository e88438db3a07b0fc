import LaminaDisplay
import LaminaGeometry
import LaminaLayers
import LaminaRaster
import LaminaRuntime
import LaminaTestSupport
import LaminaWidgets
import Testing

/// A theme's `font`: the face of every control's text.
@Suite("Controls in a named face")
struct ThemeFontTests {
    /// A scene that makes a button, a text box and a dialog with the dark theme, in
    /// `settings.font` when there is one.
    final class ThemedScene: Scene {
        static let name = "themed"
        struct Settings: SceneSettings {
            var font: Font?
            init(font: Font?) { self.font = font }
            init(from table: SettingsTable) throws(ConfigError) {}
        }
        let button: Button, box: TextBox, dialog: Dialog

        init(context: SceneContext, settings: Settings) {
            var theme = Theme.dark
            theme.font = settings.font
            button = Button(context: context, title: "Pay now", theme: theme)
            box = TextBox(context: context, width: 300, placeholder: "Your name", theme: theme)
            dialog = Dialog(context: context, title: "Done", message: "Paid", actions: [], theme: theme)
            for layer in [button.layer, box.layer] { context.rootLayer.addSublayer(layer) }
        }
    }

    @Test("a button is as wide as its title in the theme's face; the text box, its placeholder and a dialog use that face")
    func namedFace() throws {
        let bold = try Font(family: "DejaVu Sans", weight: .bold)
        let theme = Theme.dark
        let rig = try DummyDisplayRig(width: 640, height: 480, refresh: 60, start: 0)
        let scene = try rig.makeRuntime().install(ThemedScene.self, settings: ThemedScene.Settings(font: bold))
        // The button's face is its title's width in the bold face, plus the padding each side.
        let expected = bold.layout("Pay now", size: theme.fontSize).width + 2 * theme.padding
        #expect(abs(scene.button.face.bounds.width - expected) < 1e-9)
        let regular = try Font().layout("Pay now", size: theme.fontSize).width + 2 * theme.padding
        #expect(abs(expected - regular) > 4, "the faces differ enough for the width to tell them apart")
        for label in [scene.button.label, scene.box.field.label, scene.box.field.placeholderLabel,
                      scene.dialog.titleLabel, scene.dialog.messageLabel] {
            #expect(label.font === bold)
        }
    }

    @Test("without one, controls draw with the text layers' default face")
    func defaultFace() throws {
        let rig = try DummyDisplayRig(width: 640, height: 480, refresh: 60, start: 0)
        let scene = try rig.makeRuntime().install(ThemedScene.self, settings: ThemedScene.Settings(font: nil))
        #expect(scene.button.label.font == nil && scene.box.field.label.font == nil)
        let expected = try Font().layout("Pay now", size: Theme.dark.fontSize).width + 2 * Theme.dark.padding
        #expect(abs(scene.button.face.bounds.width - expected) < 1e-9)
    }
}
