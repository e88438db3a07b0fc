import ArgumentParser
import Foundation
import Lamina
import LaminaDisplay
import LaminaInput
import LaminaScenes
import Logging

/// `lamina bench`: measures frame cost. Numbers come from here, never from tests.
struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure how long Lamina takes to draw a frame.",
        discussion: """
            elastic: the elastic field on a 1920x1080 dummy display, tapped repeatedly on a \
            virtual clock; every frame of the wobble is timed (drawing into the shadow buffer, \
            then copying into the scanout buffer and flipping). Build with -c release.
            """)

    @Argument(help: "What to measure: elastic.")
    var workload = "elastic"

    @Option(name: .long, help: "How many taps (each gives one full wobble).")
    var taps = 20

    @Option(name: .long, help: "Write the results as JSON to this file.")
    var json: String?

    func run() throws {
        guard workload == "elastic" else { throw ValidationError("unknown workload '\(workload)'; use elastic") }
        guard taps > 0 else { throw ValidationError("--taps must be positive") }
        var logger = Logger(label: "lamina-bench")
        logger.logLevel = .warning
        let clock = VirtualClock()
        let device = DummyKMSDevice(clock: clock)
        let display = try Display(device: device)
        defer { display.close() }
        let runtime = Runtime(display: display, clock: clock, background: LaminaConfig().background, logger: logger)
        runtime.timingClock = SystemClock()
        let field = ElasticField(runtime: runtime, settings: ElasticField.Settings())
        let centre = field.field.position
        let steps = (0..<taps).map { TouchScript.Step(time: 0.1 + Double($0) * 1.2, action: .tap(at: centre, hold: 0.08)) }
        runtime.addTouchSource(ScriptedTouchSource(script: TouchScript(steps: steps), start: clock.now))
        runtime.run(untilSettled: true)

        let raster = Stats(runtime.rasterTimes.dropFirst())
        let present = Stats(runtime.presentTimes.dropFirst())
        let budget = 1000 / display.refreshRate
        print("workload            frames   min ms  median ms  p95 ms  max ms")
        for (name, s) in [("elastic raster", raster), ("elastic present", present)] {
            print(String(format: "%-18@ %7d %8.3f %10.3f %7.3f %7.3f", name as NSString, s.count, s.min, s.median, s.p95, s.max))
        }
        print(String(format: "vblank budget %.2f ms; median raster uses %.1f %%; taps recognized: %d",
                     budget, raster.median / budget * 100, field.taps))
        if let json {
            let object: [String: Any] = [
                "workload": "elastic", "width": display.width, "height": display.height, "taps": field.taps,
                "raster_ms": raster.dictionary, "present_ms": present.dictionary, "vblank_ms": budget,
            ]
            let data = try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys])
            try data.write(to: URL(fileURLWithPath: json))
        }
    }
}

/// Min, median, p95 and max of a sample in milliseconds.
struct Stats {
    let count: Int
    let min: Double, median: Double, p95: Double, max: Double

    init<S: Sequence>(_ seconds: S) where S.Element == Double {
        let sorted = seconds.map { $0 * 1000 }.sorted()
        count = sorted.count
        func at(_ q: Double) -> Double { sorted.isEmpty ? .nan : sorted[Swift.min(sorted.count - 1, Int(q * Double(sorted.count)))] }
        min = sorted.first ?? .nan
        median = at(0.5)
        p95 = at(0.95)
        max = sorted.last ?? .nan
    }

    var dictionary: [String: Any] { ["count": count, "min": min, "median": median, "p95": p95, "max": max] }
}
