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
    /// Frames copied but not yet written hold at most `maximumQueuedBytes` (at least two
    /// frames), after which the frame loop waits for the encoder: memory stays bounded
    /// however slow PNG is, and a demo run at 1080p (32 frames fit) is rarely held up.
    private var queued: DispatchSemaphore?
    /// The most memory frames waiting to be encoded may hold.
    public static let maximumQueuedBytes = 256 * 1024 * 1024
    /// Held for the recorder's life: a second run writing the same directory is refused.
    private let lock: Int32

    /// Frames are halved for the contact sheet and at most this many are kept.
    public static let maximumSheetFrames = 60

    /// Creates `directory` if needed; a path that cannot be a directory is a config error,
    /// and so is a directory another run is writing. Frames an earlier run left there
    /// (`frame-*.png`, the contact sheet) are removed, so the directory holds one run.
    public init(directory: String) throws(ConfigError) {
        self.directory = directory
        if Paths.isDirectory(directory) == false {
            throw ConfigError(file: directory, field: "--frames-out", reason: "exists and is not a directory")
        }
        do {
            try Paths.createDirectory(directory)
        } catch {
            throw ConfigError(file: directory, field: "--frames-out", reason: "cannot be created: \(error)")
        }
        let lockPath = Paths.joined(directory, ".lamina-frames.lock")
        lock = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard lock >= 0 else {
            throw ConfigError(file: directory, field: "--frames-out", reason: "cannot be written: \(String(cString: strerror(errno)))")
        }
        guard flock(lock, LOCK_EX | LOCK_NB) == 0 else {
            close(lock)
            throw ConfigError(file: directory, field: "--frames-out", reason: "another lamina run is writing frames there")
        }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        for name in names where (name.hasPrefix("frame-") && name.hasSuffix(".png")) || name == "contact-sheet.png" {
            try? FileManager.default.removeItem(atPath: Paths.joined(directory, name))
        }
    }

    deinit {
        queue.sync {}
        close(lock)                                             // releases the flock
    }

    /// Queues a copy of `frame` for writing.
    public func record(_ frame: PixelBuffer) {
        frameCount += 1
        let snapshot = FrameSnapshot(buffer: frame.copy(), index: frameCount)
        let path = Paths.joined(directory, String(cFormat: "frame-%05d.png", frameCount))
        let frameBytes = max(frame.width * frame.height * 4, 1)
        let queued = self.queued ?? DispatchSemaphore(value: max(2, Self.maximumQueuedBytes / frameBytes))
        self.queued = queued
        let store = self.store
        queued.wait()
        queue.async {
            snapshot.writePNG(to: path, errors: store)
            store.add(snapshot.halved(), index: snapshot.index)
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
        for y in 0..<h {
            for x in 0..<w {
                let a = buffer[2 * x, 2 * y], b = buffer[2 * x + 1, 2 * y]
                let c = buffer[2 * x, 2 * y + 1], d = buffer[2 * x + 1, 2 * y + 1]
                var result: UInt32 = 0
                for shift in stride(from: 0, through: 24, by: 8) {
                    let sum = (a >> shift & 0xFF) + (b >> shift & 0xFF) + (c >> shift & 0xFF) + (d >> shift & 0xFF)
                    result |= ((sum + 2) / 4) << shift
                }
                out[x, y] = result
            }
        }
        return out
    }
}

/// Thumbnails and errors gathered on the recorder's queue. Written only there (a serial
/// queue) and read only after `queue.sync {}` has drained it, so it needs no lock of its own.
private final class ThumbnailStore: @unchecked Sendable {
    private var items: [(index: Int, image: PixelBuffer)] = []
    private var errors: [any Error] = []
    /// Keeps every `keepEvery`-th frame (1, 1 + k, 1 + 2k, …); when more than the maximum
    /// are kept, drops every other one and doubles `keepEvery`, so the kept frames stay
    /// evenly spread over the whole run.
    private var keepEvery = 1

    func add(_ image: PixelBuffer, index: Int) {
        guard (index - 1) % keepEvery == 0 else { return }
        items.append((index, image))
        if items.count > FrameRecorder.maximumSheetFrames {
            keepEvery *= 2
            items.removeAll { ($0.index - 1) % keepEvery != 0 }
        }
    }

    func record(_ error: any Error) {
        errors.append(error)
    }

    var thumbnails: [PixelBuffer] { items.sorted { $0.index < $1.index }.map(\.image) }

    var firstError: (any Error)? { errors.first }
}
