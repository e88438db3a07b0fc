import ArgumentParser
#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import LaminaGeometry
import LaminaAnimation
import LaminaLayers
import Lamina
import LaminaBenchmarks
import LaminaDisplay
import LaminaRaster
import LaminaInput
import LaminaScenes
import Logging

/// `lamina bench`: measures frame cost. Numbers come from here, never from tests.
struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure how long Lamina takes to draw a frame.",
        discussion: """
            --workloads FILE: the rasterizer workloads of ../shared/bench (raster-bench-workloads/1), \
            each frame cleared and drawn single-threaded as the peers do; after 3 warm-up frames \
            every frame is timed; one row per workload with min and median ms. \
            elastic: the elastic field on a 1920x1080 dummy display, tapped repeatedly on a \
            virtual clock; every frame of the wobble is timed (drawing into the shadow buffer, \
            then copying into the scanout buffer and flipping). animations: 10,000 animations \
            (basic with every curve, repeating and autoreversing, and springs) on 1,000 layers, \
            the commit and presentation update of each frame timed. scene NAME|FILE.yaml: a \
            built-in scene or a scene file on a 1920x1080 dummy display for --seconds after a \
            second of warm-up: CPU per animated second (percent of a core) and each frame's cost \
            step by step (commit, presentation, display list, paint, present), and the screen's \
            share a frame redraws and copies to scanout. list: a full-screen \
            list of --rows rows (10,000 by default) flicked up and down every 1.5 s for --seconds: \
            frame cost, CPU, row layers alive and the C heap's growth. Build with -c release.
            """)

    @Argument(help: "elastic, animations, scene or list, or nothing with --workloads.")
    var what: String?

    @Argument(help: "With scene: a built-in scene's name or a scene file.")
    var scene: String?

    @Option(name: .long, help: "scene, list: seconds measured after the warm-up.")
    var seconds = 10.0

    @Option(name: .long, help: "scene, list: realtime (the daemon's pacing, the default) or virtual (as fast as it draws).")
    var clock = "realtime"

    @Flag(name: .long, help: "scene: give the dummy display an overlay plane like vkms's (XRGB8888, no scaling), so video can go on it.")
    var overlayPlane = false

    @Flag(name: .long, help: "scene: unmute the scene's videos into a tap timed by the clock, and report when each sound buffer plays against the vblank its frame is shown at (real time).")
    var soundTap = false

    @Option(name: .long, help: "A raster-bench-workloads/1 JSON file.")
    var workloads: String?

    @Option(name: .long, help: "Comma-separated workload ids (default: all).")
    var only: String?

    @Option(name: .long, help: "Timed frames per workload.")
    var frames = 20

    @Option(name: .long, help: "Write each workload's last frame as <id>_<name>.png into this directory.")
    var dump: String?

    @Option(name: .long, help: "Render each workload frame in this many horizontal bands at once.")
    var threads = 1

    @Option(name: .long, help: "list: how many rows.")
    var rows = 10_000

    @Option(name: .long, help: "How many taps (elastic; each gives one full wobble).")
    var taps = 20

    @Option(name: .long, help: "Write the results as JSON to this file.")
    var json: String?

    @Option(name: .long, help: "Which pixel kernels draw: scalar, avx2 or avx512 (the best the CPU has, the default); the same as LAMINA_KERNELS.")
    var kernels: String?

    func run() throws {
        if let kernels {
            guard ["scalar", "avx2", "avx512"].contains(kernels) else {
                throw ValidationError("--kernels must be scalar, avx2 or avx512, not '\(kernels)'")
            }
            // Read once, at the first draw: set before anything is drawn.
            setenv("LAMINA_KERNELS", kernels, 1)
        }
        if let workloads {
            guard what == nil else { throw ValidationError("give either --workloads or 'elastic'") }
            return try runWorkloads(workloads)
        }
        if what == "animations" { return try runAnimations() }
        if what == "list" {
            guard ["realtime", "virtual"].contains(clock) else { throw ValidationError("--clock must be realtime or virtual") }
            return try runList()
        }
        if what == "scene" {
            guard let scene else { throw ValidationError("say which scene: lamina bench scene NAME|FILE.yaml") }
            guard ["realtime", "virtual"].contains(clock) else { throw ValidationError("--clock must be realtime or virtual") }
            return try soundTap ? runSoundTap(scene) : runScene(scene)
        }
        guard what == "elastic" else {
            throw ValidationError("say what to measure: 'elastic', 'animations', 'scene NAME', 'list' or --workloads FILE")
        }
        guard taps > 0 else { throw ValidationError("--taps must be positive") }
        var logger = Logger(label: "lamina-bench")
        logger.logLevel = .warning
        let clock = VirtualClock()
        let device = DummyKMSDevice(clock: clock)
        let display = try Display(device: device)
        defer { display.close() }
        let runtime = Runtime(display: display, clock: clock, background: LaminaConfig().background, logger: logger)
        runtime.timingClock = SystemClock()
        runtime.showsOnScreenKeyboard = false            // the field's wobble is measured, not the keyboard's slide
        var rasterTimes: [Double] = [], presentTimes: [Double] = []
        runtime.onFrameCost = { cost in
            rasterTimes.append(cost.displayList + cost.paint)
            presentTimes.append(cost.present)
        }
        let field = try runtime.install(ElasticField.self, settings: ElasticField.Settings())
        let centre = field.field.position
        let steps = (0..<taps).map { TouchScript.Step(time: 0.1 + Double($0) * 1.2, action: .tap(at: centre, hold: 0.08)) }
        runtime.addTouchSource(ScriptedTouchSource(script: TouchScript(steps: steps), start: clock.now))
        runtime.run(untilSettled: true)

        let raster = Stats(rasterTimes.dropFirst())
        let present = Stats(presentTimes.dropFirst())
        let budget = 1000 / display.refreshRate
        print("workload            frames   min ms  median ms  p95 ms  max ms")
        for (name, s) in [("elastic raster", raster), ("elastic present", present)] {
            print(name.padded(to: 18) + String(cFormat: " %7d %8.3f %10.3f %7.3f %7.3f", s.count, s.min, s.median, s.p95, s.max))
        }
        print(String(cFormat: "vblank budget %.2f ms; median raster uses %.1f %%; taps recognized: %d",
                     budget, raster.median / budget * 100, field.taps))
        let damage = Double(runtime.damagedPixels) / Double(max(runtime.renderedFrames, 1) * display.width * display.height)
        print(String(cFormat: "damage redrawn per frame: %.1f %% of the screen (mean over %d frames); copied to scanout: %.1f %%",
                     damage * 100, runtime.renderedFrames,
                     Double(display.copiedPixels) / Double(max(runtime.renderedFrames, 1) * display.width * display.height) * 100))
        if let json {
            let object: [String: Any] = [
                "workload": "elastic", "width": display.width, "height": display.height, "taps": field.taps,
                "raster_ms": raster.dictionary, "present_ms": present.dictionary, "vblank_ms": budget,
                "damage_fraction": damage,
            ]
            let data = try JSONDocument.encode(object)
            try Data(data).write(to: URL(fileURLWithPath: json))
        }
    }
}

