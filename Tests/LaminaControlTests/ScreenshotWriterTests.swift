import Foundation
@testable import LaminaControl
import LaminaPixels
import LaminaRaster
import LaminaSystem
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The control socket's screenshots in real time are encoded off the loop: the frame is copied
/// at once (drawing on may go on), the file written on a queue, the loop woken by an eventfd.
@Suite("Screenshot writer")
struct ScreenshotWriterTests {
    /// Waits (poll, no sleep) until the writer's event says a screenshot finished.
    static func waitForWakeup(_ writer: ScreenshotWriter) -> Bool {
        var descriptor = pollfd(fd: writer.wakeup.descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&descriptor, 1, 30_000) == 1
    }

    @Test("the copy taken when asked is what is written, whatever is drawn meanwhile; one at a time; a path that cannot be written is an error")
    func writesOffTheLoop() throws {
        let folder = NSTemporaryDirectory() + "lamina-shot-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let writer = try ScreenshotWriter()
        let frame = PixelBuffer(width: 64, height: 48)
        frame.fill(pixel: 0xFF11_2233)
        let address = ControlServer.ReplyAddress(client: 3, id: .number(9))
        let open = try OutputFile.Folder(path: folder)
        func target(_ name: String) -> ScreenshotWriter.Target {
            .init(folder: open, name: name, path: folder + "/" + name, replacing: false)
        }
        writer.queue.suspend()                                  // holds the first screenshot in progress
        #expect(writer.start(frame, to: target("a.png"), for: address))
        frame.fill(pixel: 0xFFFF_FFFF)                          // the next frame, drawn while it is written
        #expect(!writer.start(frame, to: target("b.png"), for: address))
        writer.queue.resume()
        #expect(Self.waitForWakeup(writer))
        let finished = writer.takeFinished()
        #expect(finished.count == 1 && finished[0].error == nil && finished[0].address.client == 3 && finished[0].address.id == .number(9))
        let image = try RGBAImage.readPNG(from: folder + "/a.png")
        #expect(image.width == 64 && image.height == 48)
        #expect(PixelBuffer(rgba: image)[10, 10] == 0xFF11_2233)
        #expect(writer.takeFinished().isEmpty)

        // A second screenshot to the same path is refused: never over an existing file.
        #expect(writer.start(frame, to: target("a.png"), for: address))
        #expect(Self.waitForWakeup(writer))
        let failed = writer.takeFinished()
        #expect(failed.count == 1 && failed[0].error == "\(folder)/a.png exists: a screenshot is written to a new file, never over one")
        #expect(PixelBuffer(rgba: try RGBAImage.readPNG(from: folder + "/a.png"))[10, 10] == 0xFF11_2233)
    }
}
