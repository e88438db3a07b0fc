import LaminaAnimation
import LaminaGeometry
import LaminaRaster

/// A layer that draws text (`CATextLayer`): lines at explicit breaks, and with `isWrapped`
/// at the Unicode line break opportunities (UAX #14), the first line's top at the top of the
/// bounds, each aligned within the bounds' width and cut with an ellipsis by
/// `truncationMode` when it does not fit. Glyphs come from FreeType outlines through
/// Lamina's rasterizer (DejaVu Sans by default).
open class TextLayer: Layer {
    /// How each line sits in the bounds' width (`CATextLayer.alignmentMode`).
    public enum Alignment: String, Hashable, Sendable {
        /// As the paragraph reads: against the left edge for left-to-right text, the right
        /// edge for a paragraph whose first strong character is right to left (Arabic,
        /// Hebrew).
        case natural
        /// Against the left edge.
        case left
        /// Centred in the bounds' width.
        case center
        /// Against the right edge.
        case right
    }

    struct TextProperties: Hashable {
        var string = ""
        var fontSize = 36.0
        var foregroundColor: Color? = .white
        var alignment = Alignment.natural
        var truncation = TextTruncation.none
        var wrapped = false
        var numberOfLines = 0
        var lineHeightMultiple = 1.0
    }

    var text = TextProperties()
    /// The face to draw with; nil uses the shared default face.
    public var font: Font?
    /// The last layout, shared with this layer's presentation copies: text that does not
    /// change is laid out once, not every frame its layer is walked.
    private(set) final var layoutCache = TextLayoutCache()

    /// A text layer with no text.
    public override init() { super.init() }

    /// The text drawn; line breaks start new lines.
    public var string: String {
        get { text.string }
        set { mutateText("string") { $0.string = newValue } }
    }

    /// Pixels per em (36 by default, as Core Animation).
    public var fontSize: Double {
        get { text.fontSize }
        set { mutateText("fontSize") { $0.fontSize = newValue } }
    }

    /// Opaque white by default; nil draws nothing.
    public var foregroundColor: Color? {
        get { text.foregroundColor }
        set { mutateText("foregroundColor") { $0.foregroundColor = newValue } }
    }

    /// How each line sits in the bounds' width.
    public var alignmentMode: Alignment {
        get { text.alignment }
        set { mutateText("alignmentMode") { $0.alignment = newValue } }
    }

    /// Where a line wider than the bounds is cut and "…" put in its place
    /// (`CATextLayer.truncationMode`); `.none` by default, as Core Animation.
    public var truncationMode: TextTruncation {
        get { text.truncation }
        set { mutateText("truncationMode") { $0.truncation = newValue } }
    }

    /// True when `truncationMode` is `.end`; setting it false sets `.none`.
    public var truncatesEnd: Bool {
        get { text.truncation == .end }
        set { truncationMode = newValue ? .end : .none }
    }

    /// Break lines to fit the bounds' width (`isWrapped`) at the Unicode line break
    /// opportunities: after spaces and hyphens, between ideographs (Chinese, Japanese), a
    /// word wider than the bounds between its characters. Explicit "\n" always breaks.
    public var isWrapped: Bool {
        get { text.wrapped }
        set { mutateText("wrapped") { $0.wrapped = newValue } }
    }

    /// The most lines drawn; 0 (the default) draws them all. The last line drawn holds the
    /// rest of the text, cut by `truncationMode` (`UILabel.numberOfLines`, whose default is 1).
    /// Negative counts are taken as 0.
    public var numberOfLines: Int {
        get { text.numberOfLines }
        set { mutateText("numberOfLines") { $0.numberOfLines = max(newValue, 0) } }
    }