extension BenchCommand {
    /// 10,000 animations running at once (half basic with mixed curves and repeats, half
    /// springs) on 1,000 layers, evaluated frame after frame at 60 Hz of virtual time:
    /// the cost of `updatePresentation` per frame.
    func runAnimations() throws {
        guard frames > 0 else { throw ValidationError("--frames must be positive") }
        let root = Layer()
        let tree = LayerTree(root: root)
        let curves: [TimingFunction] = [.linear, .easeIn, .easeOut, .easeInEaseOut, .default]
        let keyPaths = ["position", "opacity", "bounds", "transform", "backgroundColor",
                        "position.x", "position.y", "zPosition", "anchorPoint", "bounds.size"]
        var count = 0
        for i in 0..<1000 {
            let layer = Layer()
            layer.backgroundColor = .white
            root.addSublayer(layer)
            for (k, keyPath) in keyPaths.enumerated() {
                let current = layer.value(forKeyPath: keyPath)!
                let target = current.adding(Self.nudge(for: current, by: Double(i % 7 + k)))
                var animation: BasicAnimation
                if (i + k) % 2 == 0 {
                    animation = BasicAnimation(keyPath: keyPath, to: target, duration: 0.5 + Double(i % 5) * 0.3)
                    animation.timingFunction = curves[(i + k) % curves.count]
                    animation.timing.repeatCount = .infinity
                    animation.timing.autoreverses = i % 3 == 0
                } else {
                    animation = BasicAnimation(keyPath: keyPath, to: target,
                                               spring: Spring(mass: 1, stiffness: 50 + Double(i % 9) * 20, damping: 3), duration: 100)
                }
                layer.add(animation, forKey: keyPath)
                count += 1
            }
        }
        tree.commit(at: 0)
        var times: [Double] = []
        let clock = SystemClock()
        for f in 1...(frames + 3) {
            let start = clock.now
            tree.commit(at: Double(f) / 60)
            _ = tree.updatePresentation(at: Double(f) / 60)
            if f > 3 { times.append(clock.now - start) }
        }
        let s = Stats(times)
        print("workload            frames   min ms  median ms  p95 ms  max ms")
        print("\(count) animations".padded(to: 18) + String(cFormat: " %7d %8.3f %10.3f %7.3f %7.3f", s.count, s.min, s.median, s.p95, s.max))
        if let json {
            let object: [String: Any] = ["workload": "animations", "animations": count, "layers": 1000, "update_ms": s.dictionary]
            let data = try JSONDocument.encode(object)
            try Data(data).write(to: URL(fileURLWithPath: json))
        }
    }

