import Lamina

/// Text for every kiosk in the world, in one panel: a greeting in ten scripts (Arabic and
/// Hebrew against the right edge, Thai and Devanagari marks in place, Chinese and Japanese
/// and colour emoji from the faces fontconfig finds for what DejaVu Sans lacks), a paragraph
/// wrapped at Unicode line breaks, labels cut at the start, middle and end, and a text box
/// the on-screen keyboard types Arabic and Hebrew into (its ARA and IL keys, with
/// `keyboard_layout = "us,ara,il"`).
///
/// Written on the public app API only (`import Lamina`), as an app would; `world.yaml` is its
/// scene-file twin.
public final class World: Scene {
    public static let name = "world"
    public static let summary = "text in many scripts: shaping, right-to-left, fallback fonts, emoji, wrapping and keyboards"

    /// Each greeting: the language's name and the greeting in its own script.
    public static let greetings: [(language: String, greeting: String)] = [
        ("English", "Welcome"), ("العربية", "أهلاً وسهلاً بكم"), ("עברית", "ברוכים הבאים"),
        ("Русский", "Добро пожаловать"), ("Ελληνικά", "Καλώς ήρθατε"), ("ไทย", "ยินดีต้อนรับ"),
        ("हिन्दी", "आपका स्वागत है"), ("中文", "欢迎光临"), ("日本語", "ようこそ"), ("Emoji", "👋🏽 🇩🇪 🇯🇵 👨‍👩‍👧 🎉"),
    ]

    /// The paragraph the right card wraps.
    public static let paragraph = "Lamina breaks lines where Unicode allows: after spaces and hyphens, and between "
        + "Chinese or Japanese characters, 日本語の文章は単語の間に空白がなくても折り返せます。 Arabic runs right to left "
        + "inside it, مرحبا بكم في لامينا, and the paragraph goes on after it until its fifth line, where it is cut."

    /// The text box the keyboard types into.
    public let box: TextBox

    public init(context: SceneContext, settings: NoSettings) {
        let theme = Theme.dark
        let screen = context.screenSize
        let margin = 60.0, gap = 60.0
        let cardWidth = (screen.width - 2 * margin - gap) / 2, cardHeight = screen.height - 2 * margin
        let inner = cardWidth - 2 * 40

        // The greetings, one row each: the language's name, then its greeting as it reads.
        let left = Self.card(x: margin, width: cardWidth, height: cardHeight, theme: theme, in: context)
        left.addSublayer(Self.label("Hello, world", x: 40, y: 40, width: inner, size: theme.titleFontSize * 1.3, theme: theme))
        let rowHeight = (cardHeight - 150) / Double(Self.greetings.count)
        for (k, row) in Self.greetings.enumerated() {
            let y = 130 + Double(k) * rowHeight
            let name = Self.label(row.language, x: 40, y: y, width: 200, size: theme.fontSize, theme: theme)
            name.foregroundColor = theme.secondaryText
            name.alignmentMode = .left
            left.addSublayer(name)
            left.addSublayer(Self.label(row.greeting, x: 260, y: y - 6, width: inner - 220, size: 40, theme: theme))
        }

        // The paragraph, the truncated labels and the text box.
        let right = Self.card(x: margin + cardWidth + gap, width: cardWidth, height: cardHeight, theme: theme, in: context)
        right.addSublayer(Self.label("Lines and typing", x: 40, y: 40, width: inner, size: theme.titleFontSize * 1.3, theme: theme))
        let wrapped = Self.label(Self.paragraph, x: 40, y: 120, width: inner, size: 30, theme: theme)
        wrapped.isWrapped = true
        wrapped.numberOfLines = 5
        wrapped.truncationMode = .end
        wrapped.lineHeightMultiple = 1.1
        wrapped.bounds.size.height = 5 * 30 * 1.3 * 1.1
        right.addSublayer(wrapped)
        // The box in a face of its own (the theme's `font`); what DejaVu Serif lacks, Arabic
        // and Hebrew among it, comes from the faces fontconfig finds.
        var boxTheme = theme
        boxTheme.font = try? Font(family: "DejaVu Serif")
        box = TextBox(context: context, width: inner, placeholder: "Type in Arabic or Hebrew", theme: boxTheme)
        box.layer.position = Point(x: cardWidth / 2, y: 400)
        right.addSublayer(box.layer)
        for (k, mode) in [TextTruncation.start, .middle, .end].enumerated() {
            let cut = Self.label("Cut at the \(mode.rawValue): a label far too long for the place it is given",
                                 x: 40, y: 470 + Double(k) * 50, width: inner, size: theme.fontSize, theme: theme)
            cut.truncationMode = mode
            cut.foregroundColor = theme.secondaryText
            right.addSublayer(cut)
        }
    }

    private static func card(x: Double, width: Double, height: Double, theme: Theme, in context: SceneContext) -> Layer {
        let card = Layer()
        card.bounds = Rect(x: 0, y: 0, width: width, height: height)
        card.position = Point(x: x + width / 2, y: context.screenSize.height / 2)
        card.backgroundColor = theme.card
        card.cornerRadius = 24
        context.rootLayer.addSublayer(card)
        return card
    }

    /// A label whose top-left corner is at (`x`, `y`) in its card, natural alignment.
    private static func label(_ text: String, x: Double, y: Double, width: Double, size: Double, theme: Theme) -> TextLayer {
        let label = TextLayer()
        label.string = text
        label.fontSize = size
        label.foregroundColor = theme.text
        label.bounds = Rect(x: 0, y: 0, width: width, height: size * 1.4)
        label.anchorPoint = Point(x: 0, y: 0)
        label.position = Point(x: x, y: y)
        return label
    }
}
