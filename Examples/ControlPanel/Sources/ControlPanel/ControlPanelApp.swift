import ControlPanelUI
import Lamina

/// The program: its name (log label, `control-panel.toml` / `/etc/control-panel/…`) and
/// its scenes. Lamina gives it the command line, the display, input, signals and systemd.
@main
struct ControlPanelApp: LaminaApp {
    static let name = "control-panel"
    static let scenes: [any Scene.Type] = [PanelScene.self]
}
