import LaminaAnimation
import LaminaGeometry
import LaminaRaster

/// A frame whose changes are found but not yet painted: the display list of the walk and
/// the damage it leaves (the two halves of `renderDamage`, so a caller can time them apart).
public struct DamagedFrame {
    let list: DisplayList
    /// The rectangle spanning everything that has to be redrawn, in device pixels (what is
    /// copied out); nil when nothing changed.
    public let damage: PixelRect?
    /// What is redrawn: disjoint rectangles inside `damage` (at most `DamageRegions.maximumCount`).
    public let regions: [PixelRect]
    /// The contents an overlay plane shows this frame instead (painting skips the image).
    public let overlay: OverlayContents?
}

/// Drawing only what changed since the last frame (the renderer with damage).
extension Renderer {
    /// Redraws only what changed since the last call: the canvas must still hold that
    /// frame. Compares each layer's device box and a digest of everything that affects its
    /// pixels (its properties, device transform, inherited opacity and drawing order) with
    /// the last frame's, clears the changed boxes (old and new, gathered into a few disjoint
    /// rectangles: `DamageRegions`) to `background` and paints the display list clipped to
    /// each. Returns the rectangle spanning them (nil: nothing changed; the whole canvas on
    /// the first frame or after the size or background changed).
    @discardableResult
    public func renderDamage(_ root: Layer, into canvas: Canvas, background: Color) -> PixelRect? {
        let frame = findDamage(root, canvasSize: (canvas.target.width, canvas.target.height), background: background)
        paint(frame, into: canvas, background: background)
        return frame.damage
    }

    /// The first half of `renderDamage`: walks `root` into a display list and compares its
    /// records with the last frame's (which this replaces), without touching any pixel.
    ///
    /// With `overlay`, contents an overlay plane could show (Renderer+Scanout.swift) are
    /// offered to it; when it returns true they are left to the plane.
    public func findDamage(_ root: Layer, canvasSize: (width: Int, height: Int), background: Color,
                           overlay: ((OverlayContents) -> Bool)? = nil) -> DamagedFrame {
        var list = DisplayListBuilder.build(root, canvasSize: canvasSize, tracksDamage: true,
                                            expectedRecords: previous?.own.count ?? 0, expectedReplays: previous?.replays.count ?? 0)
        var onPlane: OverlayContents?
        if let overlay, let choice = Self.overlayChoice(list), overlay(choice.contents) {
            list.records.setDigest(choice.candidate.planeDigest, ofOwn: choice.candidate.record)
            onPlane = choice.contents
        }
        let records = list.records
        let whole = PixelRect(width: canvasSize.width, height: canvasSize.height)
        var regions: [PixelRect]
        if let previous, let setup = previousSetup, setup.width == canvasSize.width, setup.height == canvasSize.height,
           setup.background == background {
            regions = Self.damage(from: previous, to: records, in: whole, outlines: (previousOutlines, list.outlines),
                                  tolerance: flatteningTolerance, compared: &recordsCompared).drawn
        } else {
            regions = [whole]
        }
        previous = records
        previousOutlines = list.outlines
        previousSetup = (canvasSize.width, canvasSize.height, background)
        guard var hull = regions.first else { return DamagedFrame(list: list, damage: nil, regions: [], overlay: onPlane) }
        for r in regions.dropFirst() { hull = hull.union(r) }
        return DamagedFrame(list: list, damage: hull, regions: regions, overlay: onPlane)
    }

    /// The second half of `renderDamage`: clears each of `frame`'s regions to `background`
    /// and paints its display list clipped to it (nothing when nothing changed).
    public func paint(_ frame: DamagedFrame, into canvas: Canvas, background: Color) {
        skippedImage = frame.overlay?.image
        defer { skippedImage = nil }
        for d in frame.regions {
            canvas.save()
            canvas.clip(to: Rect(d))
            canvas.target.fill(pixel: background.premultiplied.pixel32, x0: d.x0, y0: d.y0, x1: d.x1, y1: d.y1)
            paint(frame.list.operations, on: canvas)
            canvas.restore()
        }
    }

