import ArgumentParser
import FoundationEssentials
import Lamina
import LaminaBenchmarks
import LaminaSystem
import Synchronization

extension BenchCommand {
    /// A scene file's videos unmuted into a tap (an appsink that takes each buffer when the
    /// pipeline's clock reaches it, as an audio sink plays it) on the 1920x1080 dummy display
    /// in real time, through play, a pause and a seek: when each sound buffer arrives against
    /// the vblank its frame is shown at (`VideoPlayer.onFrameShown`). The offset of a buffer
    /// at clip position p is its arrival less when the schedule shows p: the vblank of the
    /// frame nearest p shown within 0.1 s of the arrival, plus p's distance from that frame's
    /// position. Within one vblank (16.7 ms) is the goal (issue 32).
    func runSoundTap(_ scene: String) throws {
        guard seconds >= 4, seconds <= 3600 else { throw ValidationError("--sound-tap needs --seconds from 4 to 3600") }
        guard clock == "realtime" else { throw ValidationError("--sound-tap measures real time: --clock realtime") }
        VideoDecoder.soundSinkOverride = "appsink name=lamina-sound-tap sync=true max-buffers=0"
        let (runtime, display, clock) = try dummyRuntime()
        defer { display.close() }
        try SceneFiles.install(SceneFiles.load(path: scene), in: runtime)
        guard let player = runtime.videos.all.first as? VideoPlayer else { throw ValidationError("\(scene) has no video layer") }
        player.isMuted = false
        player.play()

        // Frames shown: (position, vblank), on the loop. Sound buffers: (position, arrival),
        // on a thread of their own that blocks on the tap.
        var shown: [(position: Double, vblank: Double)] = []
        player.onFrameShown = { shown.append(($0, $1)) }
        let heard = Mutex<[(position: Double, arrival: Double, length: Double)]>([])
        let stop = Atomic<Bool>(false)
        let done = Atomic<Bool>(false)
        let tap = UnsafeSendable(player)
        try DedicatedThread.start(named: "lamina-tap") {
            let clock = SystemClock()
            while !stop.load(ordering: .relaxed) {
                if let buffer = tap.value.tappedSoundBuffer(seconds: 0.05), let time = buffer.time {
                    let now = clock.now
                    heard.withLock { $0.append((time, now, Double(buffer.samples.count) / 48_000)) }
                }
            }
            done.store(true, ordering: .releasing)
        }
        let start = clock.now
        let pauseAt = seconds * 0.3, seekAt = seconds * 0.6
        runtime.run(exitAfter: pauseAt, untilSettled: false)
        player.pause()
        runtime.run(exitAfter: 0.5, untilSettled: false)
        player.play()
        runtime.run(exitAfter: seekAt - pauseAt - 0.5, untilSettled: false)
        player.seek(to: 1)
        runtime.run(exitAfter: seconds - seekAt, untilSettled: false)
        stop.store(true, ordering: .relaxed)
        while !done.load(ordering: .acquiring) { runtime.run(exitAfter: 0.01, untilSettled: false) }
        let elapsed = clock.now - start

        // For each buffer, the frame nearest its position (within a frame's length) among those
        // shown within 0.1 s of its arrival: a frame held through a pause, or shown in the
        // pass before a seek, is not the one shown for it.
        let buffers = heard.withLock { $0 }
        var offsets: [Double] = []
        for buffer in buffers {
            let near = shown.filter { abs($0.vblank - buffer.arrival) < 0.1 && abs($0.position - buffer.position) < 1.0 / 30 }
            guard let frame = near.min(by: { abs($0.position - buffer.position) < abs($1.position - buffer.position) }) else { continue }
            offsets.append(buffer.arrival - (frame.vblank + (buffer.position - frame.position) / player.rate))
        }
        let all = Stats(offsets), magnitude = Stats(offsets.map(abs))
        print("scene \(scene): \(String(cFormat: "%.1f", elapsed)) s in real time, sound into a tap timed by the clock "
              + "(played, paused 0.5 s at \(String(cFormat: "%.1f", pauseAt)) s, sought to 1 s at \(String(cFormat: "%.1f", seekAt)) s)")
        print("\(buffers.count) sound buffers, \(offsets.count) matched to a frame shown; \(shown.count) frames shown")
        print(String(cFormat: "sound minus picture: median %+.2f ms, min %+.2f ms, max %+.2f ms; |offset| p95 %.2f ms (a vblank is %.2f ms)",
                     all.median, all.min, all.max, magnitude.p95, display.frameDuration * 1000))
        // Silences: where a buffer arrives later than the one before ended (its length at the
        // tap's 48 kHz), by more than 30 ms.
        let gaps = zip(buffers, buffers.dropFirst()).compactMap { a, b -> String? in
            let silence = b.arrival - (a.arrival + a.length)
            guard silence > 0.03 else { return nil }
            return String(cFormat: "%.0f ms after %.2f s (next %.2f s)", silence * 1000, a.position + a.length, b.position)
        }
        print("silences over 30 ms: " + (gaps.isEmpty ? "none" : gaps.joined(separator: "; ")))
        let beyond = offsets.filter { abs($0) > display.frameDuration }.count
        let statistics = player.statistics
        print("\(beyond) of \(offsets.count) buffers more than a vblank off; the pictures: \(statistics.shown) shown, "
              + "\(statistics.dropped) dropped, \(statistics.late) late (a late frame is shown a vblank after its time: its sound is then early)")
        if let json {
            let object: [String: Any] = ["workload": "sound-tap", "scene": scene, "seconds": elapsed, "buffers": buffers.count,
                                         "matched": offsets.count, "offset_ms": all.dictionary, "abs_offset_ms": magnitude.dictionary]
            try Data(JSONDocument.encode(object)).write(to: URL(fileURLWithPath: json))
        }
    }
}

/// A value handed to another thread that only calls what is safe there.
private struct UnsafeSendable<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
