import LaminaSceneSyntax
import LaminaWidgets

extension FileScene {
    /// Shows the file's texts in `language` (its `translations:`): text layers, list rows,
    /// and dialogs from now on; a text with no translation in a language the file has a
    /// catalog for stays as written, logged once.
    public func languageDidChange(to language: String?) {
        self.language = language
        reportedUntranslated.removeAll()
        let catalog = language.flatMap { l in Translations.candidates(l).first { document.languages.contains($0) } }
        Transaction.begin()
        defer { Transaction.commit() }
        for (layer, text) in translatableTexts {
            layer.string = text.text(in: language) { bindingValues[$0] }
            if let catalog, text.translations[catalog] == nil, let source = text.source,
               reportedUntranslated.count < Translations.maximumReported, reportedUntranslated.insert(source).inserted {
                context.logger.notice("\(document.file): no \(catalog) translation for \"\(Escaped(source))\"")
            }
        }
        for rows in listRows { rows.reload() }
    }
}
