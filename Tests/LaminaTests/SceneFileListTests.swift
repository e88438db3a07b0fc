import Foundation
import Lamina
@testable import LaminaSceneFiles
@testable import LaminaRuntime
import LaminaTestSupport
import Testing

/// List layers in scene files (issue 30): a list binding's items shown as rows built from a
/// template, only the rows on screen, the items set over the control socket.
@Suite("Scene file lists", .serialized)
struct SceneFileListTests {
    static let orders = """
        lamina: 1
        bindings:
          currency: {string: "€"}
          orders:
            list:
              - {title: "Order 1", total: 12.5, tint: "#22C55E"}
              - {title: "Order 2", total: 3}
              - {title: "Order 3", total: 0, tint: "#EF4444"}
        templates:
          order:
            parameters: {title: "", total: 0, tint: "#1C2230"}
            layer:
              bounds: [0, 0, 10, 10]
              position: [999, 999]
              backgroundColor: $tint
              opacity: "= $total == 0 ? 0.5 : 1"
              sublayers:
                - {kind: text, string: "{title}", fontSize: 20, bounds: [0, 0, 200, 30], position: [100, 25]}
                - {kind: text, string: "{= format($total, 2)} {currency}", fontSize: 20, bounds: [0, 0, 100, 30], position: [250, 25]}
        layers:
          - name: recent
            kind: list
            bounds: [0, 0, 300, 200]
            position: [150, 100]
            items: $orders
            row: order
            rowHeight: 50
        """

    private func start(_ yaml: String = Self.orders) throws -> (DummyDisplayRig, Runtime, FileScene) {
        let rig = try DummyDisplayRig(width: 400, height: 300, refresh: 60, start: 0)
        let runtime = rig.makeRuntime()
        let scene = try runtime.install(FileScene.self, settings: FileScene.Settings(document: try SceneFileFixture.compile(yaml)))
        #expect(runtime.run(untilSettled: true) == .settled)
        return (rig, runtime, scene)
    }

    /// The texts each shown row shows, top to bottom.
    private func shown(_ list: ListView) -> [[String]] {
        list.rowLayers.filter { !$0.isHidden }.sorted { $0.position.y < $1.position.y }.map { row in
            row.sublayers.compactMap { ($0 as? TextLayer)?.string }
        }
    }

    @Test("a list layer shows its binding's items through its row template: fields as bindings, defaults for missing ones, the scene's bindings too")
    func showsItems() throws {
        let (_, _, scene) = try start()
        let list = try #require(scene.lists["recent"])
        #expect(list.rowCount == 3 && list.rowHeight == 50 && list.layer.bounds.size == Size(width: 300, height: 200))
        #expect(shown(list) == [["Order 1", "12.50 €"], ["Order 2", "3.00 €"], ["Order 3", "0.00 €"]])
        let rows = list.rowLayers.sorted { $0.position.y < $1.position.y }
        #expect(rows.map(\.backgroundColor) == [try Color(hex: "#22C55E"), try Color(hex: "#1C2230"), try Color(hex: "#EF4444")])
        #expect(rows.map(\.opacity) == [1, 1, 0.5])
        // The list places each row: the template's own frame is not used.
        #expect(rows.map(\.position) == [Point(x: 0, y: 0), Point(x: 0, y: 50), Point(x: 0, y: 100)])
        #expect(rows.allSatisfy { $0.bounds.size == Size(width: 300, height: 50) })
        try scene.setBinding("currency", to: .string("$"))
        #expect(shown(list)[0] == ["Order 1", "12.50 $"])
    }

