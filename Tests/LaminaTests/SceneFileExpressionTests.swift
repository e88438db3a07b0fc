import Foundation
import Lamina
@testable import LaminaSceneFiles
@testable import LaminaRuntime
import LaminaTestSupport
import Testing

/// Derived values in scene files (issue 30): `= expression` properties, numbers inside
/// lists and `{= expression}` text, checked when compiled and evaluated again when a binding
/// they read changes.
@Suite("Scene file expressions", .serialized)
struct SceneFileExpressionTests {
    static let bindings: [String: BindingValue] = [
        "free": .number(0), "used": .number(12), "load": .number(0.4567),
        "name": .string("Level 3"), "alarm": .color(try! Color(hex: "#EF4444")),
    ]

    private static func evaluate(_ source: String, _ values: [String: BindingValue] = bindings) throws -> SceneExpression.Value {
        try SceneExpression(source, bindings: bindings).evaluate { values[$0] }
    }

    @Test("arithmetic, precedence, comparisons, conditionals and functions give the values worked by hand",
          arguments: [
              ("1 + 2 * 3", SceneExpression.Value.number(7)),
              ("(1 + 2) * 3", .number(9)),
              ("-2 * -3 - 1", .number(5)),
              ("10 % 4 + 7 / 2", .number(5.5)),
              ("2 - 3 - 4", .number(-5)),                     // left to right
              ("$used / 4 + $free", .number(3)),
              ("1 / 0", .number(0)),                           // total: a division by zero is 0
              ("min(3, $used, 1.5)", .number(1.5)),
              ("max($free, -1)", .number(0)),
              ("abs(-2.5) + floor(1.7) + ceil(1.2)", .number(5.5)),
              ("round(2.346, 2)", .number(2.35)),
              ("round(2.5)", .number(3)),
              ("clamp(15, 0, 10) + clamp(-3, 0, 10)", .number(10)),
              ("mix(10, 20, 0.25)", .number(12.5)),
              ("mix(10, 20, 7)", .number(20)),                 // the fraction is kept to 0…1
              ("$free == 0", .boolean(true)),
              ("$used >= 12 && $used < 13", .boolean(true)),
              ("!($free == 0) || 1 > 2", .boolean(false)),
              ("$free == 0 ? 'full' : 'free'", .text("full")),
              ("$free > 0 ? 1 : $used > 10 ? 2 : 3", .number(2)),   // right-associative
              ("format($load * 100, 1) + ' %'", .text("45.7 %")),
              ("format(2, 0)", .text("2")),
              ("$name + ': ' + $used", .text("Level 3: 12")),
              ("$alarm == #EF4444", .boolean(true)),
              ("$free == 0 ? $alarm : #22C55E", .colour(try! Color(hex: "#EF4444"))),
              ("mix(#000000, #FFFFFF, 0.5)", .colour(Color(red: 0.5, green: 0.5, blue: 0.5))),
          ])
    func values(source: String, expected: SceneExpression.Value) throws {
        #expect(try Self.evaluate(source) == expected)
    }

    @Test("what an expression cannot be is refused with the character and the reason",
          arguments: [
              ("$nope + 1", "at character 1: no binding is named 'nope'"),
              ("$fre + 1", "(did you mean '$free'?)"),
              ("1 +", "at character 4: the expression ends where a value was expected"),
              ("'a' * 2", "'*' works on numbers, not text and number"),
              ("$free > 0 ? 1 : #FFF", "both sides of ':' give the same kind of value: number and colour"),
              ("$free ? 1 : 2", "a condition before '?' is true or false, not a number"),
              ("mx(1, 2)", "'mx' is not a function (did you mean 'max'?)"),
              ("format(1)", "format(…) takes a number and its decimal places (0…10)"),
              ("#12 == $alarm", "'#12' is not a colour"),
              ("$name < 'b'", "'<' compares numbers; text values compare with == and !="),
              ("1e9", "'1e9' is not a number within ±10⁷"),
              ("1 2", "unexpected '2'"),
              ("1 < 2 == true", "at character 7: unexpected '== true'"),       // comparisons do not chain
              ("'open", "text opened with ' is not closed"),
              (String(repeating: "(", count: 40) + "1" + String(repeating: ")", count: 40), "nested more than 32 deep"),
              (Array(repeating: "1", count: 300).joined(separator: " + "), "more than 256 operations"),
          ])
    func refusals(source: String, fragment: String) {
        do {
            _ = try SceneExpression(source, bindings: Self.bindings)
            Issue.record("accepted \(source)")
        } catch {
            #expect("at character \(error.offset): \(error.reason)".contains(fragment), "\(error.offset): \(error.reason)")
        }
    }

