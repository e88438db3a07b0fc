import Foundation
import Lamina
@testable import LaminaSceneFiles
@testable import LaminaRuntime
import LaminaTestSupport
import Testing

/// Scrolling in scene files (issue 30): the `scroll` kind and `decay` animations.
@Suite("Scene file scrolling", .serialized)
struct SceneFileScrollTests {
    static let list = """
        lamina: 1
        templates:
          row:
            parameters: {y: ~, label: ~}
            layer:
              bounds: [0, 0, 300, 60]
              position: [150, $y]
              backgroundColor: "#1C2230"
              sublayers:
                - {kind: text, string: "{label}", fontSize: 24, bounds: [0, 0, 280, 30], position: [150, 30]}
        layers:
          - name: list
            kind: scroll
            bounds: [0, 0, 300, 200]
            position: [200, 150]
            sublayers:
              - {use: row, with: {y: 30, label: One}}
              - {use: row, with: {y: 100, label: Two}}
              - {use: row, with: {y: 170, label: Three}}
              - {use: row, with: {y: 240, label: Four}}
              - {use: row, with: {y: 310, label: Five}}
              - {use: row, with: {y: 380, label: Six}}
          - name: pages
            kind: scroll
            bounds: [0, 0, 100, 50]
            position: [50, 275]
            contentSize: [300, 50]
            paging: true
            decelerationRate: fast
            indicators: false
        """

