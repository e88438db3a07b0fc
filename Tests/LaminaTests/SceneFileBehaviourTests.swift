import Foundation
import Lamina
@testable import LaminaSceneFiles
@testable import LaminaRuntime
import LaminaTestSupport
import Testing

/// What a scene file's scene does when run (issue 15): bindings in text and properties,
/// states with implicit and spring transitions, templates, keyframe and group animations,
/// and gestures — tap, long press, swipe and a pan that scrubs a property animator.
@Suite("Scene file behaviour")
struct SceneFileBehaviourTests {
    static let panel = """
        lamina: 1
        bindings:
          accent: {colour: "#FF0000"}
          title: {string: Level}
          level: {number: 0.5}
        templates:
          chip:
            parameters: {x: ~, label: ~}
            layer:
              bounds: [0, 0, 40, 20]
              position: [$x, 280]
              sublayers:
                - {name: text, kind: text, string: "{label}", fontSize: 12}
        layers:
          - name: box
            bounds: [0, 0, 100, 100]
            position: [100, 100]
            backgroundColor: $accent
            opacity: $level
          - name: label
            kind: text
            string: "{title}: {level} {{%}}"
            bounds: [0, 0, 200, 30]
            position: [300, 20]
          - {use: chip, name: a, with: {x: 40, label: A}}
          - {use: chip, name: b, with: {x: 90, label: B}}
          - {use: chip, name: c, with: {x: 140, label: C}}
          - {use: chip, name: d, with: {x: 190, label: D}}
          - {use: chip, name: e, with: {x: 240, label: E}}
        states:
          rest: ~
          moved:
            box: {position: [300, 100]}
          sprung:
            box: {position: [100, 200]}
        initialState: rest
        transitions:
          - {to: rest, implicit: {duration: 1, curve: linear}}
          - {to: sprung, spring: {duration: 0.5, bounce: 0.3}}
          - {from: rest, to: moved, basic: {duration: 2, curve: linear}}
        animations:
          pulse:
            layer: label
            values: [0, 1, 0]
            keyTimes: [0, 0.5, 1]
            keyPath: opacity
            duration: 1
          pop:
            layer: box
            duration: 0.5
            group:
              - {keyPath: opacity, from: 1, to: 0}
              - {keyPath: transform.scale, from: 1, to: 2}
        gestures:
          - {tap: box, toggle: [moved, rest]}
          - {longPress: label, run: pulse}
          - {swipe: root, direction: left, run: pop}
        """

    private func start(_ yaml: String = panel) throws -> (DummyDisplayRig, Runtime, FileScene) {
        let rig = try DummyDisplayRig(width: 400, height: 300, refresh: 60, start: 0)
        let runtime = rig.makeRuntime()
        let document = try SceneFileFixture.compile(yaml)
        let scene = try runtime.install(FileScene.self, settings: FileScene.Settings(document: document))
        return (rig, runtime, scene)
    }

    private func x(_ scene: FileScene, _ name: String, at time: Double) -> Double? {
        guard case .point(let p)? = scene.layer(named: name)?.presentationValue(forKeyPath: "position", at: time) else { return nil }
        return p.x
    }

    @Test("bindings fill text and properties; setting one updates both; a value of another kind is refused")
    func bindings() throws {
        let (rig, runtime, scene) = try start()
        #expect(runtime.run(untilSettled: true) == .settled)
        let label = try #require(scene.layer(named: "label") as? TextLayer)
        let box = try #require(scene.layer(named: "box"))
        #expect(label.string == "Level: 0.5 {%}")
        #expect(box.opacity == 0.5 && box.backgroundColor == Color(red: 1, green: 0, blue: 0))
        #expect(rig.display.shadow[100, 100] == 0xFF80_0000)                  // red at half opacity on black
        try scene.setBinding("level", to: .number(0.75))
        try scene.setBinding("accent", to: .color(Color(red: 0, green: 0, blue: 1)))
        #expect(label.string == "Level: 0.75 {%}" && box.opacity == 0.75)
        #expect(runtime.run(untilSettled: true) == .settled)
        #expect(rig.display.shadow[100, 100] == 0xFF00_00BF)
        #expect(throws: ConfigError.self) { try scene.setBinding("level", to: .string("high")) }
        #expect(throws: ConfigError.self) { try scene.setBinding("volume", to: .number(1)) }
    }

