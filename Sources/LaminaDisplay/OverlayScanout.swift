import LaminaGeometry
import LaminaPixels

/// The overlay plane of a lit display and the dumb buffers frames are copied into for it:
/// one shown, one in the flip in flight, one being written, so a buffer the CRTC may still
/// scan out is never written. A frame already in a buffer (a paused video) is not copied
/// again, and a frame in a buffer the display lent (decision 148) is shown from it, held
/// while it is shown or in flight so its writer cannot reuse the buffer. Placements are
/// tested with the driver when what it decides on changes (the plane, the frame's size, the
/// rectangles); the answer is kept until then.
final class OverlayScanout {
    /// The plane frames are shown on.
    let plane: KMSPlane
    private let device: KMSDevice

    private struct Slot {
        var plane: PlaneBuffer
        var buffer: DumbBuffer { plane.dumb }
        var memory: UnsafeMutableRawBufferPointer { plane.memory }
        var framebuffer: UInt32 { plane.framebuffer }
        /// The frame the buffer holds (held weakly: a frame nobody shows any more is not kept).
        weak var image: PixelBuffer?
    }

    /// Three buffers at most: shown, in flight, being written.
    static let maximumSlots = 3
    private var slots: [Slot] = []
    /// What the plane shows (nil: nothing, or not known after a modeset).
    private(set) var shownPlacement: PlanePlacement?
    /// True after a modeset: the plane may still show an earlier frame, so it is hidden.
    private var stateUnknown = false
    /// What the flip in flight does to the plane (nil: nothing).
    private var inFlight: OverlayUpdate?
    /// The last placement the driver was asked about and its answer.
    private var lastTest: (key: TestKey, refusal: KMSError?)?
    /// The driver's last refusal, for the log.
    private(set) var lastRefusal: KMSError?
    /// The frame prepared last, shown, and in the flip in flight (held: a lent buffer's
    /// writer takes it back only when the frame goes).
    private var prepared: (framebuffer: UInt32, image: PixelBuffer)?
    private var shownImage: PixelBuffer?
    private var inFlightImage: PixelBuffer?
    /// Frames copied into the plane's own buffers, and frames shown from lent buffers.
    private(set) var framesCopied = 0
    private(set) var framesInPlace = 0

    private struct TestKey: Equatable {
        var width: Int, height: Int
        var source: Rect
        var destination: PixelRect
    }

    init(plane: KMSPlane, device: KMSDevice) {
        self.plane = plane
        self.device = device
    }

    /// Copies `image` into a buffer the CRTC is not using (unless one holds it already, or it
    /// is in the `lent` framebuffer's buffer) and asks the driver, with `primary` on the
    /// primary plane, whether it takes `source` of it at `destination`. The placement for the
    /// next flip, or nil when the driver refuses or a buffer cannot be made.
    func prepare(_ image: PixelBuffer, lent: UInt32?, source: Rect, destination: PixelRect, crtc: UInt32,
                 primary: UInt32) -> PlanePlacement? {
        let key = TestKey(width: image.width, height: image.height, source: source, destination: destination)
        if let lastTest, lastTest.key == key, lastTest.refusal != nil { return nil }
        let framebuffer: UInt32
        if let lent {
            framebuffer = lent
            if shownImage !== image { framesInPlace += 1 }
        } else {
            let held = slots.contains { $0.image === image }
            guard let slot = slot(holding: image) else { return nil }
            framebuffer = slots[slot].framebuffer
            if !held { framesCopied += 1 }
        }
        prepared = (framebuffer, image)
        let placement = PlanePlacement(plane: plane.id, framebuffer: framebuffer, source: source,
                                       destination: destination)
        if lastTest?.key != key {
            do {
                try device.testOverlay(placement, crtc: crtc, primary: primary)
                lastTest = (key, nil)
            } catch {
                lastTest = (key, error)
                lastRefusal = error
                return nil
            }
        }
        return placement
    }

    /// What the next flip does to the plane: shows `placement`, or hides the plane when it
    /// may show something and no placement is given.
    func update(for placement: PlanePlacement?) -> OverlayUpdate {
        let update: OverlayUpdate
        if let placement {
            update = .show(placement)
            inFlightImage = prepared?.framebuffer == placement.framebuffer ? prepared?.image : nil
        } else {
            update = shownPlacement != nil || stateUnknown ? .hide(plane: plane.id) : .unchanged
        }
        inFlight = update
        prepared = nil
        return update
    }

    /// The flip in flight completed: what it carried is on screen.
    func flipCompleted() {
        switch inFlight {
        case .show(let placement)?: shownPlacement = placement; shownImage = inFlightImage; stateUnknown = false
        case .hide?: shownPlacement = nil; shownImage = nil; stateUnknown = false
        case .unchanged?, nil: break
        }
        inFlight = nil
        inFlightImage = nil
    }

    /// A flip was refused: nothing it carried reached the screen.
    func flipRefused() {
        inFlight = nil
        inFlightImage = nil
    }

    /// After a modeset the plane's state is not known: hide it with the next flip.
    func forgetState() {
        shownPlacement = nil
        stateUnknown = true
        inFlight = nil
        lastTest = nil
        // The frames held stay held: the plane may scan one out until the hiding flip.
    }

    /// The shown frame drawn over `frame` where the plane shows it (nearest sample when the
    /// plane scales), as the CRTC composes it.
    func compose(onto frame: PixelBuffer) {
        guard let placement = shownPlacement else { return }
        if let shownImage {
            placement.compose(shownImage, onto: frame)
            return
        }
        guard let slot = slots.firstIndex(where: { $0.framebuffer == placement.framebuffer }) else { return }
        let b = slots[slot].buffer
        let image = PixelBuffer(xrgb8888: slots[slot].memory.baseAddress!, pitch: b.pitch, width: b.width, height: b.height)
        placement.compose(image, onto: frame)
    }

    /// Frees every buffer (the display goes dark or closes).
    func release() {
        for slot in slots {
            device.free(slot.plane)
        }
        slots.removeAll()
        shownPlacement = nil
        inFlight = nil
        shownImage = nil
        inFlightImage = nil
        prepared = nil
    }

    /// A buffer holding `image`: one that has it already, else a free one (neither shown nor
    /// in flight) of its size written with it, else a new one.
    private func slot(holding image: PixelBuffer) -> Int? {
        if let held = slots.firstIndex(where: { $0.image === image }) { return held }
        var busy: Set<UInt32> = []                         // the framebuffers the CRTC may scan out
        if let shownPlacement { busy.insert(shownPlacement.framebuffer) }
        if case .show(let placement)? = inFlight { busy.insert(placement.framebuffer) }
        var index = slots.indices.first { !busy.contains(slots[$0].framebuffer) && slots[$0].buffer.width == image.width
            && slots[$0].buffer.height == image.height }
        if index == nil {
            if slots.count >= Self.maximumSlots, let stale = slots.indices.first(where: { !busy.contains(slots[$0].framebuffer) }) {
                let old = slots.remove(at: stale)
                device.free(old.plane)
            }
            guard slots.count < Self.maximumSlots, let made = makeSlot(width: image.width, height: image.height) else { return nil }
            slots.append(made)
            index = slots.count - 1
        }
        guard let index else { return nil }
        image.copyXRGB8888(into: slots[index].memory.baseAddress!, pitch: slots[index].buffer.pitch)
        slots[index].image = image
        return index
    }

    private func makeSlot(width: Int, height: Int) -> Slot? {
        device.makePlaneBuffer(width: width, height: height).map { Slot(plane: $0, image: nil) }
    }
}
