import LaminaAnimation
import LaminaGeometry
import LaminaRaster

/// The one walk of a presentation tree. Per layer, back to front: its shadow, its background
/// (rounded by `cornerRadius`), its contents image, its kind's content (a shape's fill and
/// stroke, text, a gradient), its sublayers in drawing order (rule 54) — those three clipped
/// to the rounded bounds with `masksToBounds` — and its border on top, inside the bounds.
///
/// Opacity is group opacity: a translucent layer with more than one thing to draw becomes a
/// group (an offscreen the size of what it covers, composited once); with a single element
/// the colour's alpha is simply scaled. A mask draws into an offscreen whose alpha clips the
/// layer. Transform layers draw their planes back to front (rule 55).
struct DisplayListBuilder {
    /// Where the walk is in the tree.
    struct Place {
        /// From the layer's plane into the target being drawn (the canvas, or an offscreen).
        var toTarget: Transform3D
        /// From the layer's plane into the device when that is not `toTarget` (inside an
        /// offscreen); damage records are in device pixels.
        var toDevice: Transform3D?
        /// The opacity applied to what the layer draws.
        var alpha: Double
        /// The product of the opacities above, whether scaled in or composited by a group:
        /// a layer's pixels change with it either way.
        var shownAlpha: Double
        /// The target's size in pixels.
        var targetSize: (width: Int, height: Int)
        /// Whether layers here get damage records (not inside a transition or a mask, whose
        /// owner's record covers them).
        var recordsDamage: Bool

        var device: Transform3D { toDevice ?? toTarget }
    }

    /// A layer's damage record, finished once its mask (if any) is walked.
    private struct PendingRecord {
        var key: DrawKey
        var box: PixelRect
        var digest: Hasher
        var paintBox: PixelRect?
        var outline: DrawRecord.Outline?
        var interior: (pixels: PixelRect, color: Int)?
    }

    private let canvasSize: (width: Int, height: Int)
    private var list = DisplayList()
    /// Layers drawn so far (their drawing order is part of their digest).
    private var order = 0
    /// How many times each model layer has been drawn so far in this walk.
    private var occurrences: [ObjectIdentifier: Int] = [:]
    /// Replicator instance colours in effect, innermost last: every colour drawn is
    /// multiplied by them (`instanceColor` and its offsets).
    private var tints: [(r: Double, g: Double, b: Double)] = []
    /// How many replicators the walk is inside: there the same layers are drawn once per
    /// instance, and no subtree's walk is kept.
    private var replicatorDepth = 0
    /// The `masksToBounds` clips in effect, outermost first: device rectangles on whole
    /// pixels, or nil for any other clip (rounded, rotated, inside an offscreen).
    private var clips: [PixelRect?] = []
    /// How many masks the walk is inside (their content is clipped by alpha).
    private var maskDepth = 0

    /// Walks `root` for a canvas of `canvasSize`; with `tracksDamage`, every layer drawn also
    /// gets a record. `expectedRecords` and `expectedReplays` (the last frame's counts) are
    /// room made up front for the records, the layers' draw counts and the replays, so none
    /// grows by copying (and rehashing) itself every frame.
    static func build(_ root: Layer, canvasSize: (width: Int, height: Int), tracksDamage: Bool,
                      expectedRecords: Int = 0, expectedReplays: Int = 0) -> DisplayList {
        var builder = DisplayListBuilder(canvasSize: canvasSize)
        builder.list.records.reserveCapacity(own: expectedRecords, replays: expectedReplays)
        builder.occurrences.reserveCapacity(expectedRecords)
        var operations: [DisplayOperation] = []
        builder.walk(root, Place(toTarget: root.transformToSuperlayerPlane(), alpha: 1, shownAlpha: 1,
                                 targetSize: canvasSize, recordsDamage: tracksDamage), into: &operations)
        builder.list.operations = operations
        return builder.list
    }

