import LaminaLayers

/// A scene that shows strings of its own translation (a scene file's `translations:`): told
/// when the runtime's language changes, it shows them in the new one.
public protocol LocalizableScene: Scene {
    /// Shows the scene's strings in `language` (nil: as written).
    func languageDidChange(to language: String?)
}

/// The runtime's part for languages (decision 141): the language in use, the program's own
/// translations, and the labels `SceneContext.localize` keeps translated.
final class Localization {
    unowned let runtime: Runtime
    /// The language strings are shown in (nil: as written).
    private(set) var language: String?
    /// The program's translations (`[run] translations`; `Runtime.translations`).
    var translations: Translations?
    /// Labels kept translated, by identity: each with its source string.
    private var labels: [ObjectIdentifier: (label: WeakLabel, source: String)] = [:]
    /// Labels counted when last pruned: the table is swept of gone labels when it doubles.
    private var prunedCount = 0

    struct WeakLabel { weak var layer: TextLayer? }

    init(runtime: Runtime) { self.runtime = runtime }

    /// `source` in the language in use.
    func translate(_ source: String) -> String { translations?.translate(source) ?? source }

    /// Shows `source` translated in `label`, now and whenever the language changes.
    func localize(_ label: TextLayer, _ source: String) {
        label.string = translate(source)
        labels[ObjectIdentifier(label)] = (WeakLabel(layer: label), source)
        if labels.count >= max(64, 2 * prunedCount) { prune() }
    }

    /// Switches every string shown to `language`: the program's catalog, the labels kept
    /// translated, and a localizable scene's own strings; shown at the next frame.
    func setLanguage(_ language: String?) throws(MessageCatalogError) {
        try translations?.use(language: language)
        self.language = language
        prune()
        for (_, entry) in labels { entry.label.layer?.string = translate(entry.source) }
        (runtime.scene as? any LocalizableScene)?.languageDidChange(to: language)
    }

    private func prune() {
        labels = labels.filter { $0.value.label.layer != nil }
        prunedCount = labels.count
    }
}

extension Runtime {
    /// The language strings are shown in (nil: as written): `[run] language`, `lamina ctl
    /// language`, or `setLanguage`.
    public var language: String? { localization.language }

    /// The program's own translations (`[run] translations`): what `SceneContext.localized`
    /// and `localize` look strings up in. Set, they are switched to the language in use (a
    /// catalog that cannot be read is logged and its strings shown as written).
    public var translations: Translations? {
        get { localization.translations }
        set {
            if let newValue, newValue.language != language {
                do { try newValue.use(language: language) } catch { logger.warning("translations: \(error)") }
            }
            localization.translations = newValue
        }
    }

    /// Shows every string in `language` from the next frame: the labels scenes keep
    /// translated (`SceneContext.localize`) and a scene file's strings. Nil or `C` shows them
    /// as written. A language tag Lamina does not accept, or a catalog that cannot be read,
    /// is an error and the language in use is kept.
    public func setLanguage(_ language: String?) throws(MessageCatalogError) {
        if let language, !Translations.isLanguageTag(language) {
            throw MessageCatalogError(path: language, reason: "is not a language tag (1…64 ASCII letters, digits and _-.@, such as de or pt_BR)")
        }
        try localization.setLanguage(language)
    }
}

extension SceneContext {
    /// The language strings are shown in (nil: as written).
    public var language: String? { runtime.language }

    /// `text` in the runtime's language, from the program's translations (as written
    /// without one).
    public func localized(_ text: String) -> String { runtime.localization.translate(text) }

    /// Shows `text` in `label` in the runtime's language, and again in each language the
    /// runtime switches to (`lamina ctl language de`), without the scene doing anything.
    public func localize(_ label: TextLayer, _ text: String) { runtime.localization.localize(label, text) }
}
