import Foundation
import Lamina
@testable import LaminaSceneFiles
@testable import LaminaRuntime
import LaminaTestSupport
import Testing

/// Dialogs in scene files (issue 30): `dialogs:` shown by a gesture's `show`, their texts read
/// from the bindings when shown, each action dismissing it and doing what it says.
@Suite("Scene file dialogs", .serialized)
struct SceneFileDialogTests {
    static let yaml = """
        lamina: 1
        bindings: {sugar: {number: 2}}
        layers:
          - {name: order, kind: button, title: Order, bounds: [0, 0, 200, 64], position: [200, 100]}
          - {name: done, bounds: [0, 0, 50, 50], position: [200, 300], opacity: 0}
        states:
          ordered:
            done: {opacity: 1}
        dialogs:
          confirm:
            title: "Order with {= format($sugar, 0)} sugar?"
            message: We'll call your number.
            actions:
              - {title: Change, style: secondary}
              - {title: Order, goTo: ordered}
        gestures:
          - {tap: order, show: confirm}
        """

    @Test("a tap shows the dialog with the bindings' values in its texts; touches are confined to it; an action dismisses it, publishes choose and goes to its state")
    func showAndChoose() throws {
        let rig = try DummyDisplayRig(width: 800, height: 600, refresh: 60, start: 0)
        let runtime = rig.makeRuntime()
        let scene = try runtime.install(FileScene.self, settings: FileScene.Settings(document: try SceneFileFixture.compile(Self.yaml)))
        #expect(runtime.run(untilSettled: true) == .settled)
        var events: [String] = []
        runtime.onPublish = { kind, fields in
            if kind == "control", case .string(let action)? = fields["action"] { events.append("\(fields["layer"]?.string ?? ""):\(action)") }
        }
        runtime.addTouchSource(ScriptedTouchSource(script: try TouchScript(parsing: "at 0.05 tap 200,100"), start: rig.clock.now))
        #expect(runtime.run(untilSettled: true) == .settled)
        let dialog = try #require(scene.shownDialog)
        #expect(dialog.isShown && dialog.titleLabel.string == "Order with 2 sugar?" && dialog.messageLabel.string == "We'll call your number.")
        #expect(dialog.buttons.map(\.title) == ["Change", "Order"])
        // The button behind the dialog hears nothing while it is up.
        runtime.addTouchSource(ScriptedTouchSource(script: try TouchScript(parsing: "at 0.05 tap 200,100"), start: rig.clock.now))
        #expect(runtime.run(untilSettled: true) == .settled)
        #expect(scene.shownDialog === dialog && events == ["order:tap"])
        let order = dialog.buttons[1].layer
        let point = try #require(runtime.rootLayer.convert(order.position, from: order.superlayer))
        runtime.addTouchSource(ScriptedTouchSource(script: try TouchScript(parsing: "at 0.05 tap \(Int(point.x)),\(Int(point.y))"), start: rig.clock.now))
        #expect(runtime.run(untilSettled: true) == .settled)
        #expect(scene.shownDialog == nil && !dialog.isShown)
        #expect(scene.currentState == "ordered" && scene.layer(named: "done")?.opacity == 1)
        #expect(events == ["order:tap", "confirm:choose"])
    }

    @Test("dialogs are checked when compiled",
          arguments: [
              ("  - {tap: order, show: nope}", "no dialog is named 'nope' (dialogs: confirm)"),
              ("  - {tap: order, show: confirm, goTo: ordered}", "a tap does one thing: goTo, toggle, run or show"),
          ])
    func checks(gesture: String, fragment: String) {
        let yaml = Self.yaml.replacingOccurrences(of: "  - {tap: order, show: confirm}", with: gesture)
        let message = SceneFileFixture.error(yaml) ?? "accepted"
        #expect(message.contains(fragment), "\(message)")
    }

    @Test("a dialog's parts are checked", arguments: [
        ("{title: Hi, actions: []}", "a dialog has one to three actions"),
        ("{message: Hi}", "a dialog has a `title`"),
        ("{title: Hi, actions: [{title: A, goTo: gone}]}", "no state is named 'gone'"),
        ("{title: Hi, colour: red}", "unknown key"),
    ])
    func parts(dialog: String, fragment: String) {
        let yaml = "lamina: 1\nlayers: [{name: a, bounds: [0, 0, 9, 9]}]\ndialogs:\n  d: \(dialog)\n"
        let message = SceneFileFixture.error(yaml) ?? "accepted"
        #expect(message.contains(fragment), "\(message)")
    }
}
