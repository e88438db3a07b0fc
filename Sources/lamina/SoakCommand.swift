#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser
import FoundationEssentials
import Lamina
import LaminaDisplay
import LaminaGeometry
import LaminaScenes
import LaminaTools
import Logging

/// `lamina soak`: the daemon's runtime on a virtual clock for many frames under random
/// input, configuration reloads and display hotplugs, sampling resident memory and open
/// descriptors. A measurement (`scripts/soak`), not a test: it reports growth and
/// frame-time drift, and fails only against the limits it is given.
struct SoakCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "soak",
        abstract: "Run the elastic field for many frames under random input and report memory, descriptor and frame-time drift.",
        discussion: """
            The dummy 1920x1080 display on a virtual clock; random taps, long presses, drags and \
            pinches (seeded); every 20 s of virtual time a SIGHUP-style reload of a config that \
            alternates the field's colour, text and size; every 50 s the panel is unplugged for \
            2 s and plugged in again. Growth is measured from the end of the warm-up to the end.
            """)

    @Option(name: .long, help: "Frames to draw.")
    var frames = 1_000_000

    @Option(name: .long, help: "Frames before the baseline sample (caches and pools fill up).")
    var warmup = 20_000

    @Option(name: .long, help: "Seed of the random input.")
    var seed: UInt64 = 1

    @Option(name: .long, help: "Fail (exit 1) when resident memory grows by more than this many KiB after the warm-up.")
    var maxRSSGrowthKib: Int?

    @Option(name: .long, help: "Fail (exit 1) when open descriptors grow by more than this after the warm-up.")
    var maxDescriptorGrowth: Int?

    @Option(name: .long, help: "Write the samples and the summary as JSON here.")
    var json: String?

    struct Sample: Codable {
        var frames: Int
        var virtualSeconds: Double
        var residentKiB: Int
        var heapKiB: Int
        var openDescriptors: Int
        /// Wall-clock ms per frame since the previous sample (input, commit, drawing, flips).
        var msPerFrame: Double
    }

    func validate() throws {
        guard frames > 0, frames <= 1_000_000_000 else { throw ValidationError("--frames must be 1…1000000000") }
        guard warmup >= 0, warmup < frames else { throw ValidationError("--warmup must be 0…frames-1") }
    }

    func run() throws {
        ProcessResources.returnLargeBuffersToTheSystem()          // as the daemon does
        var logger = Logger(label: "lamina-soak")
        logger.logLevel = .error
        let clock = VirtualClock()
        let device = DummyKMSDevice(clock: clock)
        let display = try Display(device: device, virtualMode: .cea1080p60, clock: clock)     // as the daemon: dark while unplugged
        defer { display.close() }
        let runtime = Runtime(display: display, clock: clock, background: LaminaConfig().background, logger: logger)
        runtime.timingClock = SystemClock()
        let catalog = Gallery.registry

        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("lamina-soak-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let configPath = directory.appendingPathComponent("lamina.toml").path
        func writeConfig(_ variant: Int) throws {
            let colours = ["#3478F6", "#34C759", "#FF9500"]
            try """
                [elastic_field]
                fill_color = "\(colours[variant % 3])"
                text = "soak \(variant)"
                width = \(400 + 40 * (variant % 5))
                """.write(toFile: configPath, atomically: true, encoding: .utf8)
        }
        try writeConfig(0)
        var config = try LaminaConfig.load(path: configPath, sceneNames: catalog.sceneNames)
        try catalog.install(scene: config.scene, settings: config.settings(forScene: config.scene), in: runtime)
        let panel = Size(width: Double(display.width), height: Double(display.height))
        let touches = RandomTouchSource(seed: seed, panel: panel, focus: Point(x: panel.width / 2, y: panel.height / 2),
                                        start: clock.now)
        runtime.addTouchSource(touches)

        let chunk = 10.0                                         // virtual seconds between checks
        var samples: [Sample] = []
        var baseline: Sample?
        var reloads = 0, unplugs = 0
        var lastWall = SystemClock().now, lastFrames = 0
        let sampleEvery = max(frames / 50, 1)
        var nextSample = warmup
        var chunks = 0
        while runtime.renderedFrames < frames {
            runtime.run(exitAfter: chunk, untilSettled: false)
            chunks += 1
            if chunks % 2 == 0 {
                reloads += 1
                try writeConfig(reloads)
                config = Daemon.reload(path: configPath, running: config, runtime: runtime, catalog: catalog, logger: logger)
            }
            if chunks % 5 == 0 {
                unplugs += 1
                device.setConnected(false)
                runtime.run(exitAfter: 2, untilSettled: false)
                device.setConnected(true)
                runtime.run(exitAfter: 0.1, untilSettled: false)     // lit again before any sample
            }
            if runtime.renderedFrames >= nextSample || runtime.renderedFrames >= frames {
                let now = SystemClock().now
                let resources = ProcessResources.current()
                let drawn = runtime.renderedFrames - lastFrames
                let sample = Sample(frames: runtime.renderedFrames, virtualSeconds: clock.now,
                                    residentKiB: resources.residentBytes / 1024,
                                    heapKiB: resources.heapBytes / 1024, openDescriptors: resources.openDescriptors,
                                    msPerFrame: drawn > 0 ? (now - lastWall) * 1000 / Double(drawn) : 0)
                lastWall = now
                lastFrames = runtime.renderedFrames
                if baseline == nil { baseline = sample } else { samples.append(sample) }
                print(String(cFormat: "%9d frames  %9.0f s virtual  RSS %7d KiB  heap %7d KiB  fds %3d  %.4f ms/frame",
                             sample.frames, sample.virtualSeconds, sample.residentKiB, sample.heapKiB, sample.openDescriptors,
                             sample.msPerFrame))
                nextSample = runtime.renderedFrames + sampleEvery
            }
        }
        guard let baseline, let last = samples.last else {
            print("too few frames to compare: run with more --frames than --warmup")
            return
        }
        let rssGrowth = last.residentKiB - baseline.residentKiB
        let heapGrowth = last.heapKiB - baseline.heapKiB
        let fdGrowth = last.openDescriptors - baseline.openDescriptors
        let tenth = max(samples.count / 10, 1)
        let early = samples.prefix(tenth).map(\.msPerFrame).reduce(0, +) / Double(tenth)
        let late = samples.suffix(tenth).map(\.msPerFrame).reduce(0, +) / Double(tenth)
        let stats = runtime.stats
        let gestures = touches.gestures.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
        print(String(cFormat: "soak: %d frames over %.0f virtual s, %d touches", runtime.renderedFrames, clock.now, stats.touches)
              + " (\(gestures))" + String(cFormat: ", %d reloads, %d unplugs",
                     reloads, unplugs))
        print(String(cFormat: "growth after %d warm-up frames: RSS %+d KiB (%d → %d), heap %+d KiB, descriptors %+d; ms per frame first tenth %.4f, last tenth %.4f (%+.1f %%)",
                     baseline.frames, rssGrowth, baseline.residentKiB, last.residentKiB, heapGrowth, fdGrowth, early, late,
                     early > 0 ? (late / early - 1) * 100 : 0))
        if let json {
            struct Report: Codable {
                var frames: Int, seed: UInt64, reloads: Int, unplugs: Int
                var rssGrowthKiB: Int, heapGrowthKiB: Int, descriptorGrowth: Int, msPerFrameEarly: Double, msPerFrameLate: Double
                var baseline: Sample, samples: [Sample], stats: RunStats
            }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            try encoder.encode(Report(frames: runtime.renderedFrames, seed: seed, reloads: reloads, unplugs: unplugs,
                                      rssGrowthKiB: rssGrowth, heapGrowthKiB: heapGrowth, descriptorGrowth: fdGrowth, msPerFrameEarly: early,
                                      msPerFrameLate: late, baseline: baseline, samples: samples, stats: stats))
                .write(to: URL(fileURLWithPath: json))
        }
        var failed = false
        if let limit = maxRSSGrowthKib, rssGrowth > limit {
            print("soak failed: resident memory grew by \(rssGrowth) KiB (limit \(limit) KiB)")
            failed = true
        }
        if let limit = maxDescriptorGrowth, fdGrowth > limit {
            print("soak failed: open descriptors grew by \(fdGrowth) (limit \(limit))")
            failed = true
        }
        if failed { throw ExitCode(1) }
    }
}
