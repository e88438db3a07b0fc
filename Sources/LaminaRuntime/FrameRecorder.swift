#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import FoundationEssentials
import LaminaRaster
import LaminaSystem

/// Writes every presented frame as a PNG (`frame-00001.png`, …) and, at the end, one
/// contact sheet of the run: the frames side by side, cropped to the region that changed
/// during the run, so the motion can be seen at a glance.
///
/// Encoding happens on a background queue so the frame loop keeps its pace; `finish()`
/// waits for it.
public final class FrameRecorder {
    /// Where the frames go.
    public let directory: String
    /// Frames recorded so far.
    public private(set) var frameCount = 0
    private let queue = DispatchQueue(label: "lamina.frame-recorder")
    private let store = ThumbnailStore()
    /// Which frames the contact sheet keeps, decided as they are recorded.
    private var sheetSelection = SheetSelection()
    /// Frames copied but not yet written hold at most `maximumQueuedBytes` (at least two
    /// frames), after which the frame loop waits for the encoder: memory stays bounded
    /// however slow PNG is, and a demo run at 1080p (32 frames fit) is rarely held up.
    private var queued: DispatchSemaphore?
    /// The most memory frames waiting to be encoded may hold.
    public static let maximumQueuedBytes = 256 * 1024 * 1024
    /// Held for the recorder's life: a second run writing the same directory is refused.
    private let lock: LockFile

    /// Frames are halved for the contact sheet and at most this many are kept.
    public static let maximumSheetFrames = 60

    /// Whether every frame is written as a PNG; false writes only the contact sheet.
    public let writesFrames: Bool

    /// Creates `directory` if needed; a path that cannot be a directory is a config error,
    /// and so is a directory another run is writing. Frames an earlier run left there
    /// (`frame-*.png`, the contact sheet) are removed, so the directory holds one run. With
    /// `writesFrames` false only the contact sheet is written (tests of a run's motion).
    public init(directory: String, writesFrames: Bool = true) throws(ConfigError) {
        self.directory = directory
        self.writesFrames = writesFrames
        if Paths.isDirectory(directory) == false {
            throw ConfigError(file: directory, field: "--frames-out", reason: "exists and is not a directory")
        }
        do {
            try Paths.createDirectory(directory)
        } catch {
            throw ConfigError(file: directory, field: "--frames-out", reason: "cannot be created: \(error)")
        }
        do throws(LockFile.Failure) {
            lock = try LockFile(path: Paths.joined(directory, ".lamina-frames.lock"))
        } catch {
            switch error {
            case .held:
                throw ConfigError(file: directory, field: "--frames-out", reason: "another lamina run is writing frames there")
            case .cannotOpen(let errno):
                throw ConfigError(file: directory, field: "--frames-out", reason: "cannot be written: \(errno)")
            }
        }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        for name in names where (name.hasPrefix("frame-") && name.hasSuffix(".png")) || name == "contact-sheet.png" {
            try? FileManager.default.removeItem(atPath: Paths.joined(directory, name))
        }
    }

    deinit {
        queue.sync {}                                           // then the lock goes with the recorder
    }

    /// Queues a copy of `frame` for writing (and for the contact sheet, when it is one of the
    /// frames the sheet keeps).
    public func record(_ frame: PixelBuffer) {
        frameCount += 1
        let sheetKeeps = sheetSelection.admit(frameCount)
        let keepEvery = sheetSelection.keepEvery
        guard writesFrames || sheetKeeps else { return }
        let snapshot = FrameSnapshot(buffer: frame.copy(), index: frameCount)
        let path = Paths.joined(directory, String(cFormat: "frame-%05d.png", frameCount))
        let frameBytes = max(frame.width * frame.height * 4, 1)
        let queued = self.queued ?? DispatchSemaphore(value: max(2, Self.maximumQueuedBytes / frameBytes))
        self.queued = queued
        let store = self.store, writesFrames = self.writesFrames
        queued.wait()
        queue.async {
            if writesFrames { snapshot.writePNG(to: path, errors: store) }
            if sheetKeeps { store.add(snapshot.halved(), index: snapshot.index, keepEvery: keepEvery) }
            queued.signal()
        }
    }