    private init(canvasSize: (width: Int, height: Int)) {
        self.canvasSize = canvasSize
    }

    /// Walks `layer`'s subtree, or replays what its walk appended the last time when its
    /// presentation copy was kept (nothing in the subtree changed or animates) and it is drawn
    /// in the same place, with the same drawing order before it (decision 128). Not inside a
    /// replicator, where the same layers are walked once per instance.
    private mutating func walk(_ layer: Layer, _ place: Place, into operations: inout [DisplayOperation],
                               inTransition: Bool = false) {
        guard replicatorDepth == 0, !inTransition, layer.isPresentation, layer.presentsStatically else {
            walkSubtree(layer, place, into: &operations, inTransition: inTransition)
            return
        }
        let key = SubtreeDrawing.Key(toTarget: place.toTarget, toDevice: place.toDevice, alpha: place.alpha,
                                     shownAlpha: place.shownAlpha, targetWidth: place.targetSize.width,
                                     targetHeight: place.targetSize.height, recordsDamage: place.recordsDamage,
                                     canvasWidth: canvasSize.width, canvasHeight: canvasSize.height, order: order)
        if let kept = layer.drawingCache, kept.key == key {
            operations.append(contentsOf: kept.operations)
            list.records.appendReplay(of: kept)
            for (key, outline) in kept.outlines { list.outlines[key] = outline }
            order += kept.layersDrawn
            return
        }
        let firstOperation = operations.count, firstRecord = list.records.end
        let candidatesBefore = list.scanoutCandidates.count
        walkSubtree(layer, place, into: &operations, inTransition: false)
        // A subtree holding contents an overlay plane may show is walked every frame: where
        // the candidate sits depends on clips outside it.
        guard list.scanoutCandidates.count == candidatesBefore else {
            layer.drawingCache = nil
            return
        }
        var drawn = Array(operations[firstOperation...])
        let records = list.records.entries(since: firstRecord)
        if place.toDevice == nil, place.recordsDamage, !drawn.isEmpty, let first = records.first {
            // Drawn on the canvas itself: every pixel the subtree paints is inside its records'
            // boxes (damage relies on it), so painting can skip it whole where the damage is not
            // (a lone text operation too: its glyphs would each be looked up and clipped away).
            let box = records.dropFirst().reduce(first.record.box) { $0.union($1.record.box) }
            operations.removeSubrange(firstOperation...)
            drawn = [.bounded(drawn, box: box)]
            operations.append(contentsOf: drawn)
        }
        let outlines = list.outlines.isEmpty ? [] : records.compactMap { r in list.outlines[r.key].map { (r.key, $0) } }
        layer.drawingCache = SubtreeDrawing(key: key, operations: drawn, records: records, outlines: outlines,
                                            layersDrawn: order - key.order)
    }

    private mutating func walkSubtree(_ layer: Layer, _ place: Place, into operations: inout [DisplayOperation],
                                      inTransition: Bool) {
        if !inTransition, let frame = layer.transitionFrame {
            walkTransition(layer, frame: frame, place, into: &operations)
            return
        }
        guard !layer.isHidden else { return }
        let own = min(max(layer.opacity, 0), 1)
        let opacity = place.alpha * own
        guard opacity > 0, !DrawingGeometry.isCulled(layer, toDevice: place.toTarget) else { return }
        if layer.keepsSublayers3D {
            // A transform layer draws only its planes, back to front, each with its own opacity.
            for plane in children(of: layer, place, alpha: opacity, shownAlpha: place.shownAlpha * own) {
                walk(plane.layer, plane.place, into: &operations)
            }
            return
        }
        let grouped = opacity < 1 && DrawingGeometry.elementCount(layer) > 1
        let pending = place.recordsDamage ? beginRecord(layer, place, opacity: opacity, own: own, grouped: grouped) : nil
        guard grouped else {
            appendContents(layer, place, alpha: opacity, own: own, pending: pending, into: &operations)
            return
        }
        let box = DrawingGeometry.deviceBounds(of: layer, toDevice: place.toTarget, canvasSize: place.targetSize)
        guard box.x0 < box.x1, box.y0 < box.y1 else {
            if let pending { finish(pending) }
            return
        }
        // The subtree drawn opaque into the group's offscreen (children at full alpha).
        var inner = place
        inner.toTarget = place.toTarget.concatenating(Transform3D(translationX: Double(-box.x0), y: Double(-box.y0), z: 0))
        inner.toDevice = place.device
        inner.alpha = 1
        inner.targetSize = (box.x1 - box.x0, box.y1 - box.y0)
        var groupOperations: [DisplayOperation] = []
        appendContents(layer, inner, alpha: 1, own: own, pending: pending, into: &groupOperations)
        operations.append(.group(groupOperations, box: box, opacity: opacity))
    }

