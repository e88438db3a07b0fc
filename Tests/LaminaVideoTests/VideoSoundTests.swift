import Foundation
import Lamina
import LaminaSystem
import LaminaTestSupport
import Testing
@testable import LaminaVideo

/// A video's sound: off until asked, then decoded into a tap (an appsink standing for the
/// audio device, which this machine has none of) and timed by the player's schedule.
@Suite("Video sound: off until asked, its level and pitch, its timing", .serialized)
struct VideoSoundTests {
    /// Mono 32-bit float samples, taken as fast as they come (no clock).
    static let tap = "audioconvert ! audio/x-raw,format=F32LE,channels=1,layout=interleaved ! appsink name=lamina-sound-tap sync=false"
    static let hertz = 440.0

    /// A sweep clip with a 440 Hz tone at half of full scale.
    static func clip() throws -> String { try SweepClip.make(tone: hertz) }

    static func decoder(_ path: String, loops: Bool = false, sink: String = tap) throws -> VideoDecoder {
        try VideoDecoder(source: try VideoSource(path), loops: loops, readsInPlace: true, soundSink: sink)
    }

    /// Plays `decoder` to its end, taking its frames as they come and everything its tap
    /// receives: the frames and the samples.
    static func drain(_ decoder: VideoDecoder) throws -> (frames: [VideoFrame], sound: [Float]) {
        var frames: [VideoFrame] = [], sound: [Float] = []
        var quiet = 0
        while quiet < 20 {
            frames += decoder.takeFrames()
            if let failure = decoder.failure { throw VideoError(failure) }
            let got = decoder.tappedSound(seconds: 0.05) ?? []
            sound += got
            quiet = decoder.isEnded && got.isEmpty ? quiet + 1 : 0
        }
        return (frames + decoder.takeFrames(), sound)
    }

    /// The root mean square of `samples`.
    static func rms(_ samples: ArraySlice<Float>) -> Double {
        (samples.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(max(1, samples.count))).squareRoot()
    }

    /// How many times a second `samples` cross zero upwards.
    static func pitch(_ samples: ArraySlice<Float>) -> Double {
        let crossings = zip(samples, samples.dropFirst()).filter { $0 < 0 && $1 >= 0 }.count
        return Double(crossings) * Double(SweepClip.soundRate) / Double(samples.count)
    }

    /// The schedule of a player showing the timeline's start now.
    static var now: SoundSchedule { SoundSchedule(clock: SystemClock().now, timeline: 0) }

    @Test("muted by default: no sound branch is made and no device opened; the pictures decode as without sound")
    func mutedByDefault() throws {
        let path = try Self.clip()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let decoder = try Self.decoder(path)
        decoder.schedule(Self.now)
        let (frames, _) = try Self.drain(decoder)
        #expect(frames.count == SweepClip.frames)
        #expect(decoder.hasSoundTrack)
        #expect(decoder.soundSink == nil)
        #expect(decoder.tappedSound(seconds: 0) == nil, "no tap: the branch was never built")
    }