    /// The distance between baselines as a multiple of the face's line height (its ascender
    /// plus descender); 1 by default (`NSParagraphStyle.lineHeightMultiple`). Values outside
    /// `TextLayer.lineHeightMultiples` are clamped into it.
    public var lineHeightMultiple: Double {
        get { text.lineHeightMultiple }
        set {
            let clamped = newValue.isFinite ? min(max(newValue, Self.lineHeightMultiples.lowerBound), Self.lineHeightMultiples.upperBound) : 1
            mutateText("lineHeightMultiple") { $0.lineHeightMultiple = clamped }
        }
    }

    /// The line height multiples accepted.
    public static let lineHeightMultiples = 0.25...8.0

    private func mutateText(_ key: String, _ change: (inout TextProperties) -> Void) {
        changeProperty(key) { change(&text) }
    }

    /// The face this layer draws with: its own, or DejaVu Sans loaded once per thread and
    /// shared by every text layer drawn there (a face's caches are not thread-safe).
    var resolvedFont: Font? { font ?? TransactionStack.current.defaultFont }

    /// How tall the text is laid out in the bounds' width (wrapped when `isWrapped`), in
    /// pixels: its lines times the line height (0 without a font). What a dialog sizes its
    /// message by.
    public var textHeight: Double {
        guard let font = resolvedFont, !string.isEmpty else { return 0 }
        return Double(Renderer.textLines(of: self, font: font).count) * lineHeight(font)
    }

    /// The distance between baselines with `font`: the face's ascender plus descender, times
    /// `lineHeightMultiple`.
    func lineHeight(_ font: Font) -> Double {
        let metrics = font.lineMetrics(size: fontSize)
        return (metrics.ascender + metrics.descender) * lineHeightMultiple
    }

    /// How wide the string is on one line at `fontSize`, in pixels (0 without a font): what a
    /// control that fits its label sizes itself by.
    public var textWidth: Double {
        guard let font = resolvedFont, !string.isEmpty else { return 0 }
        return font.layout(string, size: fontSize).width
    }