    /// A layer in a transition (rule 34): the old picture and the new one, each moved by the
    /// transition's offsets (in the layer's own space) and faded for `fade`; the one that
    /// moves over the other is drawn last. A transition moves pictures anywhere: its record
    /// is the whole canvas, every frame it runs.
    private mutating func walkTransition(_ layer: Layer, frame: (old: Layer, transition: Transition, progress: Double),
                                         _ place: Place, into operations: inout [DisplayOperation]) {
        if place.recordsDamage && !layer.isHidden && place.alpha * min(max(layer.opacity, 0), 1) > 0 {
            var digest = Hasher()
            digest.combine(frame.progress)
            digest.combine(order)
            order += 1
            finish(PendingRecord(key: nextKey(for: layer), box: PixelRect(width: canvasSize.width, height: canvasSize.height),
                                 digest: digest))
        }
        let p = min(max(frame.progress, 0), 1)
        let offsets = frame.transition.offsets(at: p)
        let b = layer.bounds
        let fade = frame.transition.kind == .fade
        func shifted(_ o: (x: Double, y: Double), alpha: Double) -> Place {
            var moved = place
            moved.toTarget = Transform3D(translationX: o.x * b.width, y: o.y * b.height, z: 0).concatenating(place.toTarget)
            moved.toDevice = nil
            moved.alpha = alpha
            moved.recordsDamage = false
            return moved
        }
        let old = shifted(offsets.old, alpha: place.alpha * (fade ? 1 - p : 1))
        let new = shifted(offsets.new, alpha: place.alpha * (fade ? p : 1))
        if frame.transition.kind == .reveal {
            walk(layer, new, into: &operations, inTransition: true)
            walk(frame.old, old, into: &operations, inTransition: true)
        } else {
            walk(frame.old, old, into: &operations, inTransition: true)
            walk(layer, new, into: &operations, inTransition: true)
        }
    }

    /// The layer's drawing with colours scaled by `alpha`; with a mask, clipped by the
    /// mask's drawn alpha. Finishes the layer's record (its digest takes in the mask's).
    private mutating func appendContents(_ layer: Layer, _ place: Place, alpha: Double, own: Double,
                                         pending: PendingRecord?, into operations: inout [DisplayOperation]) {
        guard let mask = layer.maskLayer else {
            if let pending { finish(pending) }
            appendUnmasked(layer, place, alpha: alpha, own: own, into: &operations)
            return
        }
        let maskToTarget = mask.transformToSuperlayer().concatenating(place.toTarget)
        let box = DrawingGeometry.deviceBounds(of: mask, toDevice: maskToTarget, canvasSize: place.targetSize)
        var maskOperations: [DisplayOperation] = []
        var maskWalk = DisplayListBuilder(canvasSize: canvasSize)
        maskWalk.tints = tints
        maskWalk.replicatorDepth = replicatorDepth
        if box.x0 < box.x1, box.y0 < box.y1 {
            let maskPlace = Place(toTarget: maskToTarget.concatenating(Transform3D(translationX: Double(-box.x0), y: Double(-box.y0), z: 0)),
                                  toDevice: mask.transformToSuperlayer().concatenating(place.device), alpha: 1, shownAlpha: 1,
                                  targetSize: (box.x1 - box.x0, box.y1 - box.y0), recordsDamage: pending != nil)
            maskWalk.walk(mask, maskPlace, into: &maskOperations)
        }
        if var pending {
            // A mask changes the pixels of the whole subtree: its layers' digests go in.
            pending.digest.combine(maskWalk.list.records.count)
            for (_, record) in maskWalk.list.records.all {
                pending.digest.combine(record.digest)
                pending.digest.combine(record.pathHash)
            }
            finish(pending)
        }
        guard box.x0 < box.x1, box.y0 < box.y1 else { return }             // an empty mask hides everything
        var content: [DisplayOperation] = []
        maskDepth += 1
        appendUnmasked(layer, place, alpha: alpha, own: own, into: &content)
        maskDepth -= 1
        operations.append(.masked(content, mask: maskOperations, box: box))
    }