    @Test("whatever numbers the bindings hold, a number expression gives a finite number within ±10⁷")
    func totalOverHostileValues() throws {
        let source = "$a * $b * $a / ($b - $a) + $a % $b - round($b, 10) * 1e7"
        let expression = try SceneExpression(source, bindings: ["a": .number(0), "b": .number(0)])
        var numbers = SeededNumbers(state: 30)
        let extremes = [0, 1e7, -1e7, 1e-300, -0.0, 3, 1e7 - 1]
        for _ in 0..<2000 {
            let a = numbers.pick(2) == 0 ? extremes[numbers.pick(extremes.count)] : numbers.next(-1e7, 1e7)
            let b = numbers.pick(2) == 0 ? extremes[numbers.pick(extremes.count)] : numbers.next(-1e7, 1e7)
            let v = expression.number { $0 == "a" ? .number(a) : .number(b) }
            #expect(v.isFinite && abs(v) <= 1e7, "a \(a), b \(b): \(v)")
        }
    }

    static let board = """
        lamina: 1
        bindings:
          free: {number: 3}
          levels: {number: 4}
          load: {number: 0.5}
        layers:
          - name: badge
            bounds: [0, 0, 200, 40]
            position: [100, "= 20 + $levels * 40"]
            backgroundColor: "= $free == 0 ? #EF4444 : mix(#22C55E, #F59E0B, $load)"
            hidden: "= $levels < 1"
            opacity: "= clamp($free / 3, 0.2, 1)"
          - name: label
            kind: text
            string: "{= $free == 0 ? 'Full' : format($free, 0) + ' free'} ({= format($load * 100, 1)} %)"
            fontSize: 20
            bounds: [0, 0, 300, 30]
            position: [150, 15]
        states:
          wide:
            badge: {bounds: [0, 0, "= 100 + $free * 10", 40]}
        """

    @Test("a file's expressions set properties, list numbers and text, and follow every binding they read")
    func followsBindings() throws {
        let rig = try DummyDisplayRig(width: 400, height: 300, refresh: 60, start: 0)
        let runtime = rig.makeRuntime()
        let scene = try runtime.install(FileScene.self, settings: FileScene.Settings(document: try SceneFileFixture.compile(Self.board)))
        let badge = try #require(scene.layer(named: "badge"))
        let label = try #require(scene.layer(named: "label") as? TextLayer)
        let amber = try Color(hex: "#F59E0B"), green = try Color(hex: "#22C55E")
        let half = Color(red: (green.red + amber.red) / 2, green: (green.green + amber.green) / 2, blue: (green.blue + amber.blue) / 2)
        #expect(badge.position == Point(x: 100, y: 180))
        #expect(badge.backgroundColor == half)
        #expect(!badge.isHidden && badge.opacity == 1)
        #expect(label.string == "3 free (50.0 %)")
        try scene.setBinding("free", to: .number(0))
        try scene.setBinding("levels", to: .number(0))
        #expect(badge.position == Point(x: 100, y: 20))
        #expect(badge.backgroundColor == (try Color(hex: "#EF4444")))
        #expect(badge.isHidden && abs(badge.opacity - 0.2) < 1e-12)
        #expect(label.string == "Full (50.0 %)")
        try scene.setBinding("load", to: .number(0.123))
        #expect(label.string == "Full (12.3 %)")
        try scene.setBinding("free", to: .number(5))
        scene.go(toState: "wide")
        #expect(badge.bounds == Rect(x: 0, y: 0, width: 150, height: 40))
    }

    @Test("a template given a binding's name writes it into its expressions and text with {parameter} (the docs' example)")
    func templatePassesBindingName() throws {
        let yaml = """
            lamina: 1
            bindings: {level1: {number: 0}, level2: {number: 4}}
            templates:
              level:
                parameters: {count: ~}
                layer:
                  backgroundColor: "= ${count} == 0 ? #EF4444 : #22C55E"
                  sublayers:
                    - {name: caption, kind: text, string: "{= ${count}} free"}
            layers:
              - {use: level, name: one, with: {count: level1}}
              - {use: level, name: two, with: {count: level2}}
            """
        let rig = try DummyDisplayRig(width: 100, height: 100, refresh: 60, start: 0)
        let runtime = rig.makeRuntime()
        let scene = try runtime.install(FileScene.self, settings: FileScene.Settings(document: try SceneFileFixture.compile(yaml)))
        #expect(scene.layer(named: "one")?.backgroundColor == (try Color(hex: "#EF4444")))
        #expect(scene.layer(named: "two")?.backgroundColor == (try Color(hex: "#22C55E")))
        #expect((scene.layer(named: "two.caption") as? TextLayer)?.string == "4 free")
        try scene.setBinding("level2", to: .number(0))
        #expect(scene.layer(named: "two")?.backgroundColor == (try Color(hex: "#EF4444")))
        #expect((scene.layer(named: "two.caption") as? TextLayer)?.string == "0 free")
    }