    @Test("a template used five times builds five chips, their inner layers named under each use")
    func templates() throws {
        let (_, _, scene) = try start()
        #expect(scene.document.layerCount == 2 + 5 * 2)
        for (name, label) in [("a", "A"), ("b", "B"), ("c", "C"), ("d", "D"), ("e", "E")] {
            #expect((scene.layer(named: "\(name).text") as? TextLayer)?.string == label)
        }
        #expect(scene.layer(named: "c")?.position == Point(x: 140, y: 280))
    }

    @Test("transitions: implicit linear goes halfway in half its duration, basic from rest runs its own, the perceptual spring form is the spring used")
    func transitions() throws {
        let (rig, runtime, scene) = try start()
        #expect(runtime.run(untilSettled: true) == .settled)
        var t0 = rig.clock.now
        #expect(scene.currentState == "rest")
        scene.go(toState: "moved")                            // basic, 2 s linear (the transition from rest)
        #expect(scene.currentState == "moved")
        let basic = scene.layer(named: "box")?.animation(forKey: "state.position")
        #expect(basic?.timing.duration == 2)
        runtime.run(exitAfter: 0.5, untilSettled: false)
        #expect(abs((x(scene, "box", at: t0 + 1) ?? 0) - 200) < 1e-9)        // linear: halfway at 1 of 2 s
        #expect(runtime.run(untilSettled: true) == .settled)
        #expect(scene.layer(named: "box")?.position == Point(x: 300, y: 100))

        t0 = rig.clock.now
        scene.go(toState: "rest")                            // implicit, 1 s linear
        runtime.run(exitAfter: 0.1, untilSettled: false)
        let begin = try #require(scene.layer(named: "box")?.animation(forKey: "position")?.timing.beginTime)
        #expect(abs((x(scene, "box", at: begin + 0.5) ?? 0) - 200) < 1e-9)
        #expect(begin >= t0 && begin < t0 + 0.1)
        #expect(runtime.run(untilSettled: true) == .settled)
        #expect(scene.layer(named: "box")?.position == Point(x: 100, y: 100))

        scene.go(toState: "sprung")
        let spring = scene.layer(named: "box")?.animation(forKey: "state.position")?.spring
        #expect(spring == Spring(perceptualDuration: 0.5, bounce: 0.3))
        #expect(runtime.run(untilSettled: true) == .settled)
        #expect(scene.layer(named: "box")?.position == Point(x: 100, y: 200))
    }

