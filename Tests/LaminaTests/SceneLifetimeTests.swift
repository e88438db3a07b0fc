import Foundation
@testable import Lamina
@testable import LaminaSceneFiles
@testable import LaminaRuntime
import LaminaTestSupport
import Testing

/// A scene that holds on to everything it makes, with closures that capture it strongly:
/// the pattern that leaks unless the runtime breaks the cycles at teardown.
private final class Clingy: Scene {
    static let name = "clingy"
    static nonisolated(unsafe) var tornDown = 0
    let layer = Layer()
    var link: DisplayLink?
    var pan: PanGestureRecognizer?
    var frames = 0

    init(context: SceneContext, settings: NoSettings) {
        context.rootLayer.addSublayer(layer)
        link = context.addDisplayLink { _ in self.frames += 1 }
        pan = context.addGestureRecognizer(PanGestureRecognizer { _ in self.frames += 0 }, to: layer)
        context.addTouchHandler(to: layer) { _ in self.frames += 0 }
        context.onTextInput { _ in self.frames += 0 }
        context.onKey { _ in self.frames += 0 }
    }

    func tearDown() { Self.tornDown += 1 }
}

private final class Failing: Scene {
    static let name = "failing"
    struct Broken: Error {}
    init(context: SceneContext, settings: NoSettings) throws {
        context.rootLayer.addSublayer(Layer())
        context.addDisplayLink { _ in }
        throw Broken()
    }
}

@Suite("Scene lifetime")
struct SceneLifetimeTests {
    @Test("removing a scene tears it down once and releases it, though its closures and stored recognizer capture it")
    func released() throws {
        let rig = try DummyDisplayRig()
        let runtime = rig.makeRuntime()
        weak var weakScene: Clingy?
        let before = Clingy.tornDown
        do {
            let scene = try runtime.install(Clingy.self, settings: NoSettings())
            weakScene = scene
            #expect(runtime.rootLayer.sublayers.count == 1 && runtime.links.hasActiveLinks)
        }
        #expect(weakScene != nil)                         // the runtime owns it while installed
        runtime.removeScene()
        #expect(weakScene == nil)
        #expect(Clingy.tornDown == before + 1)
        #expect(runtime.rootLayer.sublayers.isEmpty && !runtime.links.hasActiveLinks)
        #expect(runtime.scene == nil)
    }

    @Test("installing a scene replaces the one before; a scene whose init throws leaves nothing installed")
    func replaceAndFail() throws {
        let rig = try DummyDisplayRig()
        let runtime = rig.makeRuntime()
        weak var first: Clingy?
        do { first = try runtime.install(Clingy.self, settings: NoSettings()) }
        #expect(first != nil)
        #expect(throws: SceneStartError.self) { try runtime.install(Failing.self, settings: NoSettings()) }
        #expect(first == nil)
        #expect(runtime.scene == nil && runtime.rootLayer.sublayers.isEmpty && !runtime.links.hasActiveLinks)
    }

    @Test("a registry refuses an unknown scene with the known names, and its first scene is the default")
    func registry() throws {
        let registry = SceneRegistry([Clingy.self, Failing.self])
        #expect(registry.defaultScene == "clingy" && registry.sceneNames == ["clingy", "failing"])
        let table = SettingsTable(file: "x.toml", name: "nope", entries: [:])
        #expect(throws: ConfigError.self) { try registry.validate(scene: "nope", settings: table) }
        #expect(SceneRegistry.isValidName("control-panel-2") && !SceneRegistry.isValidName("Control Panel"))
    }

    @Test("settings of a scene without any refuse every key")
    func noSettings() throws {
        let path = try temporaryConfig("[clingy]\nspeed = 2\n")
        let config = try LaminaConfig.load(path: path, sceneNames: ["clingy"])
        #expect(config.scene == "clingy")
        #expect(throws: ConfigError.self) { try NoSettings(from: config.settings(forScene: "clingy")) }
    }
}

private func temporaryConfig(_ text: String) throws -> String {
    let path = NSTemporaryDirectory() + "lamina-scene-\(UInt64.random(in: 0...UInt64.max)).toml"
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    return path
}