    /// The boxes of the layers whose records differ between two frames (old and new box, or
    /// where the fill changed for a shape whose points alone moved: `addChange`), of those
    /// drawn in one only, and of nothing else, gathered into regions. When both frames drew
    /// the same layers in the same order (a frame where only something moved or animated)
    /// the records are compared side by side, but for those of a kept subtree replayed in the
    /// same place in both (the same drawing: the same records); otherwise by key. `outlines`
    /// are the shapes' paths of both frames, `tolerance` the canvas's flattening tolerance.
    static func damage(from previous: DrawRecords, to records: DrawRecords, in canvas: PixelRect,
                       outlines: (before: [DrawKey: DrawRecord.Outline], after: [DrawKey: DrawRecord.Outline]) = ([:], [:]),
                       tolerance: Double = Path.defaultFlatteningTolerance) -> DamageRegions {
        var compared = 0
        return damage(from: previous, to: records, in: canvas, outlines: outlines, tolerance: tolerance, compared: &compared)
    }

    /// `damage(from:to:in:outlines:tolerance:)`, counting the records it compared into
    /// `compared` (those it skipped in replays, not).
    static func damage(from previous: DrawRecords, to records: DrawRecords, in canvas: PixelRect,
                       outlines: (before: [DrawKey: DrawRecord.Outline], after: [DrawKey: DrawRecord.Outline]),
                       tolerance: Double, compared: inout Int) -> DamageRegions {
        compared = 0
        func addChange(_ key: DrawKey, from old: DrawRecord, to new: DrawRecord, to damage: inout DamageRegions) {
            Self.addChange(from: (old, outlines.before[key]), to: (new, outlines.after[key]), tolerance: tolerance, to: &damage)
        }
        var damage = DamageRegions(bounds: canvas)
        if previous.count == records.count {
            var aligned = true
            var old = DrawRecords.Cursor(), new = DrawRecords.Cursor()
            var left = records.count
            while left > 0 {
                if let drawing = records.replay(startingAt: new), previous.replay(startingAt: old) === drawing {
                    previous.skipReplay(&old)
                    records.skipReplay(&new)
                    left -= drawing.records.count
                    continue
                }
                let before = previous.entry(at: old), after = records.entry(at: new)
                compared += 1
                guard before.key == after.key else {
                    aligned = false
                    break
                }
                if before.record != after.record { addChange(after.key, from: before.record, to: after.record, to: &damage) }
                previous.advance(&old)
                records.advance(&new)
                left -= 1
            }
            if aligned { return damage }
            damage = DamageRegions(bounds: canvas)
        }
        compared = records.count
        var before: [DrawKey: DrawRecord] = [:], after: [DrawKey: DrawRecord] = [:]
        before.reserveCapacity(previous.count)
        after.reserveCapacity(records.count)
        for (key, record) in previous.all { before[key] = record }
        for (key, record) in records.all { after[key] = record }
        for (id, record) in after where before[id] != record {
            if let old = before[id] {
                addChange(id, from: old, to: record, to: &damage)
            } else {
                damage.add(record.box)
            }
        }
        for (id, old) in before where after[id] == nil { damage.add(old.box) }
        return damage
    }

    /// What changed between two records of one layer: both boxes, or, when only its
    /// outline's points moved and it only fills the outline on the canvas, where the fill
    /// changed (`Path.differingRegions`, in device pixels, grown by a pixel as every box is),
    /// or, when both frames' opaque interiors (`DrawRecord.interior`) of one colour overlap,
    /// both boxes but for that overlap.
    static func addChange(from old: (record: DrawRecord, outline: DrawRecord.Outline?),
                          to new: (record: DrawRecord, outline: DrawRecord.Outline?),
                          tolerance: Double, to damage: inout DamageRegions) {
        if old.record.digest == new.record.digest, let before = old.outline, let after = new.outline,
           let toDevice = after.toDevice, before.toDevice == toDevice,
           let regions = after.path.applying(toDevice).differingRegions(from: before.path.applying(toDevice), tolerance: tolerance),
           regions.allSatisfy({ $0.minX.isFinite && $0.minY.isFinite && $0.maxX.isFinite && $0.maxY.isFinite }) {
            for r in regions { damage.add(DrawingGeometry.pixels(around: r)) }
            return
        }
        // Where both frames' opaque interiors of one colour overlap, no pixel changed.
        if let a = old.record.interior, let b = new.record.interior, old.record.interiorColor == new.record.interiorColor,
           case let unchanged = a.intersection(b), !unchanged.isEmpty {
            for r in new.record.box.subtracting(unchanged) { damage.add(r) }
            for r in old.record.box.subtracting(unchanged) { damage.add(r) }
            return
        }
        damage.add(new.record.box)
        damage.add(old.record.box)
    }
}