    @Test("unmuted: the clip's tone, at its level and pitch, as long as the clip; the volume scales it and mute silences it",
          arguments: [(1.0, false), (0.25, false), (1.0, true)])
    func toneAtLevel(volume: Double, muted: Bool) throws {
        let path = try Self.clip()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let decoder = try Self.decoder(path)
        decoder.setSoundVolume(volume, muted: muted)
        decoder.schedule(Self.now)
        decoder.enableSound()
        let (frames, sound) = try Self.drain(decoder)
        #expect(frames.count == SweepClip.frames)
        #expect(decoder.soundSink == "appsink")
        #expect(decoder.soundFailure == nil)
        // One second of sound (Opus's pre-skip trimmed), within a frame.
        #expect(abs(sound.count - SweepClip.soundRate) < SweepClip.soundRate / 30, "\(sound.count) samples")
        let middle = sound.dropFirst(sound.count / 5).prefix(sound.count * 3 / 5)
        let expected = muted ? 0 : 0.5 * volume / 2.0.squareRoot()     // a sine's RMS is its peak over √2
        #expect(abs(Self.rms(middle) - expected) <= 0.02 * max(expected, 0.05), "RMS \(Self.rms(middle)), expected \(expected)")
        if !muted { #expect(abs(Self.pitch(middle) - Self.hertz) < 3, "pitch \(Self.pitch(middle)) Hz") }
    }

    @Test("the sound's base time puts each epoch's running time where the player's schedule shows it: at the start, after a loop, after a seek")
    func baseTimeFollowsSchedule() throws {
        let path = try Self.clip()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let decoder = try Self.decoder(path, loops: true)
        decoder.schedule(SoundSchedule(clock: 1000, timeline: 0, isRealTime: false))
        decoder.enableSound()
        decoder.waitForFrames(through: 0, after: -1, seconds: 10)
        #expect(decoder.soundBaseTime == 1_000_000_000_000, "running time 0 is timeline 0, shown at 1000 s")
        // Take frames until the second pass is decoded: its sound's running time 0 is where
        // its first frame is on the timeline (after the first pass's 30 frames, WebM's
        // millisecond times making it 1.000333 s), shown that much after 1000 s.
        var frames: [VideoFrame] = []
        while !frames.contains(where: { $0.pass == 1 }) && frames.count < 200 {
            decoder.waitForFrames(through: .infinity, after: 0, seconds: 10)
            frames += decoder.takeFrames()
            if let failure = decoder.failure { throw VideoError(failure) }
        }
        let second = try #require(frames.first { $0.pass == 1 })
        #expect(abs(second.time - 1) < 0.001 && second.position == 0)
        let base = try #require(decoder.soundBaseTime)
        #expect(abs(Double(base) - (1000 + second.time) * 1e9) < 1000, "base \(base), second pass at \(second.time)")
        // A seek to 0.5 s: the player shows it at 2000 s.
        decoder.schedule(nil)
        decoder.seek(to: 0.5)
        decoder.schedule(SoundSchedule(clock: 2000, timeline: 0.5, isRealTime: false))
        decoder.waitForFrames(through: 0.6, after: 0, seconds: 10)
        #expect(decoder.soundBaseTime == 2_000_000_000_000)
        // The formula at another rate: the running time runs at the rate, so 1.5 s of
        // timeline before the schedule's is 0.75 s of clock.
        #expect(VideoDecoder.soundBaseTime(schedule: SoundSchedule(clock: 100, timeline: 2), epochStart: 0.5, rate: 2) == 99_250_000_000)
        #expect(VideoDecoder.soundBaseTime(schedule: SoundSchedule(clock: 100, timeline: 2), epochStart: 0.5, rate: 0) == nil)
    }

    @Test("paused with sound, a seek's frame comes as the pipeline's preroll, and is not shown twice when it plays")
    func pausedSeekWithSound() throws {
        let path = try Self.clip()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let decoder = try Self.decoder(path)
        decoder.enableSound()                        // no schedule: the pipeline pauses
        decoder.seek(to: 0.51)
        decoder.waitForFrames(through: 0.51, after: 0, seconds: 10)
        let paused = decoder.takeFrames()
        #expect(paused.map(\.position) == [0.51], "the seek's frame alone, while paused: \(paused.map(\.position))")
        decoder.schedule(SoundSchedule(clock: SystemClock().now, timeline: 0.51))
        let (rest, sound) = try Self.drain(decoder)
        // The preroll is frame 15 (0.5…0.533 s) clipped to start at 0.51 s; playing, the
        // pipeline renders that buffer again first, and it is passed over: frame 16 is next.
        let positions = rest.map { Int(($0.position * 30).rounded()) }
        #expect(positions == Array(16..<30), "\(positions)")
        #expect(abs(sound.count - SweepClip.soundRate / 2) < SweepClip.soundRate / 15, "half a second of sound: \(sound.count)")
    }

    @Test("unmuted while playing, the sound joins where the clip is: its first buffer is at the decoder's place, not the clip's start")
    func unmutedWhilePlaying() throws {
        let path = try Self.clip()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let decoder = try Self.decoder(path)
        decoder.schedule(Self.now)
        var frames: [VideoFrame] = []
        while (frames.last?.position ?? 0) < 0.4 {
            decoder.waitForFrames(through: .infinity, after: 0, seconds: 10)
            frames += decoder.takeFrames()
            if let failure = decoder.failure { throw VideoError(failure) }
        }
        decoder.enableSound()
        let first = try #require(decoder.tappedSoundBuffer(seconds: 10), "a tap once sound is on")
        let start = try #require(first.time)
        #expect(start > 0.4, "the first sound is after the frames already decoded (\(start) s)")
        let (rest, sound) = try Self.drain(decoder)
        #expect(frames.count + rest.count == SweepClip.frames)
        let heard = Double(first.samples.count + sound.count) / Double(SweepClip.soundRate)
        #expect(abs(heard - (1 - start)) < 0.05, "the rest of the clip's sound: \(heard) s from \(start) s")
    }

    @Test("an audio sink that cannot open its device (no sound server) leaves the video playing without sound, and says why")
    func failingSinkKeepsVideo() throws {
        let path = try Self.clip()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let decoder = try Self.decoder(path, sink: "pulsesink server=unix:/nonexistent-lamina-socket")
        decoder.schedule(Self.now)
        #expect(decoder.enableSound() == false)
        let (frames, _) = try Self.drain(decoder)
        #expect(frames.count == SweepClip.frames)
        #expect(decoder.soundFailure != nil)
        #expect(decoder.soundSink == nil)
    }

    @Test("an audio sink failing mid-stream (a device unplugged) takes the sound out and leaves every frame of the video, in a loop too, and says why",
          arguments: [false, true])
    func sinkFailingMidStream(loops: Bool) throws {
        let path = try Self.clip()
        defer { try? FileManager.default.removeItem(atPath: path) }
        // The sink takes five buffers, then fails as a pulled USB speaker does.
        let decoder = try Self.decoder(path, loops: loops, sink: "identity error-after=5 ! fakesink sync=false")
        decoder.schedule(Self.now)
        decoder.enableSound()
        var frames: [VideoFrame] = []
        let wanted = loops ? 3 * SweepClip.frames : SweepClip.frames
        var waits = 0
        while frames.count < wanted && !(decoder.isEnded && !loops) && waits < 2000 {
            decoder.waitForFrames(through: .infinity, after: frames.last?.time ?? -1, seconds: 0.05)
            frames += decoder.takeFrames()
            if let failure = decoder.failure { Issue.record("the video failed: \(failure)"); break }
            waits += 1
        }
        frames += decoder.takeFrames()
        #expect(frames.count >= wanted, "\(frames.count) frames of \(wanted); ended \(decoder.isEnded), decoded \(decoder.framesDecoded), sound failure \(decoder.soundFailure ?? "none"), sink \(decoder.soundSink ?? "none")")
        // Every frame in order: each pass's frames at 0, 1/30, 2/30 …
        for (index, frame) in frames.prefix(wanted).enumerated() {
            #expect(frame.pass == index / SweepClip.frames && abs(frame.position - Double(index % SweepClip.frames) / 30) < 0.002,
                    "frame \(index): pass \(frame.pass) at \(frame.position)")
        }
        #expect(decoder.failure == nil)
        #expect(decoder.soundFailure != nil, "the sink's failure is said")
        #expect(decoder.soundSink == nil, "the failed branch is gone")
    }

