import Foundation
import Lamina
@testable import LaminaSceneFiles
@testable import LaminaRuntime
import LaminaDisplay
import LaminaGeometry
import LaminaInput
import LaminaLayers
import LaminaScenes
import LaminaTestSupport
import Testing

/// Every gallery scene on vkms under uinput touches (issue 15): the gesture a scene is about
/// reaches it through udev and libinput and changes what vkms scans out, read back through
/// writeback. In the serialized kernel suite (one DRM master).
extension KernelDisplayTests {
    /// A runtime on vkms with libinput on seat0, showing `scene`.
    final class GalleryRig<S: Scene> {
        let display: Display
        let runtime: Runtime
        let scene: S
        let input: LibinputSource
        let log = CapturedLog()

        init(_ type: S.Type, settings: S.Settings) throws {
            display = try Display(device: try DRMDevice(path: KernelDisplay.card))
            runtime = Runtime(display: display, clock: SystemClock(), background: Color(red8: 0x0F, green8: 0x11, blue8: 0x15),
                              logger: log.logger())
            scene = try runtime.install(type, settings: settings)
            input = try LibinputSource(backend: .seat("seat0"), panelSize: Size(width: Double(display.width), height: Double(display.height)),
                                           log: { [log] in log.logger().info("\($0)") })
            runtime.addTouchSource(input)
        }

        var size: Size { runtime.screenSize }
        func run(_ seconds: Double) { runtime.run(exitAfter: seconds, untilSettled: false) }
        func frame() throws -> PixelBuffer { try #require(try display.captureComposedFrame()) }

        /// Runs until libinput has added the device and a frame has been flipped.
        func start(_ screen: UInputTouchscreen) {
            #expect(runtime.run(until: { self.input.devices.values.contains(screen.name) && self.runtime.flipCount >= 1 }), "\(log.lines)")
        }

        /// A tap, run until its lift has been dispatched.
        func tap(_ screen: UInputTouchscreen, at p: Point) {
            let touches = runtime.stats.touches
            screen.down(at: p)
            run(0.06)
            screen.up()
            runtime.runUntilLifted(touchesBefore: touches)
        }

        func drag(_ screen: UInputTouchscreen, from start: Point, by delta: Point, lift: Bool = true) {
            let touches = runtime.stats.touches
            screen.down(at: start)
            run(0.008)
            for i in 1...12 {
                screen.move(to: start + delta * (Double(i) / 12))
                run(0.008)
            }
            if lift { screen.up(); runtime.runUntilLifted(touchesBefore: touches) }
            runtime.runFlips(2)
        }
    }

    /// The pixel at the middle of `layer` (a layer directly under the root, upright screen).
    static func pixel(at layer: Layer, in frame: PixelBuffer) -> UInt32 {
        frame[Int(layer.position.x), Int(layer.position.y)]
    }

