import LaminaAnimation
import LaminaGeometry
import LaminaRaster

/// A presentation tree flattened by one walk (DisplayListBuilder.swift) into what painting
/// does, in order, and — when damage is tracked — where each layer drew and a digest of how.
/// Painting (Renderer+Painting.swift) and damage (Renderer+Damage.swift) both read it; neither
/// walks the tree again.
struct DisplayList {
    /// What to paint, back to front, in the canvas's device pixels.
    var operations: [DisplayOperation] = []
    /// One per layer drawn, in drawing order (kept subtrees' replayed where they were drawn);
    /// empty when damage is not tracked.
    var records = DrawRecords()
    /// Contents images that could go on an overlay plane instead (`ScanoutCandidate`),
    /// found when damage is tracked.
    var scanoutCandidates: [ScanoutCandidate] = []
    /// The paths of the shapes drawn, by record (`DrawRecord.pathHash`): kept apart so the
    /// records stay plain values, copied and compared every frame without reference counts.
    var outlines: [DrawKey: DrawRecord.Outline] = [:]
}

/// A layer's contents image drawn where an overlay plane could show it: on the canvas
/// itself (no group, mask, replicator or transition), at full opacity, scaled and moved but
/// not rotated or flipped, clipped only by rectangles on whole pixels. Whether anything is
/// drawn over it is decided once the walk is done (Renderer+Scanout.swift).
struct ScanoutCandidate {
    let image: PixelBuffer
    /// Where the whole image lands, in device pixels.
    let imageRect: Rect
    /// The rectangle clips in effect and the canvas, intersected.
    let clip: PixelRect
    /// The index of the layer's damage record among the walk's own (`DrawRecords.own`).
    let record: Int
    /// The layer's digest while its contents are on the plane: as the record's, but without
    /// the image's identity, so a new frame there damages nothing.
    let planeDigest: Int
}

/// One drawing operation. Transforms map into the target the operation draws on: the canvas,
/// or the offscreen of the group or mask it is nested in. Colours already carry their
/// layer's opacity and any replicator tints.
indirect enum DisplayOperation {
    /// Fills a path (a background, a shape's fill, a border ring).
    case fill(Path, color: Color, rule: FillRule, toTarget: Transform3D)
    /// Strokes a path (a shape's stroke).
    case stroke(Path, style: StrokeStyle, color: Color, toTarget: Transform3D)
    /// Draws an image (`contents`), mapped from its pixels into the target.
    case image(PixelBuffer, toTarget: Transform3D, opacity: Double)
    /// Fills a path with a gradient (a gradient layer).
    case gradient(Path, Gradient, toTarget: AffineTransform)
    /// Draws a text layer's lines.
    case text(TextSource, color: Color, toTarget: Transform3D)
    /// A layer's shadow: its silhouette filled, blurred by about `radius` target pixels and
    /// placed at `offset` (both in the layer's units). `covered`, in the layer's space, is
    /// wholly covered by the opaque background drawn next: the shadow is not composited there.
    case shadow(silhouette: Path, color: Color, radius: Double, offset: Size, toTarget: AffineTransform, covered: Rect?)
    /// `operations` that draw nothing outside `box` (target pixels): a kept subtree's
    /// drawing, skipped whole when the clip (the damage) misses the box.
    case bounded([DisplayOperation], box: PixelRect)
    /// `operations` clipped to a path (`masksToBounds`).
    case clipped([DisplayOperation], to: Path, toTarget: Transform3D)
    /// `operations` drawn into an offscreen covering `box`, composited once with `opacity`
    /// (group opacity); their transforms map into that offscreen.
    case group([DisplayOperation], box: PixelRect, opacity: Double)
    /// `operations` clipped by the alpha of `mask`, which draws into an offscreen covering
    /// `box` (its transforms map into that offscreen).
    case masked([DisplayOperation], mask: [DisplayOperation], box: PixelRect)
}

/// The text layer a `.text` operation draws, held without a strong reference: a kept
/// presentation copy keeps its subtree's operations (`SubtreeDrawing`), and an operation
/// that held the copy strongly would keep the copy alive through its own cache, for good.
/// The copy outlives its operations: they are replayed only while it is shown.
struct TextSource {
    unowned let layer: TextLayer
}

/// A drawn layer: its model layer, and which drawing of it (a replicator draws the same
/// model layer several times).
struct DrawKey: Hashable {
    var layer: ObjectIdentifier
    var occurrence: Int
}