    /// What a rounded rectangle's fill covers wholly, as one rectangle: the bounds inset to
    /// where the corners' quarter circles cross their diagonals.
    static func interior(of bounds: Rect, cornerRadius radius: Double) -> Rect {
        let inset = radius * (1 - 0.5.squareRoot())
        return bounds.insetBy(dx: inset, dy: inset)
    }

    /// The corner radius a layer's bounds are rounded by: at least 0, at most half the
    /// shorter side.
    private static func cornerRadius(of layer: Layer, bounds: Rect) -> Double {
        min(max(layer.cornerRadius, 0), min(bounds.width, bounds.height) / 2)
    }

    /// The inner edge of a layer's border of width `borderWidth` (at most half the shorter
    /// side) inside bounds rounded by `radius`: the rectangle and its corner radius.
    private static func borderInside(of layer: Layer, bounds: Rect, radius: Double) -> (rect: Rect, radius: Double) {
        let w = min(layer.borderWidth, min(bounds.width, bounds.height) / 2)
        return (bounds.insetBy(dx: w, dy: w), max(radius - w, 0))
    }

    private mutating func appendUnmasked(_ layer: Layer, _ place: Place, alpha: Double, own: Double,
                                         into operations: inout [DisplayOperation]) {
        let bounds = layer.bounds
        let radius = Self.cornerRadius(of: layer, bounds: bounds)
        let outline = radius > 0 ? Path(roundedRect: bounds, cornerRadius: radius) : Path(rect: bounds)
        let toTarget = place.toTarget
        let background = layer.backgroundColor.map { shade($0, alpha) }
        if layer.shadowOpacity > 0, let color = layer.shadowColor, toTarget.isAffine {
            let covered = background.flatMap { $0.alpha >= 1 ? Self.interior(of: bounds, cornerRadius: radius) : nil }
            operations.append(.shadow(silhouette: layer.shadowPath ?? layer.kindSilhouette ?? outline,
                                      color: shade(color, alpha * min(layer.shadowOpacity, 1)),
                                      radius: layer.shadowRadius, offset: layer.shadowOffset, toTarget: toTarget.affineTransform,
                                      covered: covered))
        }
        if let background {
            operations.append(.fill(outline, color: background, rule: .nonZero, toTarget: toTarget))
        }
        // What the bounds clip is kept apart, to be wrapped in the clip; without one it goes
        // straight into `operations` (a parent of hundreds of layers copied its list once more
        // every frame).
        if layer.masksToBounds {
            clips.append(radius > 0 ? nil : Self.pixelRect(bounds, place))
            var inside: [DisplayOperation] = []
            appendInside(layer, place, alpha: alpha, own: own, outline: outline, into: &inside)
            clips.removeLast()
            operations.append(.clipped(inside, to: outline, toTarget: toTarget))
        } else {
            appendInside(layer, place, alpha: alpha, own: own, outline: outline, into: &operations)
        }
        if let color = layer.borderColor, layer.borderWidth > 0 {
            var ring = outline
            let (inner, innerRadius) = Self.borderInside(of: layer, bounds: bounds, radius: radius)
            if inner.width > 0 && inner.height > 0 {
                let hole = innerRadius > 0 ? Path(roundedRect: inner, cornerRadius: innerRadius) : Path(rect: inner)
                for element in hole.elements { ring.append(element) }
            }
            operations.append(.fill(ring, color: shade(color, alpha), rule: .evenOdd, toTarget: toTarget))
        }
    }