    @Test("each gallery scene on vkms: its gesture, made on a uinput touchscreen, changes the frame read back through writeback")
    func galleryUnderTouch() throws {
        let screen = try UInputTouchscreen(width: 1024, height: 768)
        defer { screen.destroy() }

        do {   // elastic-field: a tap bulges the field
            let rig = try GalleryRig(ElasticField.self, settings: ElasticField.Settings())
            defer { rig.display.close() }
            rig.start(screen)
            #expect(rig.runtime.run(exitAfter: KernelPacing.patience, untilSettled: true) == .settled)
            let rest = try rig.frame()
            rig.tap(screen, at: Point(x: rig.size.width / 2, y: rig.size.height / 2))
            #expect(rig.scene.taps == 1, "\(rig.log.lines)")
            #expect(rig.runtime.runUntilFrame(differsFrom: rest, byMoreThan: 1000, frame: rig.frame) > 1000)
        }
        do {   // property-animator: a held drag moves the circle and grows it
            let rig = try GalleryRig(PropertyAnimatorScene.self, settings: NoSettings())
            defer { rig.display.close() }
            rig.start(screen)
            let rest = try rig.frame()
            let center = rig.scene.circle.position
            rig.drag(screen, from: center, by: Point(x: 150, y: 60), lift: false)
            rig.runtime.run(until: { rig.scene.isGrowing && rig.scene.circle.position.distance(to: center) > 100 })
            rig.runtime.runFlips(2)
            #expect(rig.scene.isGrowing && rig.scene.circle.position.distance(to: center) > 100)
            #expect(Self.pixel(at: rig.scene.circle, in: try rig.frame()) != Self.pixel(at: rig.scene.circle, in: rest))
            screen.up()
            rig.runtime.run(until: { !rig.scene.isGrowing })
            #expect(!rig.scene.isGrowing)
        }
        do {   // spinner: a drag tilts both stacks (they turn anyway: the tilt is what the drag did)
            let rig = try GalleryRig(Spinner.self, settings: NoSettings())
            defer { rig.display.close() }
            rig.start(screen)
            let before = try rig.frame()
            rig.drag(screen, from: Point(x: 300, y: 500), by: Point(x: 0, y: -150))
            #expect(abs(rig.scene.tilt - (Spinner.initialTilt - 150 * Spinner.tiltPerPoint)) < 0.1, "tilt \(rig.scene.tilt)")
            #expect(Pixels.differing(try rig.frame(), before) > 1000)
        }
        do {   // ripple: a tap on a button ripples it (nothing else moves there)
            let rig = try GalleryRig(Ripple.self, settings: NoSettings())
            defer { rig.display.close() }
            rig.start(screen)
            let rest = try rig.frame()
            let button = rig.scene.buttons[0].layer
            // The ripple lasts half a second, which the emulated arm64 VM on a busy machine
            // can pass in one frame: layer time runs at a tenth (Core Animation's `speed` on
            // the root), so it lasts five.
            rig.runtime.rootLayer.speed = 0.1
            rig.tap(screen, at: button.position)
            #expect(rig.scene.ripplesStarted == 1, "\(rig.log.lines)")
            #expect(rig.runtime.runUntilFrame(differsFrom: rest, byMoreThan: 100, frame: rig.frame) > 100)
        }
        do {   // playground: a tap on the no-action tile recolours it at once
            let rig = try GalleryRig(Playground.self, settings: NoSettings())
            defer { rig.display.close() }
            rig.start(screen)
            let tile = rig.scene.noActionTile
            let before = Self.pixel(at: tile, in: try rig.frame())
            rig.tap(screen, at: tile.position)
            // One commit, one frame: until it is on the glass.
            rig.runtime.run(until: { (try? rig.frame()).map { Self.pixel(at: tile, in: $0) != before } ?? false })
            #expect(Self.pixel(at: tile, in: try rig.frame()) != before, "\(rig.log.lines)")
        }
    }

    @Test("the gallery's scene files on vkms: read by the lamina-scene helper, their gestures made on a uinput touchscreen change the frame")
    func sceneFilesUnderTouch() throws {
        let screen = try UInputTouchscreen(width: 1024, height: 768)
        defer { screen.destroy() }
        let scenes = GalleryTests.repository + "/configs/scenes/"

        do {   // property-animator.yaml: a held drag moves the circle and its animator runs
            let document = try SceneFiles.load(path: scenes + "property-animator.yaml")
            let rig = try GalleryRig(FileScene.self, settings: FileScene.Settings(document: document))
            defer { rig.display.close() }
            rig.start(screen)
            let rest = try rig.frame()
            let circle = try #require(rig.scene.layer(named: "circle"))
            let center = circle.position
            rig.drag(screen, from: center, by: Point(x: -150, y: 60), lift: false)
            rig.runtime.run(until: { circle.position.distance(to: center) > 100 })
            rig.runtime.runFlips(2)
            #expect(circle.position.distance(to: center) > 100, "\(rig.log.lines)")
            #expect(Self.pixel(at: circle, in: try rig.frame()) != Self.pixel(at: circle, in: rest))
            let touches = rig.runtime.stats.touches - 1
            screen.up()
            rig.runtime.runUntilLifted(touchesBefore: touches)
        }
        do {   // spinner.yaml: a drag up stands the stacks up to face the viewer
            let document = try SceneFiles.load(path: scenes + "spinner.yaml")
            let rig = try GalleryRig(FileScene.self, settings: FileScene.Settings(document: document))
            defer { rig.display.close() }
            rig.start(screen)
            let before = try rig.frame()
            rig.drag(screen, from: Point(x: 300, y: 500), by: Point(x: 0, y: -180))
            rig.runtime.run(until: { rig.scene.currentState == "facing" })
            rig.run(1.0)
            #expect(rig.scene.currentState == "facing", "\(rig.log.lines)")
            #expect(Pixels.differing(try rig.frame(), before) > 1000)
        }
    }
}
