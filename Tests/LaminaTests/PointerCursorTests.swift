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

/// A mouse on a virtual clock: pointer positions at fixed times, and its button as touches.
final class MouseListSource: TouchSource, PointerSource {
    private var motions: [(time: Double, position: Point)]
    private var buttons: [TouchEvent]
    private let clock: VirtualClock
    init(clock: VirtualClock, motions: [(Double, Point)], buttons: [TouchEvent] = []) {
        self.clock = clock
        self.motions = motions.map { (time: $0.0, position: $0.1) }
        self.buttons = buttons
    }
    var eventDescriptor: Int32? { nil }
    var nextEventTime: Double? { [motions.first?.time, buttons.first?.time].compactMap { $0 }.min() }
    var isSettled: Bool { motions.isEmpty && buttons.isEmpty }
    func events(upTo time: Double) -> [TouchEvent] {
        let due = buttons.prefix { $0.time <= time }
        buttons.removeFirst(due.count)
        return Array(due)
    }
    func takePointerMotion() -> (time: Double, position: Point)? {
        let due = motions.prefix { $0.time <= clock.now }
        motions.removeFirst(due.count)
        return due.last
    }
}

@Suite("Pointer cursor", .serialized)
struct PointerCursorTests {
    /// A 320x240 dummy with a grey background, a cursor plane unless `plane` is false.
    private func makeRig(plane: Bool, rotation: Int = 0) throws -> (DummyDisplayRig, Runtime) {
        let rig = try DummyDisplayRig(width: 320, height: 240, refresh: 60, start: 0)
        if !plane { rig.device.planes.removeAll { $0.kind == .cursor } }
        let runtime = rig.makeRuntime(background: Color(red: 0.5, green: 0.5, blue: 0.5))
        runtime.rotation = rotation
        #expect(runtime.run(untilSettled: true) == .settled)
        return (rig, runtime)
    }

    /// Pixels of the glass (the composed frame) that are white and that are near black.
    private func arrowPixels(_ frame: PixelBuffer) -> (white: Int, black: Int) {
        var white = 0, black = 0
        for y in 0..<frame.height {
            for x in 0..<frame.width {
                let p = frame[x, y] & 0xFF_FFFF
                if p == 0xFF_FFFF { white += 1 }
                if (p >> 16) & 0xFF < 0x30 && (p >> 8) & 0xFF < 0x30 && p & 0xFF < 0x30 { black += 1 }
            }
        }
        return (white, black)
    }

    /// The light pixels (every channel above 0xC0) of the glass, how many and their centroid.
    private func lightCentroid(_ frame: PixelBuffer) -> (count: Int, centre: Point) {
        var count = 0, sum = Point.zero
        for y in 0..<frame.height {
            for x in 0..<frame.width {
                let p = frame[x, y]
                if (p >> 16) & 0xFF > 0xC0 && (p >> 8) & 0xFF > 0xC0 && p & 0xFF > 0xC0 {
                    count += 1
                    sum = sum + Point(x: Double(x) + 0.5, y: Double(y) + 0.5)
                }
            }
        }
        return (count, count > 0 ? sum * (1 / Double(count)) : .zero)
    }

    @Test("on a cursor plane the arrow follows the mouse with no frame drawn, its tip at the pointer; an auto pointer hides after its idle time")
    func plane() throws {
        let (rig, runtime) = try makeRig(plane: true)
        runtime.setCursorMode(.auto, hideAfter: 3)
        let t = rig.clock.now
        runtime.addTouchSource(MouseListSource(clock: rig.clock, motions: [(t + 0.1, Point(x: 100, y: 80)), (t + 0.2, Point(x: 150, y: 90))]))
        let frames = runtime.renderedFrames
        runtime.run(exitAfter: 0.5, untilSettled: false)
        let cursor = try #require(runtime.cursor)
        #expect(cursor.drawing == .plane && cursor.isVisible && cursor.position == Point(x: 150, y: 90))
        #expect(runtime.renderedFrames == frames)                   // the plane moves without a frame
        let buffer = try #require(rig.device.cursorBuffer)
        #expect(buffer.width == 64 && buffer.height == 64)
        // The tip: the first non-transparent pixel of the image's top row sits at the pointer.
        let glass = try #require(try rig.device.captureComposedFrame(crtc: rig.device.crtcID))
        let counts = arrowPixels(glass)
        #expect(counts.white > 40 && counts.black > 20)
        #expect(glass[151, 96] & 0xFF_FFFF == 0xFF_FFFF)            // inside the arrow, below its tip
        #expect(glass[149, 96] & 0xFF_FFFF != 0xFF_FFFF)            // left of the tip: outside
        let placed = rig.device.cursorPosition
        #expect(abs(Double(placed.x) - 148) <= 1 && abs(Double(placed.y) - 88) <= 1)   // the tip 2 px into the image
        runtime.run(exitAfter: 2.6, untilSettled: false)           // 2.9 s after the last motion
        #expect(cursor.isVisible)
        runtime.run(exitAfter: 0.2, untilSettled: false)
        #expect(!cursor.isVisible && rig.device.cursorBuffer == nil)
    }