    /// What a layer draws inside its bounds, in order: its contents image, its kind's content
    /// and its sublayers (what `masksToBounds` clips).
    private mutating func appendInside(_ layer: Layer, _ place: Place, alpha: Double, own: Double, outline: Path,
                                       into operations: inout [DisplayOperation]) {
        let toTarget = place.toTarget
        if let image = layer.contents, image.width > 0, image.height > 0 {
            let placed = DrawingGeometry.contentsRect(of: layer, image: image)
            let imageToLayer = Transform3D(scaleX: placed.width / Double(image.width), y: placed.height / Double(image.height), z: 1)
                .concatenating(Transform3D(translationX: placed.minX, y: placed.minY, z: 0))
            operations.append(.image(image, toTarget: imageToLayer.concatenating(toTarget), opacity: alpha))
            if layer.model().contentsMayUseOverlayPlane { noteScanoutCandidate(layer, image: image, placed: placed, place, alpha: alpha) }
        }
        let tintsNow = tints
        layer.appendKindContent(to: &operations, in: KindContentContext(outline: outline, toTarget: toTarget,
                                                                       shade: { Self.shade($0, alpha, tints: tintsNow) }))
        if !layer.drawsSublayerInstances {
            // Each sublayer once, placed straight from this layer (no arrays built, its
            // superlayer not read back through the weak reference): the walk of a parent of
            // hundreds of layers, most of them kept, is this loop.
            var childPlace = place
            childPlace.alpha = alpha
            childPlace.shownAlpha = place.shownAlpha * own
            for child in layer.sublayersInDrawingOrder {
                assert(child.superlayer === layer, "a sublayer drawn from a layer that is not its superlayer")
                let toParent = child.transformToSuperlayerPlane(in: layer)
                childPlace.toTarget = toParent.concatenating(place.toTarget)
                childPlace.toDevice = place.toDevice.map { toParent.concatenating($0) }
                walk(child, childPlace, into: &operations)
            }
            return
        }
        let replicates = layer.sublayerInstanceCount > 1
        if replicates { replicatorDepth += 1 }
        for child in children(of: layer, place, alpha: alpha, shownAlpha: place.shownAlpha * own) {
            if let tint = child.tint { tints.append(tint) }
            walk(child.layer, child.place, into: &operations)
            if child.tint != nil { tints.removeLast() }
        }
        if replicates { replicatorDepth -= 1 }
    }

    /// What the layer draws after itself, with their places: the target and device chains
    /// each built as the other would be alone.
    private func children(of layer: Layer, _ place: Place, alpha: Double, shownAlpha: Double)
        -> [(layer: Layer, place: Place, tint: (r: Double, g: Double, b: Double)?)] {
        let inTarget = DrawingGeometry.children(of: layer, toDevice: place.toTarget, alpha: alpha)
        let inDevice = place.toDevice.map { DrawingGeometry.children(of: layer, toDevice: $0, alpha: alpha) }
        return inTarget.enumerated().map { i, child in
            (child.layer, Place(toTarget: child.toDevice, toDevice: inDevice?[i].toDevice, alpha: child.alpha, shownAlpha: shownAlpha,
                                targetSize: place.targetSize, recordsDamage: place.recordsDamage), child.tint)
        }
    }

    // MARK: Overlay planes

