/// Where text that does not fit its width is cut, and an ellipsis ("…") put in its place
/// (`CATextLayer.truncationMode`).
public enum TextTruncation: String, Sendable, CaseIterable {
    /// Not cut: the line runs past its width.
    case none
    /// The start is cut: "…ing text".
    case start
    /// The middle is cut: "Long…text".
    case middle
    /// The end is cut: "Long te…".
    case end
}

extension Font {
    /// Lays a block of text out in lines at `size`: one paragraph per "\\n", and with
    /// `wraps` each broken into lines no wider than `width` at the opportunities of the
    /// Unicode line breaking algorithm (UAX #14: after spaces and hyphens, between
    /// ideographs; never inside a grapheme cluster), a word wider than the width broken
    /// between its grapheme clusters. Each line is shaped on its own in its paragraph's
    /// direction (every line of an Arabic paragraph runs right to left); spaces where a line
    /// was broken are not part of it.
    ///
    /// A line wider than `width` is cut by `truncation`. With `maximumLines` above 0, lines
    /// past it are not laid out: the last one kept holds the rest of the text, cut by
    /// `truncation` so the reader sees text is missing (nothing marks it with `.none`).
    public func layoutLines(_ text: String, size: Double, width: Double?, wraps: Bool = false,
                            truncation: TextTruncation = .none, maximumLines: Int = 0,
                            direction: TextDirection? = nil) -> [TextLine] {
        let paragraphs = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let width = width.flatMap { $0.isFinite && $0 >= 0 ? $0 : nil }
        var lines: [TextLine] = []
        for (p, paragraph) in paragraphs.enumerated() {
            let scalars = Array(paragraph.unicodeScalars)
            // The paragraph's direction, which every one of its lines keeps.
            let resolved = direction ?? shaped(paragraph, direction: nil)?.direction ?? .leftToRight
            let ranges: [Range<Int>]
            if wraps, let width, width > 0 {
                ranges = lineRanges(paragraph, scalars: scalars, size: size, width: width, direction: direction)
            } else {
                ranges = [0..<scalars.count]
            }
            // A line that is its whole paragraph is shaped as the paragraph was (found in the
            // cache); a part of one is shaped in the paragraph's direction.
            func lineDirection(_ range: Range<Int>) -> TextDirection? { range == 0..<scalars.count ? direction : resolved }
            for (k, range) in ranges.enumerated() {
                let isLastAllowed = maximumLines > 0 && lines.count == maximumLines - 1
                let hidesMore = k < ranges.count - 1 || p < paragraphs.count - 1
                if isLastAllowed && hidesMore {
                    // The rest of the text on one line, cut to fit (its paragraphs joined by spaces).
                    let rest = ([Self.text(scalars[range.lowerBound...])] + paragraphs[(p + 1)...]).joined(separator: " ")
                    guard truncation != .none, let width else {
                        lines.append(shapedLine(Self.text(scalars[range]), size: size, direction: lineDirection(range)))
                        return lines
                    }
                    lines.append(truncatedLine(rest, size: size, width: width, truncation: truncation,
                                               direction: resolved, marksCut: true))
                    return lines
                }
                let lineText = Self.text(scalars[range])
                if let width, truncation != .none {
                    lines.append(truncatedLine(lineText, size: size, width: width, truncation: truncation,
                                               direction: lineDirection(range)))
                } else {
                    lines.append(shapedLine(lineText, size: size, direction: lineDirection(range)))
                }
            }
        }
        return lines
    }

