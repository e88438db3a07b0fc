extension StringProtocol {
    /// The text without leading and trailing blanks: spaces and tabs, and with `newlines`
    /// also line breaks (what Foundation's `trimmingCharacters(in: .whitespaces)` does, for
    /// modules that do without Foundation).
    public func trimmed(newlines: Bool = false) -> String {
        func isBlank(_ c: Character) -> Bool { c.isWhitespace && (newlines || !c.isNewline) }
        guard let first = firstIndex(where: { !isBlank($0) }), let last = lastIndex(where: { !isBlank($0) }) else { return "" }
        return String(self[first...last])
    }
}
