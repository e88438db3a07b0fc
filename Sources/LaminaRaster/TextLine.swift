import LaminaGeometry

/// Where a line of text sits in the width it is given.
public enum TextAlignment: String, Sendable {
    /// Against the left end.
    case left
    /// Centred.
    case center
    /// Against the right end.
    case right
}

/// One line of text laid out: glyphs with their pen positions, left to right on a baseline
/// (visual order: a right-to-left run's glyphs stand right to left in the text).
public struct TextLine {
    /// A glyph and where it sits on the line.
    public struct PlacedGlyph {
        /// The glyph's index in the face.
        public var index: UInt32
        /// Where the glyph's origin is drawn, from the line's left end (the pen position
        /// plus the glyph's own offset: a mark on its base, a kerned pair).
        public var x: Double
        /// The glyph's vertical offset from the baseline, down positive (a mark above its
        /// base is negative).
        public var y: Double = 0
        /// How far the pen moves after the glyph.
        public var advance: Double = 0
        /// The offset of the first Unicode scalar of the glyph's cluster in the line's text:
        /// the characters the glyph shows begin there (a ligature shows several, a base and
        /// its marks show one).
        public var cluster: Int = 0
        /// True when the glyph belongs to a right-to-left run.
        public var isRightToLeft = false
        /// The face the glyph is from: 0 the line's own, k ≥ 1 `TextLine.fallbacks[k − 1]`
        /// (a character the line's face lacks).
        public var face = 0
    }

    /// The glyphs, left to right.
    public var glyphs: [PlacedGlyph]
    /// The advance width of the whole line.
    public var width: Double
    /// The font size the line was laid out at, in pixels.
    public var size: Double
    /// True when the text was cut to fit and ends with an ellipsis.
    public var isTruncated: Bool
    /// The paragraph's base direction (resolved from its first strong character unless
    /// given): a `natural` alignment puts a right-to-left line against the right end.
    public var direction: TextDirection = .leftToRight
    /// The length of the line's text in Unicode scalars.
    public var scalarCount = 0
    /// The text the line shows, in logical order ("…" included where it was cut).
    public var text = ""
    /// The faces of the glyphs the line's own face has none for (`PlacedGlyph.face`).
    public var fallbacks: [Font] = []

    /// The face glyph `placed` is drawn from, when the line's own is `font`.
    public func face(of placed: PlacedGlyph, in font: Font) -> Font {
        placed.face == 0 || placed.face > fallbacks.count ? font : fallbacks[placed.face - 1]
    }

    /// Where the caret stands before the scalar at `offset` (0…`scalarCount`; the end is
    /// after the last character), from the line's left end: the leading edge of the cluster
    /// that holds it (its left edge in a left-to-right run, its right edge in a right-to-left
    /// one), a share of the way across a ligature that shows several characters, and the
    /// trailing edge of the last character at the end.
    public func caretX(scalarOffset offset: Int) -> Double {
        caretX(scalarOffsets: [offset])[0]
    }

    /// Where the characters of `scalars` (a range of scalar offsets) stand on the line, from
    /// its left end: the extents of the glyphs whose clusters begin inside it, merged where
    /// they touch, left to right. A selection across a change of direction is two or more
    /// spans (the logical range is not one piece on screen).
    public func spans(scalars range: Range<Int>) -> [(left: Double, right: Double)] {
        var spans: [(left: Double, right: Double)] = []
        var pen = 0.0
        for glyph in glyphs {
            defer { pen += glyph.advance }
            guard range.contains(glyph.cluster), glyph.advance > 0 else { continue }
            if let last = spans.last, abs(last.right - pen) < 1e-9 {
                spans[spans.count - 1].right = pen + glyph.advance
            } else {
                spans.append((pen, pen + glyph.advance))
            }
        }
        return spans
    }

    /// `caretX(scalarOffset:)` for each of `offsets`, the clusters measured once for all.
    public func caretX(scalarOffsets offsets: [Int]) -> [Double] {
        guard !glyphs.isEmpty else { return offsets.map { _ in direction == .rightToLeft ? width : 0 } }
        // Each cluster's extent on the line and direction.
        var extents: [Int: (left: Double, right: Double, rightToLeft: Bool)] = [:]
        var pen = 0.0
        for glyph in glyphs {
            let left = pen, right = pen + glyph.advance
            if let e = extents[glyph.cluster] {
                extents[glyph.cluster] = (min(e.left, left), max(e.right, right), e.rightToLeft)
            } else {
                extents[glyph.cluster] = (left, right, glyph.isRightToLeft)
            }
            pen = right
        }
        let starts = extents.keys.sorted()
        return offsets.map { offset in
            let target = min(max(offset, 0), scalarCount)
            if target == scalarCount, let last = starts.last, let e = extents[last] {
                return e.rightToLeft ? e.left : e.right             // after the last character
            }
            // The cluster holding the scalar: the last one starting at or before it.
            var low = 0, high = starts.count - 1
            while low < high {
                let middle = (low + high + 1) / 2
                if starts[middle] <= target { low = middle } else { high = middle - 1 }
            }
            let start = starts[low], end = low + 1 < starts.count ? starts[low + 1] : scalarCount
            guard let e = extents[start] else { return 0 }
            let share = end > start ? Double(min(max(target - start, 0), end - start)) / Double(end - start) : 0
            return e.rightToLeft ? e.right - share * (e.right - e.left) : e.left + share * (e.right - e.left)
        }
    }
}