    @Test("a tap toggles between two states; a long press runs a keyframe animation; a swipe runs a group")
    func gestures() throws {
        let (rig, runtime, scene) = try start()
        #expect(runtime.run(untilSettled: true) == .settled)
        let t0 = rig.clock.now
        runtime.addTouchSource(ScriptedTouchSource(script: try TouchScript(parsing: """
            at 0.1 tap 100,100
            at 3.0 tap 300,100
            at 5.0 tap 300,20 hold 0.7
            at 7.0 drag 350,150 250,150 over 0.2
            """), start: t0))
        runtime.run(exitAfter: 2.5, untilSettled: false)
        #expect(scene.currentState == "moved" && scene.layer(named: "box")?.position.x == 300)
        runtime.run(exitAfter: 2.0, untilSettled: false)
        #expect(scene.currentState == "rest")
        runtime.run(exitAfter: 1.15, untilSettled: false)               // the press is recognized 0.5 s in
        let pulse = try #require(scene.layer(named: "label")?.animation(forKey: "pulse"))
        let began = pulse.timing.beginTime
        guard case .scalar(let quarter)? = scene.layer(named: "label")?.presentationValue(forKeyPath: "opacity", at: began + 0.25) else {
            Issue.record("no opacity")
            return
        }
        #expect(abs(quarter - 0.5) < 1e-9)                            // 0 → 1 over the first half, linear
        runtime.run(exitAfter: 1.7, untilSettled: false)                // the swipe is recognized about 7.1 s in
        let box = try #require(scene.layer(named: "box"))
        #expect(box.animationKeys().contains { $0.hasPrefix("pop") }, "\(box.animationKeys())")
        // The frame drawn last shows both members of the group on one clock.
        let shown = try #require(box.presentation())
        let scale = shown.transform.m11
        #expect(shown.opacity > 0 && shown.opacity < 1 && abs(scale - (2 - shown.opacity)) < 1e-9,
                "opacity \(shown.opacity), scale \(scale)")
        #expect(runtime.run(untilSettled: true) == .settled)
    }

    static let drawer = """
        lamina: 1
        layers:
          - {name: sheet, bounds: [0, 0, 400, 100], position: [200, 350]}
        states:
          open:
            sheet: {position: [200, 250]}
        animators:
          slide: {duration: 0.5, curve: linear, state: open}
        gestures:
          - pan: root
            animator: slide
            scrub: {axis: y, distance: -100}
        """

    @Test("a pan scrubs the animator with the finger; let go before halfway it goes back, past halfway it finishes in the state; from the state it scrubs back the other way")
    func scrub() throws {
        let (rig, runtime, scene) = try start(Self.drawer)
        #expect(runtime.run(untilSettled: true) == .settled)
        var t0 = rig.clock.now
        // 30 points up, slowly: under a third of the way, and no flick to carry it past half.
        runtime.addTouchSource(ScriptedTouchSource(script: try TouchScript(parsing: "at 0.1 drag 200,200 200,170 over 0.5"), start: t0))
        runtime.run(exitAfter: 0.55, untilSettled: false)
        guard case .point(let held)? = scene.layer(named: "sheet")?.presentationValue(forKeyPath: "position", at: rig.clock.now) else {
            Issue.record("no position")
            return
        }
        #expect(held.y < 350 && held.y > 300, "follows the finger: \(held.y)")
        #expect(runtime.run(untilSettled: true) == .settled)
        #expect(scene.currentState == nil && scene.layer(named: "sheet")?.position.y == 350)

        t0 = rig.clock.now
        runtime.addTouchSource(ScriptedTouchSource(script: try TouchScript(parsing: "at 0.1 drag 200,200 200,130 over 0.5"), start: t0))
        #expect(runtime.run(untilSettled: true) == .settled)
        #expect(scene.currentState == "open" && scene.layer(named: "sheet")?.position.y == 250)

        // Open, the same pan runs back the other way: dragged down it closes (up does nothing).
        t0 = rig.clock.now
        runtime.addTouchSource(ScriptedTouchSource(script: try TouchScript(parsing: "at 0.1 drag 200,130 200,100 over 0.5"), start: t0))
        #expect(runtime.run(untilSettled: true) == .settled)
        #expect(scene.currentState == "open" && scene.layer(named: "sheet")?.position.y == 250)
        t0 = rig.clock.now
        runtime.addTouchSource(ScriptedTouchSource(script: try TouchScript(parsing: "at 0.1 drag 200,130 200,200 over 0.5"), start: t0))
        runtime.run(exitAfter: 0.45, untilSettled: false)
        guard case .point(let closing)? = scene.layer(named: "sheet")?.presentationValue(forKeyPath: "position", at: rig.clock.now) else {
            Issue.record("no position")
            return
        }
        #expect(closing.y > 280 && closing.y < 350, "follows the finger down: \(closing.y)")
        #expect(runtime.run(untilSettled: true) == .settled)
        #expect(scene.currentState == nil && scene.layer(named: "sheet")?.position.y == 350)
    }
}
