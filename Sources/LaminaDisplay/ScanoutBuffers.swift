import Synchronization
import LaminaPixels

/// Buffers the overlay plane can scan out, lent to whoever makes frames (a video decoder) so
/// frames are written straight into them and shown without a copy (decision 148): dumb buffers
/// of one size in XRGB8888, each with its framebuffer, made by
/// ``Display/makeScanoutBuffers(width:height:count:)``.
///
/// The memory stays mapped while the set lives, whatever thread holds it last; when it goes,
/// its buffers go back to the display, which frees them on the loop (or at once after the
/// display has closed).
public final class ScanoutBuffers: @unchecked Sendable {
    /// One buffer: its mapped memory (rows `pitch` bytes apart) and what the plane shows it by.
    public struct Buffer: @unchecked Sendable {
        /// The mapped memory, `pitch × height` bytes or more.
        public let memory: UnsafeMutableRawBufferPointer
        /// Bytes from one row to the next.
        public let pitch: Int
        let plane: PlaneBuffer
        var framebuffer: UInt32 { plane.framebuffer }
    }

    /// The frames' size in pixels.
    public let width: Int
    /// The frames' height in pixels.
    public let height: Int
    /// The buffers, in the order they were made.
    public let buffers: [Buffer]
    private let lending: ScanoutLending

    init(width: Int, height: Int, buffers: [Buffer], lending: ScanoutLending) {
        self.width = width
        self.height = height
        self.buffers = buffers
        self.lending = lending
    }

    deinit { lending.giveBack(buffers) }

    /// The framebuffer that shows `image` as it is: the buffer its pixels live in, when it is
    /// one of these at their size and pitch.
    func framebuffer(showing image: PixelBuffer) -> UInt32? {
        guard image.width == width, image.height == height, let pixels = image.pixels.baseAddress else { return nil }
        let address = UnsafeRawPointer(pixels)
        return buffers.first { UnsafeRawPointer($0.memory.baseAddress) == address && $0.pitch == image.stride * 4 }?.framebuffer
    }
}

/// A display's scanout buffers out on loan: the sets alive (held weakly, looked through on the
/// loop) and the buffers given back, freed on the loop by ``freeReturned()``; after
/// ``close()``, a set given back is freed at once by the thread that lets it go.
final class ScanoutLending: @unchecked Sendable {
    private let device: KMSDevice
    private struct Returns {
        var buffers: [ScanoutBuffers.Buffer] = []
        var closed = false
    }
    private let returns = Mutex(Returns())
    private struct WeakSet { weak var set: ScanoutBuffers? }
    /// Touched on the loop only.
    private var sets: [WeakSet] = []

    init(device: KMSDevice) {
        self.device = device
    }

    /// Makes `count` buffers of `width × height`; nil when the device cannot.
    func lend(width: Int, height: Int, count: Int) -> ScanoutBuffers? {
        freeReturned()
        var made: [ScanoutBuffers.Buffer] = []
        for _ in 0..<count {
            guard let plane = device.makePlaneBuffer(width: width, height: height) else { break }
            made.append(ScanoutBuffers.Buffer(memory: plane.memory, pitch: plane.dumb.pitch, plane: plane))
        }
        guard made.count == count else {
            free(made)
            return nil
        }
        let set = ScanoutBuffers(width: width, height: height, buffers: made, lending: self)
        sets.removeAll { $0.set == nil }
        sets.append(WeakSet(set: set))
        return set
    }

    /// The framebuffer of a lent buffer that shows `image` without a copy.
    func framebuffer(showing image: PixelBuffer) -> UInt32? {
        for entry in sets {
            if let set = entry.set, let framebuffer = set.framebuffer(showing: image) { return framebuffer }
        }
        return nil
    }

    /// Called by a set as it goes, on any thread.
    func giveBack(_ buffers: [ScanoutBuffers.Buffer]) {
        let freeNow = returns.withLock { returns -> Bool in
            if returns.closed { return true }
            returns.buffers += buffers
            return false
        }
        if freeNow { free(buffers) }
    }

    /// Frees the buffers given back (on the loop).
    func freeReturned() {
        let returned = returns.withLock { returns in
            defer { returns.buffers.removeAll() }
            return returns.buffers
        }
        free(returned)
    }

    /// The display is closing: what was given back is freed, and what is given back later is
    /// freed as it comes.
    func close() {
        let returned = returns.withLock { returns in
            returns.closed = true
            defer { returns.buffers.removeAll() }
            return returns.buffers
        }
        free(returned)
    }

    private func free(_ buffers: [ScanoutBuffers.Buffer]) {
        for buffer in buffers { device.free(buffer.plane) }
    }
}