    /// Where a caret stands before each character of the first line and after its last, in
    /// the layer's own coordinates (its bounds' x): `count + 1` positions for a line of
    /// `count` characters, measured on the line as it is drawn (kerning and alignment
    /// included; past a truncation, at the line's end). Empty without a face.
    public func caretPositions() -> [Double] {
        guard let font = resolvedFont else { return [] }
        let firstLine = String(string.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
        let line = font.layout(firstLine, size: fontSize)
        let drawn = Renderer.textLines(of: self, font: font).first
        let start = bounds.minX + (drawn?.x ?? 0)
        let end = drawn.map { $0.line.width } ?? 0
        var offsets = [0]
        var scalars = 0
        for character in firstLine {
            scalars += character.unicodeScalars.count
            offsets.append(scalars)
        }
        return line.caretX(scalarOffsets: offsets).map { start + min($0, end) }
    }

    /// The first line's direction as drawn: right to left for a paragraph whose first strong
    /// character is (Arabic, Hebrew); left to right without a face.
    public var firstLineDirection: TextDirection {
        guard let font = resolvedFont else { return .leftToRight }
        return Renderer.textLines(of: self, font: font).first?.line.direction ?? .leftToRight
    }

    /// Where the characters `range` of the first line (character offsets) are drawn, in the
    /// layer's coordinates: one span, or several where the range crosses a change of
    /// direction; left to right.
    public func selectionSpans(characters range: Range<Int>) -> [(left: Double, right: Double)] {
        guard let font = resolvedFont, let drawn = Renderer.textLines(of: self, font: font).first else { return [] }
        var scalarStart = 0, scalarEnd = 0, index = 0
        for character in drawn.line.text {
            let count = character.unicodeScalars.count
            if index < range.lowerBound { scalarStart += count }
            if index < range.upperBound { scalarEnd += count }
            index += 1
        }
        let start = bounds.minX + drawn.x
        return drawn.line.spans(scalars: scalarStart..<scalarEnd).map { (start + $0.left, start + $0.right) }
    }

    /// The character boundary nearest to `x` (the layer's coordinates) on the first line:
    /// where a tap at `x` puts the caret.
    public func caretIndex(nearestTo x: Double) -> Int {
        let positions = caretPositions()
        return positions.indices.min { abs(positions[$0] - x) < abs(positions[$1] - x) } ?? 0
    }

    open override func makePresentationCopy() -> Layer {
        let copy = TextLayer()
        copy.properties = properties
        copy.text = text
        copy.font = font
        copy.layoutCache = layoutCache
        return copy
    }

    open override func hashDrawing(into hasher: inout Hasher) {
        super.hashDrawing(into: &hasher)
        hasher.combine(text)
        if let font { hasher.combine(ObjectIdentifier(font)) }
    }

    /// This kind's own animatable properties.
    static let textProperties = PropertyTable<TextProperties>([
        "fontSize": .field(\.fontSize),
        "foregroundColor": .field(\.foregroundColor),
    ])

    open override func value(forKeyPath keyPath: String) -> AnimatableValue? {
        Self.textProperties.value(at: keyPath, in: &text) ?? super.value(forKeyPath: keyPath)
    }

    /// This kind's own key paths after `Layer`'s.
    open override class var animatableKeyPaths: [String] { super.animatableKeyPaths + TextLayer.textProperties.names }

    @discardableResult
    open override func applyAnimatedValue(_ value: AnimatableValue, forKeyPath keyPath: String) -> Bool {
        Self.textProperties.write(value, at: keyPath, in: &text) ?? super.applyAnimatedValue(value, forKeyPath: keyPath)
    }

    override func appendKindContent(to operations: inout [DisplayOperation], in context: KindContentContext) {
        guard let color = text.foregroundColor else { return }
        operations.append(.text(TextSource(layer: self), color: context.shade(color), toTarget: context.toTarget))
    }

    override var kindContentElementCount: Int {
        !text.string.isEmpty && text.foregroundColor != nil ? 1 : 0
    }

    /// Each laid-out line's box, grown by a font size all round (glyphs overhang their advance).
    override var kindContentExtent: Rect? {
        guard let font = resolvedFont, !text.string.isEmpty else { return nil }
        var extent: Rect?
        let metrics = font.lineMetrics(size: text.fontSize)
        for (line, x, baseline) in Renderer.textLines(of: self, font: font) {
            let box = Rect(x: bounds.minX + x - text.fontSize, y: baseline - metrics.ascender - text.fontSize,
                           width: line.width + 2 * text.fontSize,
                           height: metrics.ascender + metrics.descender + 2 * text.fontSize)
            extent = extent?.union(box) ?? box
        }
        return extent
    }
}

/// A text layer's last layout and what it was made from (decision 128). Layout reads only the
/// text's properties, the bounds and the face, so an equal key gives the same lines.
final class TextLayoutCache {
    struct Key: Equatable {
        var text: TextLayer.TextProperties
        var bounds: Rect
        var font: Font

        static func == (a: Key, b: Key) -> Bool {
            a.font === b.font && a.bounds == b.bounds && a.text.string == b.text.string && a.text.fontSize == b.text.fontSize
                && a.text.alignment == b.text.alignment && a.text.truncation == b.text.truncation && a.text.wrapped == b.text.wrapped
                && a.text.numberOfLines == b.text.numberOfLines && a.text.lineHeightMultiple == b.text.lineHeightMultiple
        }
    }

    private var key: Key?
    private var lines: [(line: TextLine, x: Double, baseline: Double)] = []

    /// The lines laid out for `key`: the kept ones when the key is the last one's, else
    /// `layOut`'s (kept in their place).
    func lines(for key: Key, layOut: () -> [(line: TextLine, x: Double, baseline: Double)])
        -> [(line: TextLine, x: Double, baseline: Double)] {
        if let kept = self.key, kept == key { return lines }
        lines = layOut()
        self.key = key
        return lines
    }
}
