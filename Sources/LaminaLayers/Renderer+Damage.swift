import LaminaAnimation
import LaminaGeometry
import LaminaRaster

/// A frame whose changes are found but not yet painted: the display list of the walk and
/// the damage it leaves (the two halves of `renderDamage`, so a caller can time them apart).
public struct DamagedFrame {
    let list: DisplayList
    /// What has to be redrawn, in device pixels; nil when nothing changed.
    public let damage: PixelRect?
}

/// Drawing only what changed since the last frame (the renderer with damage).
extension Renderer {
    /// Redraws only what changed since the last call: the canvas must still hold that
    /// frame. Compares each layer's device box and a digest of everything that affects its
    /// pixels (its properties, device transform, inherited opacity and drawing order) with
    /// the last frame's, clears the union of changed boxes (old and new) to `background` and
    /// paints the display list clipped to it. Returns that damage (nil: nothing changed; the
    /// whole canvas on the first frame or after the size or background changed).
    @discardableResult
    public func renderDamage(_ root: Layer, into canvas: Canvas, background: Color) -> PixelRect? {
        let frame = findDamage(root, canvasSize: (canvas.target.width, canvas.target.height), background: background)
        paint(frame, into: canvas, background: background)
        return frame.damage
    }

    /// The first half of `renderDamage`: walks `root` into a display list and compares its
    /// records with the last frame's (which this replaces), without touching any pixel.
    public func findDamage(_ root: Layer, canvasSize: (width: Int, height: Int), background: Color) -> DamagedFrame {
        let list = DisplayListBuilder.build(root, canvasSize: canvasSize, tracksDamage: true)
        let records = list.records
        let whole = PixelRect(width: canvasSize.width, height: canvasSize.height)
        var damage: PixelRect?
        if let previous, let setup = previousSetup, setup.width == canvasSize.width, setup.height == canvasSize.height,
           setup.background == background {
            damage = Self.damage(from: previous, to: records)
        } else {
            damage = whole
        }
        previous = records
        previousSetup = (canvasSize.width, canvasSize.height, background)
        guard let d = damage?.intersection(whole), !d.isEmpty else { return DamagedFrame(list: list, damage: nil) }
        return DamagedFrame(list: list, damage: d)
    }

    /// The second half of `renderDamage`: clears `frame`'s damage to `background` and paints
    /// its display list clipped to it (nothing when nothing changed).
    public func paint(_ frame: DamagedFrame, into canvas: Canvas, background: Color) {
        guard let d = frame.damage else { return }
        canvas.save()
        canvas.clip(to: Rect(x: Double(d.x0), y: Double(d.y0), width: Double(d.width), height: Double(d.height)))
        canvas.target.fill(pixel: background.premultiplied.pixel32, x0: d.x0, y0: d.y0, x1: d.x1, y1: d.y1)
        paint(frame.list.operations, on: canvas)
        canvas.restore()
    }

    /// The hull of the boxes of the layers whose records differ between two frames (old and
    /// new box), of those drawn in one only, and of nothing else. When both frames drew the
    /// same layers in the same order (a frame where only something moved or animated) the
    /// records are compared side by side; otherwise by key.
    static func damage(from previous: [(key: DrawKey, record: DrawRecord)],
                       to records: [(key: DrawKey, record: DrawRecord)]) -> PixelRect? {
        var damage: PixelRect?
        if previous.count == records.count {
            var aligned = true
            for i in records.indices {
                let old = previous[i], new = records[i]
                guard old.key == new.key else {
                    aligned = false
                    break
                }
                if old.record != new.record {
                    damage = union(union(damage, new.record.box), old.record.box)
                }
            }
            if aligned { return damage }
            damage = nil
        }
        var before: [DrawKey: DrawRecord] = [:], after: [DrawKey: DrawRecord] = [:]
        before.reserveCapacity(previous.count)
        after.reserveCapacity(records.count)
        for (key, record) in previous { before[key] = record }
        for (key, record) in records { after[key] = record }
        for (id, record) in after where before[id] != record {
            damage = union(damage, record.box)
            if let old = before[id] { damage = union(damage, old.box) }
        }
        for (id, old) in before where after[id] == nil { damage = union(damage, old.box) }
        return damage
    }

    /// The hull of the damage so far and a box (an empty box still stretches it, as its
    /// corners are where the layer was).
    private static func union(_ a: PixelRect?, _ box: PixelRect) -> PixelRect {
        guard let a else { return box }
        return PixelRect(x0: min(a.x0, box.x0), y0: min(a.y0, box.y0), x1: max(a.x1, box.x1), y1: max(a.y1, box.y1))
    }
}
