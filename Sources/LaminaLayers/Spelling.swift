/// Which of a few names a mistyped one was meant to be: the nearest by edit distance
/// (case ignored), when it is within a third of the word's length. Scene files' errors and
/// the layers' debug warnings both suggest names with it.
package enum Spelling {
    /// The name in `known` nearest `word`, or nil when none is near enough.
    package static func nearest(_ word: String, in known: [String]) -> String? {
        let a = Array(word.lowercased())
        guard a.count <= 64 else { return nil }
        func distance(_ b: [Character]) -> Int {
            var previous = Array(0...b.count)
            for i in 1...max(a.count, 1) where !a.isEmpty {
                var current = [i] + Array(repeating: 0, count: b.count)
                for j in stride(from: 1, through: b.count, by: 1) {
                    current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
                }
                previous = current
            }
            return previous[b.count]
        }
        let scored = known.filter { $0.count <= 64 }.map { ($0, distance(Array($0.lowercased()))) }
        guard let best = scored.min(by: { $0.1 < $1.1 }), best.1 <= max(1, word.count / 3) else { return nil }
        return best.0
    }
}