    /// Waits for every frame, writes `contact-sheet.png` and returns its path (nil when no
    /// frame was recorded). Throws the first error any write hit.
    public func finish() throws -> String? {
        queue.sync {}
        if let error = store.firstError { throw error }
        let thumbnails = store.thumbnails
        guard !thumbnails.isEmpty else { return nil }
        let path = Paths.joined(directory, "contact-sheet.png")
        try ContactSheet.make(from: thumbnails).writePNG(to: path, compression: 6)
        return path
    }
}

/// A frame handed to the recorder's queue; only that queue touches it afterwards.
private final class FrameSnapshot: @unchecked Sendable {
    let buffer: PixelBuffer
    let index: Int

    init(buffer: PixelBuffer, index: Int) {
        self.buffer = buffer
        self.index = index
    }

    func writePNG(to path: String, errors: ThumbnailStore) {
        do {
            try buffer.writePNG(to: path, compression: 1)
        } catch {
            errors.record(error)
        }
    }

    /// The frame at half size, each pixel the mean of a 2x2 block.
    func halved() -> PixelBuffer {
        let w = buffer.width / 2, h = buffer.height / 2
        let out = PixelBuffer(width: max(w, 1), height: max(h, 1))
        let source = buffer.pixels, target = out.pixels
        let sourceStride = buffer.stride, targetStride = out.stride
        // Two channels at once in 16-bit lanes: a lane's sum of four bytes is at most 1020.
        let lanes: UInt32 = 0x00FF_00FF
        for y in 0..<h {
            let top = 2 * y * sourceStride, bottom = top + sourceStride
            for x in 0..<w {
                let a = source[top + 2 * x], b = source[top + 2 * x + 1]
                let c = source[bottom + 2 * x], d = source[bottom + 2 * x + 1]
                let even = (a & lanes) &+ (b & lanes) &+ (c & lanes) &+ (d & lanes) &+ 0x0002_0002
                let odd = (a >> 8 & lanes) &+ (b >> 8 & lanes) &+ (c >> 8 & lanes) &+ (d >> 8 & lanes) &+ 0x0002_0002
                target[y * targetStride + x] = (even >> 2 & lanes) | (odd >> 2 & lanes) << 8
            }
        }
        return out
    }
}

/// Which frames a contact sheet shows: every `keepEvery`-th (1, 1 + k, 1 + 2k, …); when more
/// than the maximum would be kept, every other one is dropped and `keepEvery` doubles, so the
/// kept frames stay evenly spread over the whole run. A frame passed over is never wanted
/// later, so it need not be copied or halved.
struct SheetSelection {
    private(set) var keepEvery = 1
    private var kept = 0

    /// Whether frame `index` (from 1, in order) is kept for now.
    mutating func admit(_ index: Int) -> Bool {
        guard (index - 1) % keepEvery == 0 else { return false }
        kept += 1
        if kept > FrameRecorder.maximumSheetFrames {
            keepEvery *= 2
            kept = (index - 1) / keepEvery + 1                  // 1, 1 + k, … up to index
            return (index - 1) % keepEvery == 0
        }
        return true
    }
}

/// Thumbnails and errors gathered on the recorder's queue. Written only there (a serial
/// queue) and read only after `queue.sync {}` has drained it, so it needs no lock of its own.
private final class ThumbnailStore: @unchecked Sendable {
    private var items: [(index: Int, image: PixelBuffer)] = []
    private var errors: [any Error] = []

    /// Adds frame `index`'s thumbnail and drops those the selection no longer keeps (indices
    /// not 1 more than a multiple of `keepEvery`).
    func add(_ image: PixelBuffer, index: Int, keepEvery: Int) {
        items.append((index, image))
        items.removeAll { ($0.index - 1) % keepEvery != 0 }
    }

    func record(_ error: any Error) {
        errors.append(error)
    }

    var thumbnails: [PixelBuffer] { items.sorted { $0.index < $1.index }.map(\.image) }

    var firstError: (any Error)? { errors.first }
}