    /// A change of the same kind as `value`, for a benchmark animation's target.
    static func nudge(for value: AnimatableValue, by amount: Double) -> AnimatableValue {
        switch value {
        case .scalar: return .scalar(amount)
        case .point: return .point(Point(x: amount, y: -amount))
        case .size: return .size(Size(width: amount, height: amount))
        case .rect: return .rect(Rect(x: 0, y: 0, width: amount, height: amount))
        case .color: return .color(Color(red: -0.5, green: 0, blue: 0, alpha: 0))
        case .transform: return .transform(Transform3D(translationX: amount, y: 0, z: 0))
        case .bool(let b): return .bool(!b)
        }
    }

    func runWorkloads(_ path: String) throws {
        guard frames > 0 else { throw ValidationError("--frames must be positive") }
        guard threads > 0 else { throw ValidationError("--threads must be positive") }
        let file = try WorkloadFile(path: path)
        let wanted = only.map { Set($0.split(separator: ",").map(String.init)) }
        if let wanted {
            let unknown = wanted.subtracting(file.workloads.map(\.id))
            guard unknown.isEmpty else { throw ValidationError("no workload \(unknown.sorted().joined(separator: ", ")) in \(path)") }
        }
        if let dump { try FileManager.default.createDirectory(atPath: dump, withIntermediateDirectories: true) }
        let clock = SystemClock()
        var rows: [[String: Any]] = []
        print("kernels: \(RasterKernels.active)")
        print("id   name          min ms  median ms  frames")
        for workload in file.workloads where wanted?.contains(workload.id) ?? true {
            guard let renderer = WorkloadRenderer(workload, images: file.images, fontPaths: file.fontPaths, threads: threads) else {
                let missing = WorkloadRenderer.missingFeatures(workload).joined(separator: ", ")
                print("\(workload.id.padded(to: 4)) \(workload.name.padded(to: 12))  n/a (needs \(missing))")
                rows.append(["id": workload.id, "name": workload.name, "status": "unsupported", "missing": missing])
                continue
            }
            for _ in 0..<3 { renderer.renderFrame() }
            var times: [Double] = []
            for _ in 0..<frames {
                let start = clock.now
                renderer.renderFrame()
                times.append(clock.now - start)
            }
            let stats = Stats(times)
            print(workload.id.padded(to: 4) + " " + workload.name.padded(to: 12) + String(cFormat: " %7.3f %10.3f %7d",
                         stats.min, stats.median, stats.count))
            var row: [String: Any] = ["id": workload.id, "name": workload.name, "status": "ok",
                                      "min_ms": stats.min, "median_ms": stats.median, "frames": stats.count]
            if let dump {
                let file = Paths.joined(dump, "\(workload.id)_\(workload.name).png")
                try renderer.frame.writePNG(to: file, compression: 1)
                row["png"] = file
            }
            rows.append(row)
        }
        if let json {
            let data = try JSONDocument.encode(["workloads": rows, "frames": frames, "threads": threads])
            try Data(data).write(to: URL(fileURLWithPath: json))
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