    /// Notes `layer`'s contents as a `ScanoutCandidate` when they are drawn as a plane could
    /// show them (the type says how); the last record is the layer's own.
    private mutating func noteScanoutCandidate(_ layer: Layer, image: PixelBuffer, placed: Rect, _ place: Place, alpha: Double) {
        guard place.recordsDamage, place.toDevice == nil, replicatorDepth == 0, maskDepth == 0, tints.isEmpty,
              alpha >= 1, layer.kindContentElementCount == 0, !(layer.borderWidth > 0 && layer.borderColor != nil),
              let record = list.records.lastOwnIndex, list.records.own[record].key.layer == ObjectIdentifier(layer.model()),
              let imageRect = Self.axisAligned(placed, place.toTarget) else { return }
        var clip = PixelRect(width: canvasSize.width, height: canvasSize.height)
        for c in clips {
            guard let c else { return }
            clip = clip.intersection(c)
        }
        var digest = Hasher()
        digest.combine(record)
        digest.combine(place.toTarget)
        digest.combine(place.shownAlpha)
        layer.hashLayerDrawing(into: &digest, includingContents: false)
        digest.combine(image.width)
        digest.combine(image.height)
        list.scanoutCandidates.append(ScanoutCandidate(image: image, imageRect: imageRect, clip: clip, record: record,
                                                       planeDigest: digest.finalize()))
    }

    /// `rect` in the layer's plane mapped into the target, when the transform only scales
    /// (by positive factors) and moves it.
    private static func axisAligned(_ rect: Rect, _ toTarget: Transform3D) -> Rect? {
        guard toTarget.isAffine else { return nil }
        let t = toTarget.affineTransform
        guard t.b == 0, t.c == 0, t.a > 0, t.d > 0 else { return nil }
        return t.apply(to: rect)
    }

    /// A clip rectangle's device pixels, when it maps onto whole pixels.
    private static func pixelRect(_ bounds: Rect, _ place: Place) -> PixelRect? {
        guard place.toDevice == nil, let r = axisAligned(bounds, place.toTarget) else { return nil }
        return DrawingGeometry.wholePixels(r)
    }

    // MARK: Damage records

    /// The start of a layer's record: its device box, and a digest of its drawing order,
    /// device transform, opacities, tints, grouping and own properties.
    private mutating func beginRecord(_ layer: Layer, _ place: Place, opacity: Double, own: Double, grouped: Bool) -> PendingRecord {
        var digest = Hasher()
        digest.combine(order)
        digest.combine(place.device)
        digest.combine(opacity)
        digest.combine(place.shownAlpha * own)
        for t in tints { digest.combine(t.r); digest.combine(t.g); digest.combine(t.b) }
        digest.combine(grouped)
        layer.hashDrawing(into: &digest)
        order += 1
        let shadow = layer.shadowOpacity > 0 && layer.shadowColor != nil
        let paints = layer.maskLayer != nil || layer.backgroundColor != nil || layer.contents != nil || shadow
            || (layer.borderColor != nil && layer.borderWidth > 0) || layer.kindContentElementCount > 0
        let box: PixelRect
        let local = layer.maskLayer == nil ? DrawingGeometry.ownBox(of: layer, toDevice: place.device) : nil
        if layer.maskLayer != nil {
            // A mask changes the pixels of the whole subtree: the box covers everything the
            // layer and its sublayers draw.
            box = DrawingGeometry.deviceBounds(of: layer, toDevice: place.device, canvasSize: canvasSize)
        } else if let local {
            box = DrawingGeometry.pixels(around: local)
        } else {
            box = PixelRect(width: canvasSize.width, height: canvasSize.height)
        }
        var paintBox = paints ? box : nil
        // A background, contents or border filling a box on whole pixels spills nowhere.
        if paints, !shadow, layer.kindContentElementCount == 0, let local, let exact = DrawingGeometry.wholePixels(local) {
            paintBox = exact.intersection(box)
        }
        let outline = layer.kindOutline.map { kind in
            let local = kind.onlyFilled && !shadow && layer.maskLayer == nil && !grouped && place.toDevice == nil
                && place.toTarget.isAffine
            return DrawRecord.Outline(path: kind.path, toDevice: local ? place.toTarget.affineTransform : nil)
        }
        let interior = grouped || layer.maskLayer != nil ? nil : opaqueInterior(of: layer, place, opacity: opacity)
        return PendingRecord(key: nextKey(for: layer), box: box, digest: digest, paintBox: paintBox, outline: outline,
                             interior: interior)
    }