    @Test("a clip without sound plays its pictures when unmuted, and reports no sound")
    func clipWithoutSound() throws {
        let path = try SweepClip.make()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let decoder = try Self.decoder(path)
        decoder.schedule(Self.now)
        decoder.enableSound()
        let (frames, sound) = try Self.drain(decoder)
        #expect(frames.count == SweepClip.frames)
        #expect(sound.isEmpty && !decoder.hasSoundTrack && decoder.soundSink == nil && decoder.soundFailure == nil)
    }

    @Test("an unmuted player plays the clip's tone with its frames, at its volume; the report names the sink")
    func playerPlaysSound() throws {
        let path = try Self.clip()
        defer { try? FileManager.default.removeItem(atPath: path) }
        SoundSweepScene.source = path
        let rig = try DummyDisplayRig(width: SweepClip.width, height: SweepClip.height, refresh: 60, start: 0)
        let log = CapturedLog()
        let runtime = rig.makeRuntime(log: log)
        let scene = try runtime.install(SoundSweepScene.self, settings: NoSettings())
        scene.player.volume = 0.5
        scene.player.isMuted = false
        scene.player.play()
        var steps = 0
        runtime.step()
        while !scene.events.contains(.ended), steps < 20_000, rig.advanceToNextEvent(runtime) { steps += 1 }
        #expect(scene.events == [.ready, .ended])
        #expect(scene.player.statistics.shown == SweepClip.frames && scene.player.statistics.dropped == 0)
        let report = scene.player.report
        #expect(report.muted == false && report.volume == 0.5 && report.sound == "appsink")
        var sound: [Float] = []
        while let more = scene.player.tappedSound(), !more.isEmpty { sound += more }
        #expect(abs(sound.count - SweepClip.soundRate) < SweepClip.soundRate / 30, "\(sound.count) samples")
        let middle = sound.dropFirst(sound.count / 5).prefix(sound.count * 3 / 5)
        #expect(abs(Self.rms(middle) - 0.25 / 2.0.squareRoot()) < 0.005, "RMS \(Self.rms(middle))")
        #expect(log.count(containing: "sound to appsink") == 1, "where the sound goes is logged once")
    }
}

/// A video layer filling the screen, its player's sound going to the tests' tap.
final class SoundSweepScene: Scene {
    static let name = "video-sound-sweep"
    static let summary = "a video layer whose sound goes to a tap"
    nonisolated(unsafe) static var source = ""
    let player: VideoPlayer
    var events: [VideoPlayer.Event] = []

    init(context: SceneContext, settings: NoSettings) throws {
        player = try VideoPlayer(source: try VideoSource(Self.source), context: context, loops: false, soundSink: VideoSoundTests.tap)
        let layer = VideoLayer(player: player)
        layer.frame = Rect(x: 0, y: 0, width: context.screenSize.width, height: context.screenSize.height)
        context.rootLayer.addSublayer(layer)
        player.onEvent = { [unowned self] event in self.events.append(event) }
    }
}