    @Test("10,000 items set at run time: only the rows on screen are built, and scrolled far down they show the items there")
    func manyItems() throws {
        let (rig, runtime, scene) = try start()
        let list = try #require(scene.lists["recent"])
        let items: [[String: BindingValue]] = (0..<10_000).map { ["title": .string("Order \($0)"), "total": .number(Double($0))] }
        try scene.setBinding("orders", to: .list(items))
        #expect(list.rowCount == 10_000 && list.scrollView.contentSize.height == 500_000)
        list.scrollView.setContentOffset(Point(x: 0, y: 250_000), animated: false)
        runtime.run(exitAfter: rig.display.frameDuration * 2, untilSettled: false)
        #expect(shown(list).map { $0[0] } == (5000..<5004).map { "Order \($0)" })
        #expect(list.rowLayers.count <= 6, "\(list.rowLayers.count) row layers")    // 200 / 50 on screen, one cut at each edge
        let rows = list.rowLayers.filter { !$0.isHidden }.sorted { $0.position.y < $1.position.y }
        #expect(rows.first?.opacity == 1)
    }

    @Test("a tap on a row publishes a select event with its index")
    func select() throws {
        let (rig, runtime, _) = try start()
        var events: [[String: ControlValue]] = []
        runtime.onPublish = { kind, fields in if kind == "control" { events.append(fields) } }
        runtime.addTouchSource(ScriptedTouchSource(script: try TouchScript(parsing: "at 0.05 tap 100,75"), start: rig.clock.now))
        #expect(runtime.run(untilSettled: true) == .settled)
        #expect(events == [["layer": .string("recent"), "action": .string("select"), "value": .number(1)]])
    }

    @Test("items that do not fit the row are refused at run time with the item and field named, and the list stays")
    func refusals() throws {
        let (_, _, scene) = try start()
        #expect(throws: ConfigError.self) { try scene.setBinding("orders", to: .list([["title": .number(3)]])) }
        do {
            try scene.setBinding("orders", to: .list([["title": .string("a")], ["price": .number(1)]]))
            Issue.record("accepted a field the row has no parameter for")
        } catch {
            #expect(error.reason.contains("item 1 has a field 'price' that row template 'order' has no parameter for"), "\(error.reason)")
        }
        do {
            try scene.setBinding("orders", to: .list([["tint": .string("#12")]]))
            Issue.record("accepted a bad colour")
        } catch {
            #expect(error.reason.contains("item 0.tint: '#12' is not a colour"), "\(error.reason)")
        }
        try scene.setBinding("orders", to: .list([["tint": .string("#0000FF")]]))       // a colour field takes "#RRGGBB"
        #expect(scene.lists["recent"]?.rowLayers.first { !$0.isHidden }?.backgroundColor == (try Color(hex: "#0000FF")))
        #expect(scene.lists["recent"]?.rowCount == 1)
    }