    /// The device pixels `layer`'s own drawing leaves one opaque colour, and a hash of that
    /// colour (`DrawRecord.interior`): its opaque background's interior inside the rounded
    /// corners and the border, a pixel in from there (the corners' chords and anti-aliasing
    /// stay outside), on whole pixels, through an axis-aligned transform straight onto the
    /// canvas. Nil when it draws anything else inside its bounds (contents, its kind's
    /// content). Clips around it do not matter: where one hides the interior the layer draws
    /// nothing there in either frame, and a clip that moved is its owner's change, whose
    /// boxes are damaged but for its owner's own interior, which lies inside the clip.
    private func opaqueInterior(of layer: Layer, _ place: Place, opacity: Double) -> (pixels: PixelRect, color: Int)? {
        guard place.toDevice == nil, let background = layer.backgroundColor, layer.contents == nil,
              layer.kindContentElementCount == 0 else { return nil }
        let color = shade(background, opacity)
        guard color.alpha >= 1 else { return nil }
        let bounds = layer.bounds
        let radius = Self.cornerRadius(of: layer, bounds: bounds)
        var inside = Self.interior(of: bounds, cornerRadius: radius)
        if layer.borderColor != nil, layer.borderWidth > 0 {
            let border = Self.borderInside(of: layer, bounds: bounds, radius: radius)
            inside = Self.interior(of: border.rect, cornerRadius: border.radius)
        }
        // Upright only (an axis-aligned scale, not mirrored), as the rest of the walk takes
        // whole pixels; the shadow's covered pixels are found the same way.
        guard inside.width > 0, inside.height > 0, place.toTarget.isAffine, case let toTarget = place.toTarget.affineTransform,
              toTarget.a > 0, toTarget.d > 0 else { return nil }
        let pixels = Renderer.wholePixels(inside: inside, toTarget: toTarget)
            .intersection(PixelRect(width: canvasSize.width, height: canvasSize.height))
        return pixels.isEmpty ? nil : (pixels, color.hashValue)
    }

    private mutating func finish(_ pending: PendingRecord) {
        list.records.append((pending.key, DrawRecord(box: pending.box, digest: pending.digest.finalize(),
                                                     paintBox: pending.paintBox, pathHash: pending.outline?.path.hashValue ?? 0,
                                                     interior: pending.interior?.pixels,
                                                     interiorColor: pending.interior?.color ?? 0)))
        if let outline = pending.outline { list.outlines[pending.key] = outline }
    }

    private mutating func nextKey(for layer: Layer) -> DrawKey {
        let id = ObjectIdentifier(layer.model())
        let occurrence = occurrences[id, default: 0]
        occurrences[id] = occurrence + 1
        return DrawKey(layer: id, occurrence: occurrence)
    }

    /// `color` with `alpha` applied and the instance tints multiplied in.
    private func shade(_ color: Color, _ alpha: Double) -> Color {
        Self.shade(color, alpha, tints: tints)
    }

    private static func shade(_ color: Color, _ alpha: Double, tints: [(r: Double, g: Double, b: Double)]) -> Color {
        var r = color.red, g = color.green, b = color.blue
        for t in tints { r *= t.r; g *= t.g; b *= t.b }
        return Color(red: r, green: g, blue: b, alpha: color.alpha * alpha)
    }
}
