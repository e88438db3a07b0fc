import Lamina
import LaminaGeometry

/// The scenes the `lamina` daemon can run, by name.
public struct Scenes: SceneCatalog {
    public init() {}

    public var sceneNames: [String] { ["elastic-field"] }

    public func validate(scene: String, settings: SettingsTable) throws(ConfigError) {
        switch scene {
        case "elastic-field": _ = try Self.elasticFieldSettings(settings, screen: Size(width: 1920, height: 1080))
        default: throw ConfigError(file: settings.file, field: "run.scene", reason: "unknown scene '\(Escaped(scene))'")
        }
    }

    public func install(scene: String, settings: SettingsTable, in runtime: Runtime) throws(ConfigError) {
        switch scene {
        case "elastic-field":
            _ = ElasticField(runtime: runtime, settings: try Self.elasticFieldSettings(settings, screen: runtime.screenSize))
        default:
            throw ConfigError(file: settings.file, field: "run.scene", reason: "unknown scene '\(Escaped(scene))'")
        }
    }

    /// `[elastic_field]`: `fill_color`, `overshoot`, `width`, `height`, `corner_radius`, `text`,
    /// `text_color`.
    public static func elasticFieldSettings(_ table: SettingsTable, screen: Size) throws(ConfigError) -> ElasticField.Settings {
        var s = ElasticField.Settings()
        s.fillColor = try table.color("fill_color", default: s.fillColor)
        s.overshootAmount = try table.number("overshoot", default: s.overshootAmount, in: 0...1000)
        let width = try table.number("width", default: min(s.size.width, screen.width * 0.8), in: 1...16384)
        let height = try table.number("height", default: s.size.height, in: 1...16384)
        s.size = Size(width: width, height: height)
        s.cornerRadius = try table.number("corner_radius", default: s.cornerRadius, in: 0...8192)
        s.text = try table.string("text", default: s.text, maxLength: ElasticField.maximumTextLength)
        s.textColor = try table.color("text_color", default: s.textColor)
        try table.rejectUnknownKeys()
        return s
    }
}