    @Test("list layers and list bindings are checked when compiled",
          arguments: [
              ("items: $currency", "binding 'currency' is not a list"),
              ("items: orders", "a list's items are a list binding: `items: $orders`"),
              ("row: nothing", "no template is named 'nothing'"),
              ("rowHeight: 2", "2 is outside 8…4096"),
          ])
    func compileChecks(change: String, fragment: String) {
        let key = String(change.prefix { $0 != ":" })
        let yaml = Self.orders.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.trimmingCharacters(in: .whitespaces).hasPrefix(key + ":") ? "    " + change : String(line)
        }.joined(separator: "\n")
        let message = SceneFileFixture.error(yaml) ?? "accepted"
        #expect(message.contains(fragment), "\(message)")
    }

    @Test("a row template's parameters need defaults, its items fit it, and it holds plain layers",
          arguments: [
              ("{title: ~}", "{title: a}", "{kind: text, string: \"{title}\", bounds: [0, 0, 9, 9]}",
               "a list row's parameters have defaults"),
              ("{total: 0}", "{total: lots}", "{kind: layer, opacity: $total}",
               "bindings.items: item 0.total is a string; the row's parameter is a number"),
              ("{total: 0}", "{total: 1}", "{kind: toggle}", "a list's row holds plain layers, not a toggle"),
              ("{total: 0}", "{total: 1}", "{kind: layer, animations: {spin: {keyPath: opacity, from: 0, to: 1}}}",
               "a list's row has no animations of its own"),
          ])
    func rowChecks(parameters: String, item: String, sublayer: String, fragment: String) {
        let yaml = """
            lamina: 1
            bindings:
              items: {list: [\(item)]}
            templates:
              row:
                parameters: \(parameters)
                layer:
                  sublayers: [\(sublayer)]
            layers:
              - {kind: list, bounds: [0, 0, 100, 100], items: $items, row: row}
            """
        let message = SceneFileFixture.error(yaml) ?? "accepted"
        #expect(message.contains(fragment), "\(message)")
    }

    @Test("a textbox layer is a text box whose text is its string binding both ways: typing sets it (and what shows it), setting it fills the box; Return publishes commit")
    func textBox() throws {
        let yaml = """
            lamina: 1
            bindings: {name: {string: "Ada"}}
            layers:
              - {name: who, kind: textbox, bounds: [0, 0, 300, 64], position: [200, 100], placeholder: Your name, maxLength: 8, binding: name}
              - {name: greeting, kind: text, string: "Hello {name}", bounds: [0, 0, 300, 40], position: [200, 200]}
            """
        let (_, runtime, scene) = try start(yaml)
        let box = try #require(scene.controls.compactMap { $0 as? TextBox }.first)
        #expect(box.layer === scene.layer(named: "who") && box.layer.bounds.width == 300)
        #expect(box.field.text == "Ada")
        var events: [[String: ControlValue]] = []
        runtime.onPublish = { kind, fields in if kind == "control" { events.append(fields) } }
        box.field.focus()
        box.field.apply(.insert("!"))
        #expect(scene.bindingValues["name"] == .string("Ada!"))
        #expect((scene.layer(named: "greeting") as? TextLayer)?.string == "Hello Ada!")
        box.field.apply(.insert("123456789"))                       // maxLength: 8 characters
        #expect(box.field.text.count <= 8)
        box.field.apply(.commit)
        #expect(events == [["layer": .string("who"), "action": .string("commit"), "value": .string(box.field.text)]])
        try scene.setBinding("name", to: .string("Grace"))
        #expect(box.field.text == "Grace")
        let refused = SceneFileFixture.error(yaml.replacingOccurrences(of: "{name: {string: \"Ada\"}}", with: "{name: {number: 1}}")) ?? "accepted"
        #expect(refused.contains("binding 'name' is not a string: a text box's binding is its text"), "\(refused)")
    }

    @Test("over the control socket: set-binding takes a JSON list of objects, get-bindings gives it back, and bad lists are refused")
    func controlSocket() throws {
        let rig = try ControlSocketTests.Rig(scene: Self.orders)
        let client = try rig.connect()
        let ask = { (request: String) in ControlSocketTests.ask(rig, client, request) }
        #expect(ask(##"{"command": "set-binding", "name": "orders", "value": [{"title": "Tea", "total": 2.5, "tint": "#0000FF"}]}"##)["ok"] == .bool(true))
        let list = try #require((rig.runtime.scene as? FileScene)?.lists["recent"])
        #expect(shown(list) == [["Tea", "2.50 €"]])
        let bindings = ask(##"{"command": "get-bindings"}"##)["bindings"]?.object
        #expect(bindings?["orders"] == .array([.object(["title": .string("Tea"), "total": .number(2.5), "tint": .string("#0000FF")])]))
        func error(_ request: String) -> String { ask(request)["error"]?.string ?? "(no error)" }
        #expect(error(##"{"command": "set-binding", "name": "orders", "value": [1]}"##) == "orders[0] is not an object of fields")
        #expect(error(##"{"command": "set-binding", "name": "orders", "value": [{"title": [1]}]}"##).hasPrefix("orders[0].title is a number within ±10⁷ or text"))
        #expect(error(##"{"command": "set-binding", "name": "orders", "value": [{"title": 1}]}"##).contains("item 0.title is a number; the row's parameter is a string"))
        #expect(error(##"{"command": "set-binding", "name": "orders", "value": "Tea"}"##) == "'orders' is a list binding: `value` must be a list of objects")
        #expect(shown(list) == [["Tea", "2.50 €"]])
    }
}
