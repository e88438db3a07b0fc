import Foundation
import Lamina
@testable import LaminaSceneFiles
@testable import LaminaRuntime
import LaminaDisplay
import LaminaGeometry
import LaminaInput
import LaminaLayers
import LaminaPixels
import LaminaSystem
import LaminaTestSupport
import Testing

/// The pointer through the real stack: a uinput pointer read by libinput, the arrow on
/// vkms's cursor plane, what the CRTC composes read back through writeback.
extension KernelDisplayTests {
    /// The light pixels (every channel above 0xC0) of `frame` within 40 px of `point`.
    static func lightPixels(_ frame: PixelBuffer, near point: Point) -> Int {
        var count = 0
        for y in max(0, Int(point.y) - 40)..<min(frame.height, Int(point.y) + 40) {
            for x in max(0, Int(point.x) - 40)..<min(frame.width, Int(point.x) + 40) {
                let p = frame[x, y]
                if (p >> 16) & 0xFF > 0xC0 && (p >> 8) & 0xFF > 0xC0 && p & 0xFF > 0xC0 { count += 1 }
            }
        }
        return count
    }

    @Test("a uinput pointer on vkms: the arrow is on the cursor plane at the pointer with no frame drawn, a click reaches the layer under it, and it hides after its idle time")
    func pointerOnCursorPlane() throws {
        let display = try Display(device: try DRMDevice(path: KernelDisplay.card))
        defer { display.close() }
        let pointer = try UInputPointer(width: display.width, height: display.height)
        defer { pointer.destroy() }
        let log = CapturedLog()
        let runtime = Runtime(display: display, clock: SystemClock(), background: Color(red: 0.3, green: 0.3, blue: 0.3), logger: log.logger())
        let button = Layer()
        button.frame = Rect(x: 300, y: 200, width: 200, height: 150)
        button.backgroundColor = Color(red: 0.1, green: 0.2, blue: 0.6)
        runtime.rootLayer.addSublayer(button)
        var clicks: [Point] = []
        runtime.dispatcher.addTouchHandler(to: button) { touch in if touch.phase == .began { clicks.append(touch.location) } }
        let input = try LibinputSource(backend: .seat("seat0"), panelSize: Size(width: Double(display.width), height: Double(display.height)),
                                       log: { [log] in log.logger().info("\($0)") })
        runtime.addTouchSource(input)
        runtime.setCursorMode(.auto, hideAfter: 1.5)
        #expect(runtime.run(until: { input.devices.values.contains(pointer.name) && runtime.flipCount >= 1 }), "\(log.lines)")
        let before = try #require(try display.captureComposedFrame())
        #expect(Self.lightPixels(before, near: Point(x: 400, y: 275)) == 0)

        pointer.move(to: Point(x: 400, y: 275))
        let frames = runtime.renderedFrames
        runtime.run(until: { runtime.cursor?.position == Point(x: 400, y: 275) })
        let cursor = try #require(runtime.cursor)
        #expect(cursor.drawing == .plane && cursor.isVisible && cursor.position == Point(x: 400, y: 275), "\(log.lines)")
        #expect(runtime.renderedFrames == frames)                   // the plane moved; nothing was drawn
        let shown = try #require(try display.captureComposedFrame())
        let light = Self.lightPixels(shown, near: Point(x: 400, y: 275))
        print("pointer on vkms's cursor plane: \(light) light pixels at the pointer, \(display.width)x\(display.height)")
        #expect(light > 40)
        #expect(shown[401, 281] & 0xFF_FFFF == 0xFF_FFFF)            // inside the arrow, just below its tip
        #expect(Pixels.differing(shown, before) < 600)               // only the arrow changed

        let touches = runtime.stats.touches
        pointer.button(pressed: true)
        runtime.run(exitAfter: 0.1, untilSettled: false)
        pointer.button(pressed: false)
        runtime.runUntilLifted(touchesBefore: touches)
        #expect(clicks == [Point(x: 400, y: 275)], "\(log.lines)")  // the arrow does not take the click

        // Hidden after its idle time (timed exactly on the virtual clock by PointerCursorTests).
        runtime.run(until: { !cursor.isVisible })
        #expect(!cursor.isVisible)
        let hidden = try #require(try display.captureComposedFrame())
        #expect(Self.lightPixels(hidden, near: Point(x: 400, y: 275)) == 0)
    }
}