    @Test("a finger on the screen hides an auto pointer; the mouse's own button does not")
    func touchHides() throws {
        let (rig, runtime) = try makeRig(plane: true)
        runtime.setCursorMode(.auto)
        let t = rig.clock.now
        let slot = LibinputSource.pointerSlot
        runtime.addTouchSource(MouseListSource(clock: rig.clock, motions: [(t + 0.1, Point(x: 50, y: 50))], buttons: [
            TouchEvent(time: t + 0.2, kind: .down(slot: slot, position: Point(x: 50, y: 50))), TouchEvent(time: t + 0.2, kind: .frame),
            TouchEvent(time: t + 0.3, kind: .up(slot: slot)), TouchEvent(time: t + 0.3, kind: .frame),
        ]))
        runtime.run(exitAfter: 0.5, untilSettled: false)
        #expect(runtime.cursor?.isVisible == true)
        runtime.addTouchSource(EventListSource([TouchEvent(time: rig.clock.now + 0.1, kind: .down(slot: 0, position: Point(x: 200, y: 100))),
                                                TouchEvent(time: rig.clock.now + 0.1, kind: .frame),
                                                TouchEvent(time: rig.clock.now + 0.2, kind: .up(slot: 0)),
                                                TouchEvent(time: rig.clock.now + 0.2, kind: .frame)]))
        runtime.run(exitAfter: 0.3, untilSettled: false)
        #expect(runtime.cursor?.isVisible == false && rig.device.cursorBuffer == nil)
    }

    @Test("always shows the pointer from the start, in the middle, and never hides it; never draws nothing")
    func modes() throws {
        let (rig, runtime) = try makeRig(plane: true)
        runtime.setCursorMode(.always)
        #expect(runtime.cursor?.isVisible == true && rig.device.cursorBuffer != nil)
        runtime.run(exitAfter: 10, untilSettled: false)
        #expect(runtime.cursor?.isVisible == true)
        runtime.setCursorMode(.never)
        #expect(rig.device.cursorBuffer == nil)
        runtime.addTouchSource(MouseListSource(clock: rig.clock, motions: [(rig.clock.now + 0.1, Point(x: 50, y: 50))]))
        runtime.run(exitAfter: 0.3, untilSettled: false)
        #expect(runtime.cursor?.isVisible == false && runtime.cursor?.position == Point(x: 50, y: 50) && rig.device.cursorBuffer == nil)
    }

    @Test("without a cursor plane the arrow is composited over the scene, and clicks go through it to what it points at")
    func composited() throws {
        let (rig, runtime) = try makeRig(plane: false)
        let button = Layer()
        button.name = "button"
        button.frame = Rect(x: 100, y: 60, width: 100, height: 80)
        button.backgroundColor = Color(red: 0.2, green: 0.3, blue: 0.8)
        runtime.rootLayer.addSublayer(button)
        runtime.setCursorMode(.auto)
        let t = rig.clock.now
        runtime.addTouchSource(MouseListSource(clock: rig.clock, motions: [(t + 0.1, Point(x: 150, y: 90))]))
        let frames = runtime.renderedFrames
        runtime.run(exitAfter: 0.3, untilSettled: false)
        let cursor = try #require(runtime.cursor)
        #expect(cursor.drawing == .composited && cursor.isVisible && runtime.renderedFrames > frames)
        let glass = try #require(try rig.device.captureComposedFrame(crtc: rig.device.crtcID))
        #expect(glass[151, 96] & 0xFF_FFFF == 0xFF_FFFF)
        #expect(runtime.dispatcher.hitTest(Point(x: 151, y: 96))?.name == "button")
        runtime.run(exitAfter: 3.2, untilSettled: false)
        #expect(!cursor.isVisible && cursor.layer.isHidden)
    }

    @Test("the plane's arrow is turned with the picture: at 90° and 180° it matches the composited one on the glass")
    func rotation() throws {
        for rotation in [90, 180] {
            var glasses: [PixelBuffer] = []
            for plane in [true, false] {
                let (rig, runtime) = try makeRig(plane: plane, rotation: rotation)
                runtime.setCursorMode(.auto)
                runtime.addTouchSource(MouseListSource(clock: rig.clock, motions: [(rig.clock.now + 0.1, Point(x: 160, y: 120))]))
                runtime.run(exitAfter: 0.3, untilSettled: false)
                #expect(runtime.cursor?.drawing == (plane ? .plane : .composited))
                glasses.append(try #require(try rig.device.captureComposedFrame(crtc: rig.device.crtcID)))
            }
            // The light pixels' centroid, off the tip, says where the arrow's body lies: the
            // same place and turn in both (the composited arrow is turned by the renderer).
            let (a, b) = (lightCentroid(glasses[0]), lightCentroid(glasses[1]))
            #expect(a.count > 40 && abs(a.count - b.count) <= a.count / 5, "rotation \(rotation): \(a.count) vs \(b.count) light pixels")
            #expect(a.centre.distance(to: b.centre) < 1.5, "rotation \(rotation): \(a.centre) vs \(b.centre)")
            #expect(a.centre.distance(to: Point(x: 160, y: 120)) > 5)
        }
    }

    @Test("turning the picture while the pointer shows turns the plane's arrow with it: at 180° its body lies opposite, about the same tip")
    func turnWhileShown() throws {
        let (rig, runtime) = try makeRig(plane: true)
        runtime.setCursorMode(.auto)
        let tip = Point(x: 160, y: 120)
        runtime.addTouchSource(MouseListSource(clock: rig.clock, motions: [(rig.clock.now + 0.1, tip)]))
        runtime.run(exitAfter: 0.3, untilSettled: false)
        let upright = lightCentroid(try #require(try rig.device.captureComposedFrame(crtc: rig.device.crtcID)))
        runtime.rotation = 180
        runtime.run(exitAfter: 0.1, untilSettled: false)
        #expect(runtime.cursor?.isVisible == true && runtime.cursor?.drawing == .plane)
        let turned = lightCentroid(try #require(try rig.device.captureComposedFrame(crtc: rig.device.crtcID)))
        let (a, b) = (upright.centre - tip, turned.centre - tip)
        #expect(a.x > 2 && a.y > 2, "the upright arrow's body is below and right of its tip: \(a)")
        #expect((a + b).distance(to: .zero) < 1.5, "\(a) turned is \(b)")
    }
}
