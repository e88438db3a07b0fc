import Lamina

/// A signage loop with a UI over part of it: a clip fills the screen (`resizeAspectFill`),
/// looping without a gap, and a lower third over it holds a title, a line under it, a price
/// tag and a ticker crossing the screen every 12 s. The clip is decoded by GStreamer and
/// composited by the rasterizer under the panel; `lamina ctl video promo pause` and the rest
/// drive it, and `stats` says which decoder plays it.
///
/// Written on the public app API only (`import Lamina`), as an app would; `signage.yaml` is
/// its scene-file twin.
public final class Signage: Scene {
    public static let name = "signage"
    public static let summary = "a looping video under a lower third: GStreamer decoding, composited every frame"

    /// What the scene plays.
    public struct Settings: SceneSettings, Sendable {
        /// The clip: an absolute path, or one relative to the configuration file's folder
        /// (`[signage] clip`); the package installs the sample beside its scene files.
        public var clip = "/etc/lamina/scenes/signage-loop.webm"

        public init() {}

        public init(from table: SettingsTable) throws(ConfigError) {
            let written = try table.string("clip", default: clip, maxLength: 1024)
            if written.hasPrefix("/") || written.contains("://") {
                clip = written
            } else {
                // Beside the configuration file, made absolute (a missing file keeps its
                // joined path, which the player reports).
                let joined = Paths.joined(Paths.directory(of: table.file), written)
                clip = Paths.resolvingLinks(joined) ?? joined
            }
            try table.rejectUnknownKeys()
        }
    }

    /// The text the ticker carries.
    public static let ticker = "Open 7:00–19:00 · Fresh pastries every morning · Ask about our loyalty card · Free Wi-Fi"

    /// The video layer and its player (nil when the clip could not be opened).
    public let video: VideoLayer
    public let player: VideoPlayer?

    public init(context: SceneContext, settings: Settings) {
        let screen = context.screenSize
        video = VideoLayer()
        video.name = "promo"
        video.bounds = Rect(x: 0, y: 0, width: screen.width, height: screen.height)
        video.position = Point(x: screen.width / 2, y: screen.height / 2)
        video.contentsGravity = .resizeAspectFill
        video.backgroundColor = Color(red8: 0x0F, green8: 0x11, blue8: 0x15)
        context.rootLayer.addSublayer(video)
        do {
            let player = try VideoPlayer(source: try VideoSource(settings.clip), context: context, loops: true)
            player.name = "promo"
            player.volume = 0.8
            player.isMuted = true            // the default; false plays a clip's sound (this one has none)
            video.player = player
            player.play()
            self.player = player
        } catch {
            context.logger.error("signage: \(error)")
            player = nil
        }

        // The lower third: a translucent panel over the bottom of the video.
        let panel = Layer()
        panel.bounds = Rect(x: 0, y: 0, width: screen.width, height: 260)
        panel.position = Point(x: screen.width / 2, y: screen.height - 130)
        panel.backgroundColor = Color(red8: 0x0F, green8: 0x11, blue8: 0x15, alpha8: 204)
        context.rootLayer.addSublayer(panel)
        panel.addSublayer(Self.label("Lamina Café", x: 80, y: 30, width: 1000, size: 64, color: Color(red8: 0xF3, green8: 0xF4, blue8: 0xF6)))
        panel.addSublayer(Self.label("Fresh coffee, all day", x: 80, y: 120, width: 1000, size: 36, color: Color(red8: 0x9C, green8: 0xA3, blue8: 0xAF)))
        let tag = Layer()
        tag.bounds = Rect(x: 0, y: 0, width: 280, height: 120)
        tag.position = Point(x: screen.width - 240, y: 100)
        tag.backgroundColor = Color(red8: 0xFF, green8: 0xC2, blue8: 0x33)
        tag.cornerRadius = 24
        panel.addSublayer(tag)
        let price = Self.label("€2.50", x: 0, y: 24, width: 280, size: 60, color: Color(red8: 0x16, green8: 0x32, blue8: 0x4F))
        price.alignmentMode = .center
        tag.addSublayer(price)

        // The ticker: a line of text crossing the screen from right to left, forever.
        let strip = Layer()
        strip.bounds = Rect(x: 0, y: 0, width: screen.width, height: 56)
        strip.position = Point(x: screen.width / 2, y: 232)
        strip.backgroundColor = Color(red8: 0x16, green8: 0x32, blue8: 0x4F)
        strip.masksToBounds = true
        panel.addSublayer(strip)
        let line = Self.label(Self.ticker, x: 0, y: 10, width: 1800, size: 30, color: Color(red8: 0xF3, green8: 0xF4, blue8: 0xF6))
        strip.addSublayer(line)
        var crossing = BasicAnimation(keyPath: "position.x", from: .scalar(screen.width), to: .scalar(-line.bounds.width), duration: 12)
        crossing.timingFunction = .linear
        crossing.timing.repeatCount = .infinity
        line.add(crossing, forKey: "ticker")
    }

    /// A left-aligned label whose top-left corner is at (`x`, `y`) in its superlayer.
    private static func label(_ text: String, x: Double, y: Double, width: Double, size: Double, color: Color) -> TextLayer {
        let label = TextLayer()
        label.string = text
        label.fontSize = size
        label.foregroundColor = color
        label.alignmentMode = .left
        label.bounds = Rect(x: 0, y: 0, width: width, height: size * 1.4)
        label.anchorPoint = Point(x: 0, y: 0)
        label.position = Point(x: x, y: y)
        return label
    }
}