    private func start(_ yaml: String, settle: Bool = true) throws -> (DummyDisplayRig, Runtime, FileScene) {
        let rig = try DummyDisplayRig(width: 400, height: 300, refresh: 60, start: 0)
        let runtime = rig.makeRuntime()
        let document = try SceneFileFixture.compile(yaml)
        let scene = try runtime.install(FileScene.self, settings: FileScene.Settings(document: document))
        if settle { #expect(runtime.run(untilSettled: true) == .settled) } else { runtime.run(exitAfter: 0.05, untilSettled: false) }
        return (rig, runtime, scene)
    }

    @Test("a scroll layer's content is its sublayers, as large as they reach unless contentSize says; its settings reach the scroll view")
    func scrollKind() throws {
        let (_, _, scene) = try start(Self.list)
        let list = try #require(scene.scrollViews["list"])
        #expect(list.layer === scene.layer(named: "list"))
        #expect(list.contentSize == Size(width: 300, height: 410))
        #expect(list.contentLayer.sublayers.count == 6 && list.layer.bounds.size == Size(width: 300, height: 200))
        let pages = try #require(scene.scrollViews["pages"])
        #expect(pages.contentSize == Size(width: 300, height: 50))
        #expect(pages.isPagingEnabled && pages.decelerationRate == 0.99 && !pages.showsIndicators && pages.bounces)
    }

    @Test("dragged, the list scrolls and comes to rest inside its content")
    func dragScrolls() throws {
        let (rig, runtime, scene) = try start(Self.list)
        let list = try #require(scene.scrollViews["list"])
        runtime.addTouchSource(ScriptedTouchSource(script: try TouchScript(parsing: "at 0.1 drag 200,220 200,80 over 0.3"), start: rig.clock.now))
        #expect(runtime.run(untilSettled: true) == .settled)
        #expect(list.contentOffset.y > 100 && list.contentOffset.y <= 210)
        #expect(list.contentOffset.x == 0)
    }

    @Test("a decay animation in a file: from + velocity·(−1/(1000·ln d))·(1 − d^(1000t)), and what it refuses")
    func decayAnimation() throws {
        let yaml = """
            lamina: 1
            layers:
              - name: puck
                bounds: [0, 0, 20, 20]
                position: [50, 50]
                animations:
                  fling: {keyPath: position.x, from: 50, decay: {velocity: 900, rate: fast}}
            """
        let (rig, runtime, scene) = try start(yaml, settle: false)
        let puck = try #require(scene.layer(named: "puck"))
        let animation = try #require(puck.animation(forKey: "fling"))
        let begin = animation.timing.beginTime
        let k = -1 / (1000 * log(0.99))
        for t in [0.0, 0.05, 0.1, 0.2] {
            guard case .scalar(let x)? = puck.presentationValue(forKeyPath: "position.x", at: begin + t) else {
                Issue.record("no value at \(t)")
                continue
            }
            #expect(abs(x - (50 + 900 * k * (1 - pow(0.99, 1000 * t)))) < 1e-9)
        }
        #expect(rig.clock.now >= begin)
        #expect(runtime.run(untilSettled: true) == .settled)               // it ends: the decay's duration
        #expect(SceneFileFixture.error(Self.fling("{velocity: 900, rate: slow}"))?.contains("'slow' is not normal or fast") == true)
        #expect(SceneFileFixture.error(Self.fling("{rate: fast}"))?.contains("gives its `velocity`") == true)
        #expect(SceneFileFixture.error(Self.fling("{velocity: 900}", extra: ", to: 100"))?.contains("no `to`, `by`") == true)
        #expect(SceneFileFixture.error(Self.fling("{velocity: [1, 2]}"))?.contains("velocity") == true)
    }

    private static func fling(_ decay: String, extra: String = "") -> String {
        """
        lamina: 1
        layers:
          - name: puck
            animations:
              fling: {keyPath: position.x\(extra), decay: \(decay)}
        """
    }

    @Test("layout: a stack of sublayers sized by layoutSize, a grid inside it, laid out again when a state resizes the stack")
    func layout() throws {
        let yaml = """
            lamina: 1
            layers:
              - name: panel
                bounds: [0, 0, 300, 200]
                position: [150, 100]
                layout: {stack: vertical, spacing: 10, alignment: fill, padding: 10}
                sublayers:
                  - {name: title, bounds: [0, 0, 50, 30]}
                  - name: keys
                    layoutSize: {flexible: 1}
                    layout: {grid: 2, spacing: [10, 10], rowHeight: 40}
                    sublayers:
                      - {name: k1}
                      - {name: k2}
                      - {name: k3}
                  - {name: ok, layoutSize: 50}
            states:
              tall:
                panel: {bounds: [0, 0, 300, 300]}
            """
        let (_, runtime, scene) = try start(yaml)
        func frame(_ name: String) -> Rect? { scene.layer(named: name)?.frame }
        // Inner 280 x 180: title 30, ok 50, two gaps of 10: keys get 80.
        #expect(frame("title") == Rect(x: 10, y: 10, width: 280, height: 30))
        #expect(frame("keys") == Rect(x: 10, y: 50, width: 280, height: 80))
        #expect(frame("ok") == Rect(x: 10, y: 140, width: 280, height: 50))
        #expect(frame("k1") == Rect(x: 0, y: 0, width: 135, height: 40) && frame("k2") == Rect(x: 145, y: 0, width: 135, height: 40))
        #expect(frame("k3") == Rect(x: 0, y: 50, width: 135, height: 40))
        scene.go(toState: "tall")
        #expect(runtime.run(untilSettled: true) == .settled)
        #expect(frame("keys")?.height == 180 && frame("ok") == Rect(x: 10, y: 240, width: 280, height: 50))
    }

    @Test("controls in a file: a button's tap gesture acts and is published; a toggle and a slider set their number bindings, which move what is bound and a progress bar")
    func controls() throws {
        let yaml = """
            lamina: 1
            bindings:
              light: {number: 0}
              level: {number: 0.25}
            layers:
              - {name: pay, kind: button, title: Pay, position: [100, 50]}
              - {name: lamp, kind: toggle, binding: light, position: [300, 50]}
              - {name: volume, kind: slider, binding: level, bounds: [0, 0, 200, 48], position: [200, 150], step: 0.25}
              - {name: bar, kind: progress, binding: level, bounds: [0, 0, 200, 10], position: [200, 220]}
              - {name: box, bounds: [0, 0, 20, 20], position: [20, 280], opacity: $light}
            states:
              paid:
                box: {position: [380, 280]}
            gestures:
              - {tap: pay, goTo: paid}
            """
        let (rig, runtime, scene) = try start(yaml)
        var events: [String] = []
        runtime.onPublish = { kind, fields in
            guard kind == "control" || kind == "gesture" else { return }
            events.append("\(kind) \(fields["layer"].map { "\($0)" } ?? "") \(fields["action"].map { "\($0)" } ?? "")")
        }
        let pay = try #require(scene.buttons["pay"])
        #expect(pay.title == "Pay" && pay.layer.position == Point(x: 100, y: 50))
        let bar = try #require(scene.layer(named: "bar"))
        #expect(bar.bounds.size == Size(width: 200, height: 10))
        func play(_ script: String) throws {
            runtime.addTouchSource(ScriptedTouchSource(script: try TouchScript(parsing: script), start: rig.clock.now))
            #expect(runtime.run(untilSettled: true) == .settled)
        }
        try play("at 0.1 tap 100,50")
        #expect(scene.currentState == "paid")
        try play("at 0.1 tap 300,50")
        #expect(scene.layer(named: "box")?.opacity == 1)                          // light = 1
        // The slider's track: 200 wide less the thumb, from x 100 + 16.
        let start = 100 + Slider.thumbDiameter / 2, length = 200 - Slider.thumbDiameter
        try play("at 0.1 tap \(Int(start + length * 0.8)),150")                    // 0.8 → 0.75 on a 0.25 step
        guard case .number(let level)? = scene.bindingValues["level"] else { Issue.record("no level"); return }
        #expect(level == 0.75)
        let fill = try #require(bar.sublayers.first?.sublayers.first)              // the bar's fill follows the binding
        #expect(fill.bounds.width == 150)
        try scene.setBinding("level", to: .number(0.5))                             // from the socket: the thumb follows
        let slider = try #require(scene.layer(named: "volume"))
        #expect(slider.sublayers.last.map { abs($0.position.x - (Slider.thumbDiameter / 2 + length * 0.5)) < 1e-9 } == true)
        #expect(events.contains("control \"pay\" \"tap\"") && events.contains("control \"lamp\" \"change\"")
                && events.contains("control \"volume\" \"change\""), "\(events)")
    }

