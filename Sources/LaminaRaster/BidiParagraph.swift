import CFriBidi

/// A paragraph's embedding levels by the Unicode bidirectional algorithm (UAX #9, with
/// paired brackets), from GNU FriBidi: even levels run left to right, odd ones right to left.
/// Text with no right-to-left character and no forced direction is all level 0 without
/// asking FriBidi.
struct BidiParagraph {
    /// The paragraph's base direction: given, or resolved from its first strong character
    /// (left to right when it has none).
    let direction: TextDirection
    /// The level of each scalar.
    let levels: [UInt8]

    init(_ scalars: [UInt32], direction forced: TextDirection? = nil) {
        if forced != .rightToLeft, !scalars.contains(where: Self.mayBeRightToLeft) {
            direction = .leftToRight
            levels = [UInt8](repeating: 0, count: scalars.count)
            return
        }
        let count = scalars.count
        var types = [FriBidiCharType](repeating: FriBidiCharType(rawValue: 0), count: count)
        var brackets = [FriBidiBracketType](repeating: FriBidiBracketType(), count: count)
        var resolved: FriBidiParType = switch forced {
        case .leftToRight: lamina_fribidi_par_ltr()
        case .rightToLeft: lamina_fribidi_par_rtl()
        case nil: lamina_fribidi_par_auto()
        }
        var embedding = [FriBidiLevel](repeating: 0, count: count)
        let maxLevel = scalars.withUnsafeBufferPointer { text in
            fribidi_get_bidi_types(text.baseAddress, FriBidiStrIndex(count), &types)
            fribidi_get_bracket_types(text.baseAddress, FriBidiStrIndex(count), types, &brackets)
            return fribidi_get_par_embedding_levels_ex(types, brackets, FriBidiStrIndex(count), &resolved, &embedding)
        }
        let rightToLeft = resolved == lamina_fribidi_par_rtl()
        direction = rightToLeft ? .rightToLeft : .leftToRight
        // FriBidi fails only when it cannot allocate; the text then stays in logical order
        // at the paragraph's level.
        levels = maxLevel == 0 ? [UInt8](repeating: rightToLeft ? 1 : 0, count: count)
                               : embedding.map { UInt8(clamping: Int($0)) }
    }

    /// True for scalars in the blocks of right-to-left scripts and for the explicit
    /// direction marks and embeddings, the only ones that can raise a level in a paragraph
    /// that starts left to right (Hebrew, Arabic, Syriac, Thaana, NKo, Samaritan, Mandaic,
    /// their presentation forms, and the historic right-to-left blocks of the SMP).
    static func mayBeRightToLeft(_ scalar: UInt32) -> Bool {
        switch scalar {
        case 0x0590...0x08FF, 0x200F, 0x202B, 0x202E, 0x2067, 0xFB1D...0xFDFF, 0xFE70...0xFEFF, 0x10800...0x10FFF,
             0x1E800...0x1EFFF: true
        default: false
        }
    }

    /// Consecutive scalars of one level, in logical order.
    var levelRuns: [(start: Int, count: Int, level: UInt8)] {
        guard !levels.isEmpty else { return [] }
        var runs: [(start: Int, count: Int, level: UInt8)] = []
        var start = 0
        for i in 1...levels.count where i == levels.count || levels[i] != levels[start] {
            runs.append((start, i - start, levels[start]))
            start = i
        }
        return runs
    }

    /// The visual order of runs whose levels are `levels` (logical order): from the highest
    /// level down to the lowest odd one, every maximal sequence at that level or above is
    /// reversed (UAX #9, rule L2).
    static func visualOrder(levels: [UInt8]) -> [Int] {
        var order = Array(levels.indices)
        guard let highest = levels.max(), highest > 0 else { return order }
        let odd: [UInt8] = levels.filter { $0 % 2 == 1 }
        let lowestOdd: UInt8 = odd.min() ?? highest
        var level = highest
        while level >= lowestOdd && level > 0 {
            var i = 0
            while i < order.count {
                guard levels[order[i]] >= level else { i += 1; continue }
                var j = i
                while j < order.count && levels[order[j]] >= level { j += 1 }
                order[i..<j].reverse()
                i = j
            }
            level -= 1
        }
        return order
    }
}
