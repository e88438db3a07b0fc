import Dispatch
import LaminaPixels
import LaminaRaster
import LaminaSystem
import Synchronization
import SystemPackage

/// Encodes screenshots off the frame loop: PNG-compressing a full-HD frame takes longer than
/// several frames, so the loop copies the picture (one `memcpy`), a background queue encodes
/// and writes it, and the loop is woken through `wakeup` to send the reply. One screenshot
/// at a time: a request while one is being written is refused ("busy"), so a client asking
/// without pause costs one copy per finished screenshot, never a queue of frames.
final class ScreenshotWriter: Sendable {
    /// Where a screenshot goes: a new file `name` in an open folder, created with `O_EXCL`
    /// and `O_NOFOLLOW` (never an existing path, never through a link, never a chmod of
    /// anything that was there). The default screenshot (`replacing`) is written as a new
    /// file beside `name` and renamed over it, so it replaces the directory entry only.
    struct Target: Sendable {
        let folder: OutputFile.Folder
        let name: String
        /// The path the reply names.
        let path: String
        let replacing: Bool
    }

    /// A screenshot written (or not), for the client that asked.
    struct Finished: Sendable {
        var address: ControlServer.ReplyAddress
        var path: String
        var width: Int, height: Int
        /// Why it could not be written; nil when it was.
        var error: String?

        /// The reply to the request: the file's path and size, or why not.
        var reply: ControlValue {
            if let error { return .object(["ok": .bool(false), "error": .string(error)]) }
            return .object(["ok": .bool(true), "path": .string(path), "width": .number(Double(width)), "height": .number(Double(height))])
        }
    }

    /// Readable when a screenshot has finished (the loop polls it).
    let wakeup: WakeupEvent
    /// Where the encoding runs (tests suspend it to hold a screenshot in progress).
    let queue = DispatchQueue(label: "lamina.screenshot")
    private let state = Mutex<(busy: Bool, finished: [Finished])>((false, []))

    init() throws(Errno) {
        wakeup = try WakeupEvent()
    }

    /// Starts writing a copy of `frame` to `target` (mode 0640); false when one is still being written.
    func start(_ frame: PixelBuffer, to target: Target, for address: ControlServer.ReplyAddress) -> Bool {
        let started = state.withLock { state in
            guard !state.busy else { return false }
            state.busy = true
            return true
        }
        guard started else { return false }
        let copy = SendableFrame(frame.copy())
        queue.async { [self] in
            let result = Self.write(copy.frame, to: target, for: address)
            state.withLock { state in
                state.busy = false
                state.finished.append(result)
            }
            wakeup.signal()
        }
        return true
    }

    /// Writes `frame` to `target` as a PNG with mode 0640 now, in the caller's thread (the
    /// queue's work; a virtual clock's run does it on the loop).
    static func write(_ frame: PixelBuffer, to target: Target, for address: ControlServer.ReplyAddress) -> Finished {
        var result = Finished(address: address, path: target.path, width: frame.width, height: frame.height)
        do {
            let data = try RGBAImage(frame).pngData()
            if target.replacing {
                try OutputFile.replace(data, in: target.folder, name: target.name, mode: 0o640)
            } else {
                try OutputFile.writeNew(data, in: target.folder, name: target.name, mode: 0o640)
            }
        } catch let error as Errno where error == .fileExists {
            result.error = "\(target.path) exists: a screenshot is written to a new file, never over one"
        } catch {
            result.error = "cannot write \(target.path): \(error)"
        }
        return result
    }

    /// The screenshots finished since the last call (on the loop).
    func takeFinished() -> [Finished] {
        wakeup.reset()
        return state.withLock { state in
            defer { state.finished = [] }
            return state.finished
        }
    }

    /// Waits for a screenshot being written (at exit, so its file is whole).
    func waitUntilIdle() {
        queue.sync {}
    }
}

/// A frame copy handed to the writer's queue; only that queue touches it afterwards.
private final class SendableFrame: @unchecked Sendable {
    let frame: PixelBuffer
    init(_ frame: PixelBuffer) { self.frame = frame }
}
