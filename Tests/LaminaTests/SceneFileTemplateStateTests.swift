import Foundation
import Lamina
@testable import LaminaSceneFiles
@testable import LaminaRuntime
import LaminaTestSupport
import Testing

/// States and gestures a template carries for each of its uses (issue 30): "tap a row, see
/// its card" written once, each row opening and closing on its own.
@Suite("Scene file template states", .serialized)
struct SceneFileTemplateStateTests {
    static let board = """
        lamina: 1
        bindings:
          level1: {number: 0}
          level2: {number: 12}
          level3: {number: 40}
        templates:
          row:
            parameters: {y: ~, count: ~}
            layer:
              bounds: [0, 0, 300, 50]
              position: [150, $y]
              backgroundColor: "= ${count} == 0 ? #EF4444 : #1C2230"
              sublayers:
                - {name: caption, kind: text, string: "{= ${count}} free", fontSize: 20, bounds: [0, 0, 280, 30], position: [150, 25]}
                - {name: card, bounds: [0, 0, 120, 40], position: [360, 25], opacity: 0}
            states:
              closed: ~
              open:
                card: {opacity: 1}
                self: {transform: [scale: 1.05]}
            initialState: closed
            transitions:
              - {to: open, instant: true}
            gestures:
              - {tap: self, toggle: [open, closed]}
        layers:
          - {use: row, name: row1, with: {y: 40, count: level1}}
          - {use: row, name: row2, with: {y: 110, count: level2}}
          - {use: row, name: row3, with: {y: 180, count: level3}}
          - {name: panel, bounds: [0, 0, 100, 100], position: [50, 260]}
        states:
          rest: ~
          moved:
            panel: {position: [350, 260]}
        initialState: rest
        gestures:
          - {tap: panel, toggle: [moved, rest]}
        """

    private func start(_ yaml: String) throws -> (DummyDisplayRig, Runtime, FileScene) {
        let rig = try DummyDisplayRig(width: 500, height: 320, refresh: 60, start: 0)
        let runtime = rig.makeRuntime()
        let scene = try runtime.install(FileScene.self, settings: FileScene.Settings(document: try SceneFileFixture.compile(yaml)))
        #expect(runtime.run(untilSettled: true) == .settled)
        return (rig, runtime, scene)
    }

    private func tap(_ x: Double, _ y: Double, _ rig: DummyDisplayRig, _ runtime: Runtime) throws {
        runtime.addTouchSource(ScriptedTouchSource(script: try TouchScript(parsing: "at 0.05 tap \(Int(x)),\(Int(y))"), start: rig.clock.now))
        #expect(runtime.run(untilSettled: true) == .settled)
    }

