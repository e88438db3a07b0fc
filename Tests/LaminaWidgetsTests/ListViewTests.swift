import LaminaDisplay
import LaminaGeometry
import LaminaInput
import LaminaLayers
import LaminaRuntime
import LaminaTestSupport
import LaminaWidgets
import Testing

/// 10,000 rows 50 px tall in a 400x300 list centred on a 640x480 screen (its top left at
/// (120, 90)).
final class ListScene: Scene, ListDataSource {
    static let name = "list"
    let list: ListView
    var rows = 10_000
    /// Which row each row layer shows, by the layer.
    var shown: [ObjectIdentifier: Int] = [:]
    var made = 0
    var selected: [Int] = []

    init(context: SceneContext, settings: NoSettings) {
        list = ListView(context: context, size: Size(width: 400, height: 300), rowHeight: 50)
        list.layer.position = Point(x: 320, y: 240)
        context.rootLayer.addSublayer(list.layer)
        list.dataSource = self
        list.onSelect = { [unowned self] _, row in self.selected.append(row) }
        list.reloadData()
    }

    func numberOfRows(in list: ListView) -> Int { rows }

    func makeRow(for list: ListView, size: Size) -> Layer {
        made += 1
        let row = Layer()
        let label = TextLayer()
        label.fontSize = 20
        label.bounds = Rect(x: 0, y: 0, width: size.width - 20, height: 30)
        label.position = Point(x: size.width / 2, y: size.height / 2)
        row.addSublayer(label)
        return row
    }

    func list(_ list: ListView, configure row: Layer, at index: Int) {
        (row.sublayers.first as? TextLayer)?.string = "Row \(index)"
        row.backgroundColor = index % 2 == 0 ? Color(red8: 0x22, green8: 0x22, blue8: 0x22) : Color(red8: 0x33, green8: 0x33, blue8: 0x33)
        shown[ObjectIdentifier(row)] = index
    }

    /// True when every visible row is shown by exactly one unhidden layer at its place.
    func rowsAreRight() -> Bool {
        let visible = list.visibleRows
        var covered: Set<Int> = []
        for layer in list.rowLayers where !layer.isHidden {
            guard let index = shown[ObjectIdentifier(layer)], layer.position.y == Double(index) * 50,
                  (layer.sublayers.first as? TextLayer)?.string == "Row \(index)" else { return false }
            covered.insert(index)
        }
        return visible.allSatisfy { covered.contains($0) }
    }
}

@Suite("Lists that reuse their rows", .serialized)
struct ListViewTests {
    private func makeScene() throws -> (DummyDisplayRig, Runtime, ListScene) {
        let rig = try DummyDisplayRig(width: 640, height: 480, refresh: 60, start: 0)
        let runtime = rig.makeRuntime()
        let scene = try runtime.install(ListScene.self, settings: NoSettings())
        #expect(runtime.run(untilSettled: true) == .settled)
        return (rig, runtime, scene)
    }

    @Test("10,000 rows: layers only for the rows on screen, each at its place showing its row")
    func onlyVisibleRows() throws {
        let (_, _, scene) = try makeScene()
        #expect(scene.list.scrollView.contentSize.height == 500_000)
        #expect(scene.list.visibleRows == 0..<6)
        #expect(scene.made == 6 && scene.rowsAreRight())
        scene.list.scrollView.contentOffset = Point(x: 0, y: 250_025)       // row 5000, half a row in
        #expect(scene.list.visibleRows == 5_000..<5_007)
        #expect(scene.made == 7 && scene.rowsAreRight())
    }

    @Test("flicked again and again, the list never makes more than a screen of rows and a row more, and shows the right ones")
    func flicksReuse() throws {
        let (rig, runtime, scene) = try makeScene()
        for _ in 0..<4 {
            runtime.addTouchSource(ScriptedTouchSource(script: try TouchScript(parsing: "at 0.1 drag 320,380 320,100 over 0.1"), start: rig.clock.now))
            for _ in 0..<40 {
                runtime.run(exitAfter: 1.0 / 30, untilSettled: false)
                #expect(scene.rowsAreRight())
            }
        }
        #expect(runtime.run(untilSettled: true) == .settled)
        #expect(scene.list.scrollView.contentOffset.y > 2_000)
        #expect(scene.made <= 7 && scene.list.rowLayers.count == scene.made)
    }

    @Test("a tap selects the row under it; a tap that stops a moving list selects nothing")
    func selection() throws {
        let (rig, runtime, scene) = try makeScene()
        scene.list.scrollView.contentOffset = Point(x: 0, y: 1_000)          // row 20 at the top
        runtime.addTouchSource(ScriptedTouchSource(script: try TouchScript(parsing: "at 0.1 tap 320,215"), start: rig.clock.now))
        #expect(runtime.run(untilSettled: true) == .settled)
        #expect(scene.selected == [22])                                      // 125 px down: row 20 + 2
        let script = "at 0.1 drag 320,380 320,100 over 0.1\nat 0.4 tap 320,215"
        runtime.addTouchSource(ScriptedTouchSource(script: try TouchScript(parsing: script), start: rig.clock.now))
        #expect(runtime.run(untilSettled: true) == .settled)
        #expect(scene.selected == [22])
    }

    @Test("reloading picks up a new row count: fewer rows shrink the content and hide the layers left over")
    func reload() throws {
        let (_, runtime, scene) = try makeScene()
        scene.rows = 3
        scene.list.reloadData()
        #expect(scene.list.scrollView.contentSize.height == 150 && scene.list.visibleRows == 0..<3)
        #expect(scene.list.rowLayers.filter { !$0.isHidden }.count == 3 && scene.rowsAreRight())
        #expect(runtime.run(untilSettled: true) == .settled)
    }
}