    @Test("bindings stand inside lists: a point's or a rectangle's numbers follow number bindings (issue 30)")
    func bindingsInsideLists() throws {
        let yaml = """
            lamina: 1
            bindings:
              arrowY: {number: 40}
              width: {number: 60}
            layers:
              - {name: arrow, bounds: [0, 0, $width, 20], position: [300, $arrowY]}
            states:
              low:
                arrow: {position: [$width, 250]}
            """
        let (_, runtime, scene) = try start(yaml)
        let arrow = try #require(scene.layer(named: "arrow"))
        #expect(arrow.position == Point(x: 300, y: 40) && arrow.bounds.size == Size(width: 60, height: 20))
        try scene.setBinding("arrowY", to: .number(120))
        try scene.setBinding("width", to: .number(-5))                             // a bound size below 0 is none
        #expect(arrow.position == Point(x: 300, y: 120) && arrow.bounds.size == Size(width: 0, height: 20))
        scene.go(toState: "low")
        #expect(runtime.run(untilSettled: true) == .settled)
        #expect(arrow.position == Point(x: -5, y: 250))
        func error(_ body: String) -> String? {
            SceneFileFixture.error("lamina: 1\nbindings:\n  c: {colour: \"#FFF\"}\n  n: {number: 1}\nlayers:\n  - {\(body)}\n")
        }
        #expect(error("position: [1, $c]")?.contains("binding 'c' is not a number") == true)
        #expect(error("position: [1, $nope]")?.contains("no binding is named 'nope'") == true)
        #expect(error("position: [1, $n, 3]")?.contains("expected a point of 2 numbers, found 3") == true)
        #expect(error("bounds: [0, 0, -1, $n]")?.contains("width and height are not negative") == true)
        #expect(error("transform: [$n]") != nil)
    }