    @Test("each use of a template has its own states: tapping a row opens its card alone, and the scene's state is untouched")
    func eachUseHasItsOwnState() throws {
        let (rig, runtime, scene) = try start(Self.board)
        var published: [String] = []
        runtime.onPublish = { kind, fields in
            if kind == "state" { published.append("\(fields["layer"].map { "\($0)" } ?? "scene")=\(fields["state"].map { "\($0)" } ?? "")") }
        }
        #expect(scene.useStates == ["row1": "closed", "row2": "closed", "row3": "closed"])
        #expect(scene.useStateNames["row2"] == ["closed", "open"])
        try tap(150, 110, rig, runtime)                              // row2
        #expect(scene.useStates == ["row1": "closed", "row2": "open", "row3": "closed"])
        #expect(scene.layer(named: "row2.card")?.opacity == 1 && scene.layer(named: "row1.card")?.opacity == 0)
        #expect(scene.layer(named: "row2")?.transform.m11 == 1.05 && scene.layer(named: "row1")?.transform.m11 == 1)
        try tap(150, 40, rig, runtime)                               // row1
        #expect(scene.useStates == ["row1": "open", "row2": "open", "row3": "closed"])
        try tap(150, 110, rig, runtime)                              // row2 again: closes, row1 stays open
        #expect(scene.useStates == ["row1": "open", "row2": "closed", "row3": "closed"])
        #expect(scene.layer(named: "row2.card")?.opacity == 0 && scene.layer(named: "row1.card")?.opacity == 1)
        #expect(scene.currentState == "rest")
        try tap(50, 260, rig, runtime)                               // the scene's own gesture
        #expect(scene.currentState == "moved" && scene.useStates["row1"] == "open")
        #expect(published.map { $0.replacingOccurrences(of: "\"", with: "") }
                == ["row2=open", "row1=open", "row2=closed", "scene=moved"], "\(published)")
        // The template's expressions follow the binding each use was given.
        #expect(scene.layer(named: "row1")?.backgroundColor == (try Color(hex: "#EF4444")))
        #expect((scene.layer(named: "row3.caption") as? TextLayer)?.string == "40 free")
    }

    @Test("a reload puts each use back in the state it was in, when the file still has it")
    func reloadKeepsUseStates() throws {
        let folder = try SceneFileFixture.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let rig = try DummyDisplayRig(width: 500, height: 320, refresh: 60, start: 0)
        let runtime = rig.makeRuntime()
        try SceneFiles.install(try SceneFileFixture.compile(Self.board, in: folder), in: runtime)
        #expect(runtime.run(untilSettled: true) == .settled)
        let scene = try #require(runtime.scene as? FileScene)
        try tap(150, 180, rig, runtime)
        #expect(scene.useStates["row3"] == "open")
        try SceneFiles.install(try SceneFileFixture.compile(Self.board, in: folder), in: runtime)
        #expect(runtime.run(untilSettled: true) == .settled)
        let reloaded = try #require(runtime.scene as? FileScene)
        #expect(reloaded !== scene)
        #expect(reloaded.useStates == ["row1": "closed", "row2": "closed", "row3": "open"])
        #expect(reloaded.layer(named: "row3.card")?.opacity == 1)
    }

    @Test("a template's states and gestures are checked per use, with the use named",
          arguments: [
              ("layers:\n  - {use: row, with: {y: 1}}\n", "template 'row' has states or gestures of each use's own: name the use"),
              ("layers:\n  - {use: row, name: a, with: {y: 1}}\n", nil),
          ])
    func checks(layers: String, fragment: String?) {
        let yaml = """
            lamina: 1
            templates:
              row:
                parameters: {y: ~}
                layer:
                  bounds: [0, 0, 10, 10]
                  position: [5, $y]
                  sublayers: [{name: card, bounds: [0, 0, 5, 5]}]
                states:
                  open: {card: {opacity: 0.5}}
                gestures:
                  - {tap: self, goTo: open}
            \(layers)
            """
        let message = SceneFileFixture.error(yaml)
        if let fragment {
            #expect(message?.contains(fragment) == true, "\(message ?? "accepted")")
        } else {
            #expect(message == nil, "\(message ?? "")")
        }
    }

    @Test("mistakes inside a template's states and gestures name the template's line and the use",
          arguments: [
              ("states:\n      open: {crd: {opacity: 0.5}}\n", "scene.yaml:8:14: layers[0](a) states.open.crd: no layer is named 'a.crd' (did you mean 'a.card'?)"),
              ("states:\n      open: {card: {opacity: 0.5}}\n    gestures:\n      - {tap: self, goTo: shut}\n", "layers[0](a) gestures[0].goTo: no state is named 'shut'"),
              ("initialState: open\n", "layers[0](a) initialState: no state is named 'open'"),
              ("colour: 1\n", "templates.row.colour: unknown key; allowed here: layer, parameters, states, initialState, transitions, gestures"),
          ])
    func mistakes(behaviour: String, fragment: String) {
        let yaml = """
            lamina: 1
            templates:
              row:
                layer:
                  bounds: [0, 0, 10, 10]
                  sublayers: [{name: card, bounds: [0, 0, 5, 5]}]
                \(behaviour)
            layers:
              - {use: row, name: a}
            """
        let message = SceneFileFixture.error(yaml) ?? "accepted"
        #expect(message.contains(fragment), "\(message)")
    }
}
