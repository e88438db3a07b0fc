import ArgumentParser
import FoundationEssentials
import Lamina
import LaminaBenchmarks
import LaminaDisplay
import LaminaInput
import LaminaSystem
import Logging

extension BenchCommand {
    /// A full-screen list of `rows` rows (80 px, two labels each) on a 1920x1080 dummy
    /// display, flicked up and down every 1.5 s for `--seconds` after a warm-up of two
    /// flicks: each frame's cost, the row layers alive, and the C heap before and after (a
    /// list that reuses its rows does not grow while it scrolls).
    func runList() throws {
        guard seconds > 0, seconds <= 3600 else { throw ValidationError("--seconds must be more than 0 and at most 3600") }
        guard (1...ListView.maximumRows).contains(rows) else { throw ValidationError("--rows must be 1…\(ListView.maximumRows)") }
        let (runtime, display, clock) = try dummyRuntime()
        defer { display.close() }
        let rows = self.rows
        let scene = try runtime.install(BenchList.self, settings: BenchList.Settings(rows: rows))

        // Flicks alternating up and down, 1.5 s apart, over the list's middle.
        func flicks(_ count: Int) -> TouchScript {
            TouchScript(steps: (0..<count).map { i in
                let (from, to) = i % 4 < 2 ? (900.0, 200.0) : (200.0, 900.0)
                return TouchScript.Step(time: 0.1 + Double(i) * 1.5,
                                        action: .drag(through: [Point(x: 960, y: from), Point(x: 960, y: to)], duration: 0.08))
            })
        }
        runtime.addTouchSource(ScriptedTouchSource(script: flicks(2), start: clock.now))
        runtime.run(exitAfter: 3, untilSettled: false)                   // warm-up: glyphs cached, rows made
        var costs: [FrameCost] = []
        costs.reserveCapacity(Int(seconds * 240) + 64)                  // the measurement's own array never grows
        runtime.onFrameCost = { costs.append($0) }
        runtime.addTouchSource(ScriptedTouchSource(script: flicks(Int(seconds / 1.5) + 1), start: clock.now))
        let heapBefore = ProcessResources.current().heapBytes            // the script's steps made before
        let startCPU = ProcessCPUTime.seconds, startTime = clock.now
        runtime.run(exitAfter: seconds, untilSettled: false)
        let cpu = ProcessCPUTime.seconds - startCPU, elapsed = clock.now - startTime
        let heapAfter = ProcessResources.current().heapBytes

        let total = Stats(costs.map(\.total)), outside = Stats(costs.map(\.outsideRaster))
        print("list of \(rows) rows, flicked every 1.5 s: \(costs.count) frames in " + String(cFormat: "%.1f", elapsed)
              + " s (\(self.clock) clock), 1920x1080 at 60 Hz")
        print(String(cFormat: "frame total ms: median %.3f, p95 %.3f, max %.3f; outside raster median %.3f",
                     total.median, total.p95, total.max, outside.median))
        print(String(cFormat: "CPU while flicking: %.1f %% of a core", cpu / elapsed * 100))
        print("row layers made: \(scene.list.rowLayers.count) (a screen holds \(Int((1080 / BenchList.rowHeight).rounded(.up))))"
              + "; scrolled to row \(scene.list.visibleRows.lowerBound)")
        print("C heap in use: \(heapBefore) bytes after the warm-up, \(heapAfter) after (\(heapAfter - heapBefore) bytes)")
        if let json {
            let object: [String: Any] = ["workload": "list", "rows": rows, "clock": self.clock, "seconds": elapsed,
                                         "frames": costs.count, "frame_ms": total.dictionary, "outside_raster_ms": outside.dictionary,
                                         "cpu_percent": cpu / elapsed * 100, "row_layers": scene.list.rowLayers.count,
                                         "heap_growth_bytes": heapAfter - heapBefore]
            try Data(JSONDocument.encode(object)).write(to: URL(fileURLWithPath: json))
        }
    }
}

/// The benchmark's list: a full-screen `ListView` whose rows show an order and its total.
final class BenchList: Scene, ListDataSource {
    static let name = "bench-list"
    static let rowHeight = 80.0

    struct Settings: SceneSettings {
        var rows = 10_000
        init(rows: Int) { self.rows = rows }
        init(from table: SettingsTable) throws(ConfigError) {}
    }

    let list: ListView
    let rows: Int

    init(context: SceneContext, settings: Settings) {
        rows = settings.rows
        list = ListView(context: context, size: context.screenSize, rowHeight: Self.rowHeight)
        list.layer.position = context.center
        context.rootLayer.addSublayer(list.layer)
        list.dataSource = self
        list.reloadData()
    }

    func numberOfRows(in list: ListView) -> Int { rows }

    func makeRow(for list: ListView, size: Size) -> Layer {
        let row = Layer()
        for (x, alignment) in [(40.0, TextLayer.Alignment.left), (size.width - 440, .right)] {
            let label = TextLayer()
            label.fontSize = 32
            label.alignmentMode = alignment
            label.foregroundColor = Color(red8: 0xF3, green8: 0xF4, blue8: 0xF6)
            label.anchorPoint = .zero
            label.bounds = Rect(x: 0, y: 0, width: 400, height: 44)
            label.position = Point(x: x, y: (size.height - 44) / 2)
            row.addSublayer(label)
        }
        return row
    }

    func list(_ list: ListView, configure row: Layer, at index: Int) {
        row.backgroundColor = index % 2 == 0 ? Color(red8: 0x1C, green8: 0x22, blue8: 0x30) : Color(red8: 0x15, green8: 0x1A, blue8: 0x24)
        (row.sublayers[0] as? TextLayer)?.string = "Order #\(100_000 + index)"
        (row.sublayers[1] as? TextLayer)?.string = "\(index % 97 + 3).\(index % 10)0 €"
    }
}