/// Where a layer drew in device pixels, and a digest of everything that decides its pixels
/// (with `pathHash`).
struct DrawRecord: Equatable {
    var box: PixelRect
    var digest: Int
    /// Where the layer paints anything of its own (a background, contents, a border, a
    /// shadow, its kind's content, or a mask over its subtree), for what an overlay plane
    /// beneath it must not meet: nil for a bare container, which paints nothing; the
    /// rectangle itself, without `box`'s pixel of anti-aliasing, for one drawn on whole
    /// pixels (a bar touching a video's edge does not cover it).
    var paintBox: PixelRect?
    /// A hash of a shape's path, which `digest` leaves out (`Layer.kindOutline`; the path
    /// itself is in the display list's `outlines`); 0 for other kinds.
    var pathHash = 0
    /// Device pixels the layer's own drawing leaves wholly one opaque colour (whose hash is
    /// `interiorColor`): its opaque background's interior, inside its rounded
    /// corners and border by a pixel more, where it draws nothing else (no contents, no kind
    /// content), straight on the canvas through an axis-aligned transform. Nil otherwise.
    /// Where two frames' interiors of one colour overlap, the layer draws the same there in
    /// both, and whatever else changed (beneath, its sublayers, above) has records of its
    /// own, so the layer's change changes no pixel there: a card that moves or
    /// grows redraws the bands round its unchanged middle (`Renderer.addChange`).
    var interior: PixelRect?
    var interiorColor = 0

    /// A shape's path as the display list keeps it beside the shape's record.
    final class Outline: Equatable {
        /// In the layer's space.
        let path: Path
        /// From the layer's space into the device when only a fill of the path is drawn,
        /// straight onto the canvas (no stroke, shadow, mask, group or offscreen around it)
        /// and through an affine transform: then a change of its points alone damages only
        /// where the fill changed. Nil otherwise: any change damages the whole box.
        let toDevice: AffineTransform?

        init(path: Path, toDevice: AffineTransform?) {
            self.path = path
            self.toDevice = toDevice
        }

        static func == (a: Outline, b: Outline) -> Bool {
            a === b || (a.path == b.path && a.toDevice == b.toDevice)
        }
    }
}

/// What a layer kind's own content needs to append its operations (Layer's kind hooks).
struct KindContentContext {
    /// The layer's bounds, rounded by its corner radius.
    let outline: Path
    /// From the layer's space into the target.
    let toTarget: Transform3D
    /// A colour with the layer's opacity and the replicator tints in effect applied.
    let shade: (Color) -> Color
}

/// The sublayers as drawn once: a replicator draws them once per instance.
struct SublayerInstance {
    var sublayers: [Layer]
    /// Where this instance sits in the layer's space; nil for plain sublayers.
    var placement: Transform3D?
    var alpha = 1.0
    /// Multiplies every colour drawn in the instance; nil changes nothing.
    var tint: (r: Double, g: Double, b: Double)?
}

/// What one subtree's walk appended to the display list, kept on its presentation copy for
/// the frames that show the copy again: replayed while it is drawn with the same key.
final class SubtreeDrawing {
    /// Everything outside the subtree that its walk reads: where it is drawn, with what
    /// opacity, into which target, and how many layers were drawn before it (their count is in
    /// every digest).
    struct Key: Equatable {
        var toTarget: Transform3D
        var toDevice: Transform3D?
        var alpha: Double
        var shownAlpha: Double
        var targetWidth: Int, targetHeight: Int
        var recordsDamage: Bool
        var canvasWidth: Int, canvasHeight: Int
        var order: Int
    }

    let key: Key
    let operations: [DisplayOperation]
    let records: [(key: DrawKey, record: DrawRecord)]
    /// The paths of the shapes among them (`DisplayList.outlines`).
    let outlines: [(key: DrawKey, outline: DrawRecord.Outline)]
    /// Layers the walk drew (how far it moved the drawing order).
    let layersDrawn: Int

    init(key: Key, operations: [DisplayOperation], records: [(key: DrawKey, record: DrawRecord)],
         outlines: [(key: DrawKey, outline: DrawRecord.Outline)], layersDrawn: Int) {
        self.key = key
        self.operations = operations
        self.records = records
        self.outlines = outlines
        self.layersDrawn = layersDrawn
    }
}
