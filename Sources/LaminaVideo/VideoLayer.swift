import LaminaLayers
import LaminaPixels

/// A layer showing a ``VideoPlayer``'s frames (`AVPlayerLayer`): each frame becomes its
/// `contents`, placed by `contentsGravity` (`resizeAspect` by default, as `AVPlayerLayer`'s
/// `videoGravity`) and scaled by the image filter, under whatever the layer's background,
/// corners, opacity and transform make of it. Until the first frame it shows its background.
public final class VideoLayer: Layer {
    /// The player whose frames this layer shows (one layer per player).
    public var player: VideoPlayer? {
        didSet {
            if oldValue?.output === self { oldValue?.output = nil }
            player?.output = self
        }
    }

    /// A layer showing `player`'s frames.
    public init(player: VideoPlayer? = nil) {
        super.init()
        contentsGravity = .resizeAspect
        self.player = player
        player?.output = self
    }

    /// Video may go on the display's overlay plane (decision 146): while the layer's frame is
    /// drawn unrotated at full opacity, clipped by rectangles at most, with nothing over it,
    /// and the driver takes it. Off, it is always composited.
    public var usesOverlayPlane = true

    /// True while `usesOverlayPlane` is.
    public override var contentsMayUseOverlayPlane: Bool { usesOverlayPlane }

    /// Shows `frame` at once (a new picture is not animated).
    func show(_ frame: PixelBuffer) {
        setContentsWithoutAction(frame)
    }
}