    @Test("screenWidth, screenHeight and keyboardHeight are bindings Lamina sets: a quarter turn lays the file out for the new size, the keyboard coming up lifts what reads it")
    func builtInBindings() throws {
        let yaml = """
            lamina: 1
            layers:
              - name: bar
                bounds: [0, 0, "= $screenWidth - 40", 60]
                position: ["= $screenWidth / 2", "= $screenHeight - 30 - $keyboardHeight"]
              - {name: size, kind: text, string: "{screenWidth}×{screenHeight}", bounds: [0, 0, 200, 30], position: [100, 15]}
            """
        let rig = try DummyDisplayRig(width: 800, height: 600, refresh: 60, start: 0)
        let runtime = rig.makeRuntime()
        let scene = try runtime.install(FileScene.self, settings: FileScene.Settings(document: try SceneFileFixture.compile(yaml)))
        let bar = try #require(scene.layer(named: "bar"))
        #expect(bar.bounds.width == 760 && bar.position == Point(x: 400, y: 570))
        #expect(runtime.run(untilSettled: true) == .settled)                   // shown once: changes animate
        scene.context.keyboardMoved(to: Rect(x: 0, y: 350, width: 800, height: 250))
        #expect(bar.position == Point(x: 400, y: 320))
        runtime.run(exitAfter: rig.display.frameDuration * 3, untilSettled: false)
        guard case .point(let shown)? = bar.presentationValue(forKeyPath: "position", at: rig.clock.now) else {
            Issue.record("no position")
            return
        }
        let lifting = shown.y
        #expect(lifting < 570 && lifting > 320, "the lift is animated: \(lifting)")
        scene.context.keyboardMoved(to: nil)
        #expect(bar.position == Point(x: 400, y: 570))
        runtime.rotation = 90
        #expect(bar.bounds.width == 560 && bar.position == Point(x: 300, y: 770))
        #expect((scene.layer(named: "size") as? TextLayer)?.string == "600×800")
        #expect(throws: ConfigError.self) { try scene.setBinding("screenWidth", to: .number(5)) }
        let declared = SceneFileFixture.error("lamina: 1\nbindings: {keyboardHeight: {number: 0}}\n") ?? "accepted"
        #expect(declared.contains("'keyboardHeight' is set by Lamina"), "\(declared)")
    }

    @Test("an expression of the wrong kind for its property, or where a list is needed, names the position",
          arguments: [
              ("opacity: \"= #FFFFFF\"", "scene.yaml:5:14: layers[0](box).opacity: the expression gives a colour; this needs a number"),
              ("backgroundColor: \"= 1 + $n\"", "layers[0](box).backgroundColor: the expression gives a number; this needs a colour"),
              ("hidden: \"= $n\"", "the expression gives a number; this needs a boolean"),
              ("position: \"= $n\"", "an expression gives a number, a colour, or true or false; for a point write a list"),
              ("position: [1, \"= $m\"]", "layers[0](box).position[1]: expression, at character 2: no binding is named 'm'"),
          ])
    func wrongKinds(property: String, fragment: String) {
        let yaml = """
            lamina: 1
            bindings: {n: {number: 1}}
            layers:
              - name: box
                \(property)
                bounds: [0, 0, 10, 10]
            """
        let message = SceneFileFixture.error(yaml) ?? "accepted"
        #expect(message.contains(fragment), "\(message)")
    }

    @Test("text an expression shows counts against the scene's text budget with the values being set")
    func textBudget() throws {
        let yaml = """
            lamina: 1
            bindings: {s: {string: ""}}
            layers:
              - {kind: replicator, instanceCount: 256, sublayers: [{kind: text, string: "{= $s + $s}", bounds: [0, 0, 10, 10]}]}
            """
        let rig = try DummyDisplayRig(width: 100, height: 100, refresh: 60, start: 0)
        let runtime = rig.makeRuntime()
        let scene = try runtime.install(FileScene.self, settings: FileScene.Settings(document: try SceneFileFixture.compile(yaml)))
        try scene.setBinding("s", to: .string(String(repeating: "x", count: 128)))       // 256 × 256 bytes: the limit
        #expect(throws: ConfigError.self) { try scene.setBinding("s", to: .string(String(repeating: "x", count: 129))) }
    }
}