    /// `text` on one line, and when it is wider than `width` (or `marksCut`, which says text
    /// was left off already), cut by `truncation` at the most grapheme clusters that leave
    /// room for "…" (none when even the ellipsis alone does not fit), shaped again with it.
    public func truncatedLine(_ text: String, size: Double, width: Double, truncation: TextTruncation,
                              direction: TextDirection? = nil, marksCut: Bool = false) -> TextLine {
        let line = shapedLine(text, size: size, direction: direction)
        guard truncation != .none, marksCut || line.width > width else { return line }
        let characters = Array(text)
        func cut(keeping kept: Int) -> String {
            switch truncation {
            case .start: return "\u{2026}" + String(characters.suffix(kept))
            case .middle: return String(characters.prefix((kept + 1) / 2)) + "\u{2026}" + String(characters.suffix(kept / 2))
            case .end, .none: return String(characters.prefix(kept)) + "\u{2026}"
            }
        }
        // The most characters kept whose cut line fits (binary search: a line's width grows
        // with what it keeps).
        var fits = 0, over = characters.count + (marksCut ? 1 : 0)
        while over - fits > 1 {
            let middle = (fits + over) / 2
            if shapedLine(cut(keeping: middle), size: size, direction: line.direction).width <= width {
                fits = middle
            } else {
                over = middle
            }
        }
        var shortened = shapedLine(cut(keeping: fits), size: size, direction: line.direction)
        shortened.isTruncated = true
        return shortened
    }

    /// The scalar ranges of a paragraph's lines, each no wider than `width` unless one
    /// grapheme cluster alone is: greedy, taking the last break opportunity that fits,
    /// measured on the paragraph shaped whole (a cluster's advance counted at its first
    /// scalar), spaces at a line's end not counted.
    private func lineRanges(_ paragraph: String, scalars: [Unicode.Scalar], size: Double, width: Double,
                            direction: TextDirection?) -> [Range<Int>] {
        let count = scalars.count
        guard count > 0 else { return [0..<0] }
        var advanceBefore = [Double](repeating: 0, count: count + 1)
        for glyph in shapedLine(paragraph, size: size, direction: direction).glyphs where glyph.cluster < count {
            advanceBefore[glyph.cluster + 1] += glyph.advance
        }
        for i in 0..<count { advanceBefore[i + 1] += advanceBefore[i] }
        func trimmedEnd(_ start: Int, _ end: Int) -> Int {
            var end = end
            while end > start, scalars[end - 1].properties.isWhitespace { end -= 1 }
            return end
        }
        func measure(_ start: Int, _ end: Int) -> Double { advanceBefore[trimmedEnd(start, end)] - advanceBefore[start] }
        let graphemeEnds = LineBreaks.graphemeEnds(of: paragraph)
        let opportunities = LineBreaks.opportunities(in: paragraph) + [.init(offset: count, isMandatory: true)]
        // A tolerance for the sums' rounding: a line measured at exactly its width fits.
        let limit = width + 1e-9 * max(width, 1)
        var ranges: [Range<Int>] = []
        var start = 0, lastFit: Int?, next = 0
        // The index in `graphemeEnds` of the first cluster end after `start`.
        var firstEnd = 0
        while next < opportunities.count {
            let opportunity = opportunities[next]
            while firstEnd < graphemeEnds.count - 1 && graphemeEnds[firstEnd] <= start { firstEnd += 1 }
            let firstGrapheme = graphemeEnds[firstEnd]
            if measure(start, opportunity.offset) <= limit || (lastFit == nil && firstGrapheme >= opportunity.offset) {
                if opportunity.isMandatory {
                    ranges.append(start..<trimmedEnd(start, opportunity.offset))
                    start = opportunity.offset
                    lastFit = nil
                } else {
                    lastFit = opportunity.offset
                }
                next += 1
            } else if let fit = lastFit {
                ranges.append(start..<trimmedEnd(start, fit))
                start = fit
                lastFit = nil
            } else {
                // No opportunity fits: as many grapheme clusters as fit, at least one.
                var end = firstGrapheme
                for g in graphemeEnds[(firstEnd + 1)...] {
                    guard g < opportunity.offset, measure(start, g) <= limit else { break }
                    end = g
                }
                ranges.append(start..<end)
                start = end
            }
        }
        return ranges
    }

    private static func text(_ scalars: ArraySlice<Unicode.Scalar>) -> String {
        var text = ""
        text.unicodeScalars.append(contentsOf: scalars)
        return text
    }
}
