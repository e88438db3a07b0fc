import ArgumentParser
import FoundationEssentials
import Lamina
import LaminaBenchmarks
import LaminaDisplay
import LaminaScenes
import Logging

extension BenchCommand {
    /// A runtime on a 1920x1080 dummy display at 60 Hz on the `--clock` chosen (real time, or
    /// virtual: frames back to back), each frame timed on the system clock.
    func dummyRuntime() throws -> (Runtime, Display, MonotonicClock) {
        var logger = Logger(label: "lamina-bench")
        logger.logLevel = .error
        let clock: MonotonicClock = self.clock == "virtual" ? VirtualClock() : SystemClock()
        let device = DummyKMSDevice(clock: clock)
        if overlayPlane { device.addOverlayPlane() }
        let display = try Display(device: device, clock: clock)
        let runtime = Runtime(display: display, clock: clock, background: LaminaConfig().background, logger: logger)
        runtime.timingClock = SystemClock()
        return (runtime, display, clock)
    }

    /// A scene, built-in or a scene file, running on a 1920x1080 dummy display at 60 Hz as the
    /// daemon runs it: after a second of warm-up, the CPU the process uses per second of
    /// the scene's motion (percent of one core) and each frame's cost split into its steps
    /// (`FrameCost`).
    func runScene(_ scene: String) throws {
        guard seconds > 0, seconds <= 3600 else { throw ValidationError("--seconds must be more than 0 and at most 3600") }
        let (runtime, display, clock) = try dummyRuntime()
        defer { display.close() }
        if scene.hasSuffix(".yaml") || scene.hasSuffix(".yml") || scene.contains("/") {
            try SceneFiles.install(SceneFiles.load(path: scene), in: runtime)
        } else {
            guard Gallery.registry.scene(named: scene) != nil else {
                throw ValidationError("no scene '\(scene)': \(Gallery.registry.sceneNames.joined(separator: ", ")) or a FILE.yaml")
            }
            try Gallery.registry.install(scene: scene, settings: SettingsTable(file: "", name: scene, entries: [:]), in: runtime)
        }
        runtime.run(exitAfter: 1, untilSettled: false)                 // warm-up: caches filled, first full frame drawn
        var costs: [FrameCost] = []
        runtime.onFrameCost = { costs.append($0) }
        let startCPU = ProcessCPUTime.seconds, startLoopCPU = ThreadCPUTime.seconds, startTime = clock.now
        let startDamaged = runtime.damagedPixels, startCopied = display.copiedPixels
        runtime.run(exitAfter: seconds, untilSettled: false)
        let cpu = ProcessCPUTime.seconds - startCPU, elapsed = clock.now - startTime
        let loopCPU = ThreadCPUTime.seconds - startLoopCPU
        let share = cpu / elapsed * 100, loopShare = loopCPU / elapsed * 100

        print("scene \(scene): \(costs.count) frames in " + String(cFormat: "%.1f", elapsed)
              + " s (\(self.clock) clock), 1920x1080 at 60 Hz")
        print(String(cFormat: "CPU per animated second: %.2f %% of a core (%.1f ms of CPU per second)", share, cpu / elapsed * 1000))
        print(String(cFormat: "  the loop thread: %.2f %% of a core; other threads (a video's decoding): %.2f %%", loopShare,
                     share - loopShare))
        let steps: [(String, KeyPath<FrameCost, Double>)] = [
            ("commit", \.commit), ("presentation", \.presentation), ("display list", \.displayList),
            ("paint", \.paint), ("present", \.present), ("outside raster", \.outsideRaster), ("frame total", \.total)]
        print("step               median ms  p95 ms  max ms")
        var split: [String: Any] = [:]
        for (name, path) in steps {
            let s = Stats(costs.map { $0[keyPath: path] })
            print(name.padded(to: 18) + String(cFormat: " %10.4f %7.4f %7.3f", s.median, s.p95, s.max))
            split[name.split(separator: " ").joined(separator: "_")] = s.dictionary
        }
        let screen = Double(max(costs.count, 1) * display.width * display.height)
        let damaged = Double(runtime.damagedPixels - startDamaged) / screen
        let copied = Double(display.copiedPixels - startCopied) / screen
        print(String(cFormat: "damage redrawn per frame: %.2f %% of the screen (mean); copied to scanout: %.2f %%",
                     damaged * 100, copied * 100))
        for video in runtime.stats.videos ?? [] {
            print("video \(video.name ?? video.source): decoded by \(video.decoder ?? "nothing yet"), \(video.decoded) decoded, "
                  + "\(video.shown) shown, \(video.dropped) dropped, \(video.late) late")
        }
        if overlayPlane {
            print("overlay plane: video on it in \(runtime.overlayFrames) frames (from the start), "
                  + "\(display.overlayFramesCopied) copied into its buffers, \(display.overlayFramesInPlace) shown in place"
                  + (display.overlayRefusal.map { "; refused: \($0)" } ?? ""))
        }
        if let json {
            let object: [String: Any] = ["workload": "scene", "scene": scene, "clock": self.clock, "seconds": elapsed,
                                         "frames": costs.count, "cpu_percent": share, "loop_cpu_percent": loopShare, "frame_ms": split,
                                         "damage_fraction": damaged, "copied_fraction": copied,
                                         "overlay_frames": runtime.overlayFrames]
            try Data(JSONDocument.encode(object)).write(to: URL(fileURLWithPath: json))
        }
    }
}