    @Test("a scene of controls, scroll views and layouts is freed with its runtime: nothing it made holds it")
    func freed() throws {
        weak var weakScene: FileScene?
        weak var weakRuntime: Runtime?
        weak var weakScroll: ScrollView?
        weak var weakViewport: Layer?
        weak var weakToggle: Layer?
        try {
            let yaml = """
                lamina: 1
                bindings:
                  light: {number: 0}
                layers:
                  - {name: pay, kind: button, title: Pay, position: [100, 50]}
                  - {name: lamp, kind: toggle, binding: light, position: [300, 50]}
                  - {name: volume, kind: slider, binding: light, bounds: [0, 0, 200, 48], position: [200, 150]}
                  - {name: bar, kind: progress, binding: light, position: [200, 220]}
                  - name: list
                    kind: scroll
                    bounds: [0, 0, 100, 40]
                    position: [50, 280]
                    sublayers: [{bounds: [0, 0, 100, 400]}, {kind: scroll}]
                    animations:
                      turn: {keyPath: transform.rotation.z, values: [0, 1, 2], duration: 0.5, repeat: 2}
                  - {kind: scroll, transform.rotation: 1}
                  - {name: panel, layout: {stack: vertical}, bounds: [0, 0, 50, 50], sublayers: [{layoutSize: {flexible: 1}}]}
                gestures:
                  - {tap: pay, goTo: done}
                states:
                  done: ~
                """
            let (rig, runtime, scene) = try start(yaml)
            runtime.addTouchSource(ScriptedTouchSource(script: try TouchScript(parsing: "at 0.1 tap 300,50\nat 0.5 tap 100,50"), start: rig.clock.now))
            #expect(runtime.run(untilSettled: true) == .settled)
            #expect(scene.currentState == "done")
            weakScene = scene
            weakRuntime = runtime
            weakScroll = scene.scrollViews["list"]
            weakViewport = scene.layer(named: "list")
            weakToggle = scene.layer(named: "lamp")
            #expect(weakScroll != nil && weakViewport != nil && weakToggle != nil)
        }()
        #expect(weakScene == nil && weakRuntime == nil)
        #expect(weakScroll == nil && weakViewport == nil && weakToggle == nil)
    }

    @Test("layout errors: one of stack or grid, layoutSize only under a layout, and its forms")
    func layoutErrors() {
        func layer(_ body: String) -> String { "lamina: 1\nlayers:\n  - {\(body)}\n" }
        #expect(SceneFileFixture.error(layer("layout: {spacing: 4}"))?.contains("a layout is a `stack: vertical`") == true)
        #expect(SceneFileFixture.error(layer("layout: {stack: diagonal}"))?.contains("'diagonal' is not one of vertical, horizontal") == true)
        #expect(SceneFileFixture.error(layer("layout: {grid: 0}"))?.contains("not a whole number in 1…64") == true)
        #expect(SceneFileFixture.error(layer("layout: {stack: vertical, padding: [1, 2, 3]}"))?.contains("[top, right, bottom, left]") == true)
        #expect(SceneFileFixture.error(layer("sublayers: [{layoutSize: 10}]"))?.contains("layoutSize is for the sublayers of a layer with a `layout:`") == true)
        #expect(SceneFileFixture.error(layer("layout: {stack: vertical}, sublayers: [{layoutSize: {flexible: 0}}]"))?.contains("outside") == true)
        #expect(SceneFileFixture.error(layer("layout: {stack: vertical}, sublayers: [{layoutSize: wide}]")) != nil)
    }

    @Test("a scroll layer's own keys are checked: sizes not negative, rates by name, and they belong to scroll alone")
    func checks() {
        func layer(_ body: String) -> String { "lamina: 1\nlayers:\n  - {\(body)}\n" }
        #expect(SceneFileFixture.error(layer("kind: scroll, contentSize: [-1, 10]"))?.contains("not negative") == true)
        #expect(SceneFileFixture.error(layer("kind: scroll, decelerationRate: 0.5"))?.contains("not normal or fast") == true)
        #expect(SceneFileFixture.error(layer("kind: shape, paging: true"))?.contains("it belongs to kind scroll") == true)
        #expect(SceneFileFixture.error(layer("kind: scroll, paging: maybe")) != nil)
        // A control draws its parts at its size, and its knob or thumb casts a shadow: both counted.
        #expect(SceneFileFixture.error(layer("kind: slider, bounds: [0, 0, 5000, 48]"))?.contains("width and height at most 4096") == true)
        #expect(SceneFileFixture.error(layer("kind: slider, bounds: [0, 0, $w, 48]")) != nil)
        #expect(SceneFileFixture.error(layer("kind: replicator, instanceCount: 9, sublayers: [{kind: toggle}]"))?.contains("with a shadow") == true)
        #expect(SceneFileFixture.error(layer("kind: replicator, instanceCount: 8, sublayers: [{kind: toggle}]")) == nil)
    }
}