extension Font {
    /// Lays `text` out on one line at `size`, shaped by HarfBuzz (kerning and mark
    /// positioning from GPOS, ligatures and contextual forms from GSUB), with right-to-left
    /// runs in visual order by the bidirectional algorithm; `direction` forces the
    /// paragraph's base direction. With `maxWidth`, text that does not fit is cut at its end
    /// (`truncatedLine`: the ellipsis stands where the text's end would, on the left of a
    /// right-to-left line).
    public func layout(_ text: String, size: Double, maxWidth: Double? = nil, direction: TextDirection? = nil) -> TextLine {
        guard let maxWidth else { return shapedLine(text, size: size, direction: direction) }
        return truncatedLine(text, size: size, width: maxWidth, truncation: .end, direction: direction)
    }

    /// One paragraph shaped (from the cache when it was shaped before) and scaled to `size`.
    func shapedLine(_ text: String, size: Double, direction: TextDirection?) -> TextLine {
        guard let shaped = shaped(text, direction: direction) else { return unshapedLine(text, size: size) }
        var glyphs: [TextLine.PlacedGlyph] = []
        glyphs.reserveCapacity(shaped.glyphs.count)
        guard !shaped.fallbacks.isEmpty else {
            // One face: the pen in its units, scaled once per glyph.
            let scale = size / Double(shapingUnitsPerEm)
            var pen: Int64 = 0
            for glyph in shaped.glyphs {
                glyphs.append(.init(index: glyph.index, x: Double(pen + Int64(glyph.offsetX)) * scale,
                                    y: -Double(glyph.offsetY) * scale, advance: Double(glyph.advance) * scale,
                                    cluster: glyph.cluster, isRightToLeft: glyph.isRightToLeft))
                pen += Int64(glyph.advance)
            }
            return TextLine(glyphs: glyphs, width: Double(pen) * scale, size: size, isTruncated: false,
                            direction: shaped.direction, scalarCount: shaped.scalarCount, text: text)
        }
        // Several faces: the pen kept in each face's own units, summed exactly, scaled when read.
        let scales = ([self] + shaped.fallbacks).map { size / Double($0.shapingUnitsPerEm) }
        var penUnits = [Int64](repeating: 0, count: scales.count)
        func pen() -> Double { zip(penUnits, scales).reduce(0) { $0 + Double($1.0) * $1.1 } }
        for glyph in shaped.glyphs {
            let face = Int(glyph.face), scale = scales[face]
            penUnits[face] += Int64(glyph.offsetX)
            let x = pen()
            penUnits[face] += Int64(glyph.advance) - Int64(glyph.offsetX)
            glyphs.append(.init(index: glyph.index, x: x, y: -Double(glyph.offsetY) * scale,
                                advance: Double(glyph.advance) * scale, cluster: glyph.cluster,
                                isRightToLeft: glyph.isRightToLeft, face: face))
        }
        return TextLine(glyphs: glyphs, width: pen(), size: size, isTruncated: false,
                        direction: shaped.direction, scalarCount: shaped.scalarCount, text: text,
                        fallbacks: shaped.fallbacks)
    }

    /// A face HarfBuzz cannot read (FreeType reads more formats) is laid out a glyph per
    /// scalar, left to right, by its advances and `kern` table.
    func unshapedLine(_ text: String, size: Double) -> TextLine {
        var glyphs: [TextLine.PlacedGlyph] = []
        var pen = 0.0
        var previous: UInt32?
        var offset = 0
        for scalar in text.unicodeScalars {
            let index = glyphIndex(for: scalar)
            if let previous { pen += kerning(previous, index, size: size) }
            let advance = glyph(index, size: size).advance
            glyphs.append(.init(index: index, x: pen, advance: advance, cluster: offset))
            pen += advance
            previous = index
            offset += 1
        }
        return TextLine(glyphs: glyphs, width: pen, size: size, isTruncated: false, scalarCount: offset, text: text)
    }
}
