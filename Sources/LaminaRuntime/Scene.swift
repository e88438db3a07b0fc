/// A screen of an app: the type an app writes for each UI it shows, in the spirit of a view
/// controller.
///
/// Lamina owns a scene's lifetime. It creates the scene when the scene is installed (at
/// start, and again on each configuration reload) with its ``Settings`` read from the
/// scene's own table of the config file; `init` builds the scene's layers under
/// `context.rootLayer` and connects its display links, gestures, keys and text through
/// `context`. When the scene is replaced or the daemon stops, Lamina calls ``tearDown()``,
/// removes its layers, invalidates its display links and detaches its recognizers and
/// handlers, which releases every closure the scene gave it: closures may capture the scene
/// strongly without leaking it.
///
/// ```swift
/// final class Hello: Scene {
///     static let name = "hello"
///     init(context: SceneContext, settings: NoSettings) {
///         let label = TextLayer()
///         label.string = "Hello"
///         label.bounds = Rect(x: 0, y: 0, width: 400, height: 80)
///         label.position = context.center
///         context.rootLayer.addSublayer(label)
///     }
/// }
/// ```
public protocol Scene: AnyObject, SendableMetatype {
    /// The scene's settings, read from its config table (``NoSettings`` when it has none).
    associatedtype Settings: SceneSettings = NoSettings

    /// The scene's name: `--scene NAME`, `[run] scene = "NAME"`, and its settings table
    /// `[NAME]` (dashes written as underscores). Lowercase letters, digits and dashes.
    static var name: String { get }

    /// One line saying what the scene shows (the command line's help lists it).
    static var summary: String { get }

    /// Builds the scene into `context`. A thrown ``ConfigError`` is reported like any bad
    /// configuration (exit 78 at start; at a reload the running scene is logged and kept off);
    /// any other error stops the start with its description.
    init(context: SceneContext, settings: Settings) throws

    /// Called once before the scene's layers and callbacks are removed (reload or exit):
    /// stop timers of your own, close files. The default does nothing.
    func tearDown()
}

extension Scene {
    public static var summary: String { "" }
    public func tearDown() {}
}

/// Settings a scene reads from its own table of the config file, with the same checking as
/// Lamina's own settings: a wrong type, a value out of range or an unknown key is a
/// ``ConfigError`` naming the file, the line and the field (exit status 78).
///
/// ```swift
/// struct Settings: SceneSettings {
///     var title = "Boiler"
///     var maximum = 100.0
///     init() {}
///     init(from table: SettingsTable) throws(ConfigError) {
///         title = try table.string("title", default: title, maxLength: 64)
///         maximum = try table.number("maximum", default: maximum, in: 1...1e6)
///         try table.rejectUnknownKeys()
///     }
/// }
/// ```
public protocol SceneSettings {
    /// Reads the settings from `table` (empty when the file has no such table, or there is
    /// no config file); absent keys keep their defaults.
    init(from table: SettingsTable) throws(ConfigError)
}

/// The settings of a scene that has none: its table, if present, must be empty.
public struct NoSettings: SceneSettings, Sendable {
    /// No settings.
    public init() {}

    public init(from table: SettingsTable) throws(ConfigError) {
        try table.rejectUnknownKeys()
    }
}

/// A scene's `init` failed with something other than a configuration error: the daemon
/// stops with `EX_SOFTWARE` (70), naming the scene.
public struct SceneStartError: Error, CustomStringConvertible {
    /// The exit status of a scene that fails to start (`EX_SOFTWARE`).
    public static let exitStatus: Int32 = 70
    /// The scene's name.
    public var scene: String
    /// What its initializer threw.
    public var underlying: any Error

    public var description: String { "scene \(scene) could not start: \(underlying)" }
}
