import CLaminaGStreamer

/// A clip's sound: off until asked, then timed by the player's schedule (decision 147).
extension VideoDecoder {
    /// The element a player's sound goes to: the audio device GStreamer finds (PulseAudio or
    /// PipeWire where they run, else ALSA's default device).
    public static let audioDevice = "autoaudiosink"

    /// Asks for the clip's sound, which is off until asked: a branch to the audio device is
    /// added to the pipeline (now, or when the track appears), timed by the player's
    /// ``schedule(_:)``. While the player is paused the pipeline pauses with it. Returns
    /// whether sound plays now; a failure (no device) is ``soundFailure`` and the video plays
    /// on.
    @discardableResult
    public func enableSound() -> Bool {
        let (first, scheduled) = state.withLock { state -> (Bool, Bool) in
            let first = !state.soundWanted
            state.soundWanted = true
            applySoundBaseTime(state)
            return (first, state.schedule != nil && state.rate > 0)
        }
        guard first else { return soundSink != nil }
        if !scheduled { hold(true) }
        return lamina_gst_sound_enable(sound, nil, 0) == 1     // a failure is kept on the C side: `soundFailure`
    }

    /// The sound's volume (0…1, a linear gain) and whether it is muted; kept for a branch
    /// added later.
    public func setSoundVolume(_ volume: Double, muted: Bool) {
        lamina_gst_sound_set_volume(sound, min(max(volume, 0), 1), muted ? 1 : 0)
    }

    /// When the player shows what (nil while it is paused, has ended or failed): with sound,
    /// the sound's base time is set so the sound of each frame is heard at the vblank the
    /// frame is shown at, and the pipeline plays while there is a schedule and pauses while
    /// there is none.
    public func schedule(_ schedule: SoundSchedule?) {
        let (wanted, playing) = state.withLock { state -> (Bool, Bool) in
            state.schedule = schedule
            applySoundBaseTime(state)
            return (state.soundWanted, schedule != nil && state.rate > 0)
        }
        if wanted { hold(!playing) }
    }

    /// The rate the next seek plays at (with sound the player seeks again when its rate
    /// changes, so the sound plays at it too). Not a positive number is 1.
    public var playbackRate: Double {
        get { state.withLock { $0.rate } }
        set { state.withLock { $0.rate = newValue.isFinite && newValue > 0 ? newValue : 1 } }
    }

    /// The element playing the sound (`pulsesink`, `alsasink`, `fakesink` when no device was
    /// found…), nil while there is no sound: never a secret.
    public var soundSink: String? {
        var name = [CChar](repeating: 0, count: 128)
        return lamina_gst_sound_sink_name(sound, &name, name.count) == 1 ? Self.text(name) : nil
    }

    /// Whether the clip has a sound track (known once its first frames are decoded).
    public var hasSoundTrack: Bool { lamina_gst_sound_has_track(sound) == 1 }

    /// Why the clip plays without the sound asked for (its audio sink failed), if it does.
    public var soundFailure: String? {
        if let failure = state.withLock({ $0.soundFailure }) { return failure }
        var message = [CChar](repeating: 0, count: 256)
        return lamina_gst_sound_failure(sound, &message, message.count) == 1 ? Self.text(message) : nil
    }

    /// The base time the sound's sink has, in nanoseconds on `CLOCK_MONOTONIC`; nil without
    /// sound. Its running time r is heard at this plus r.
    var soundBaseTime: UInt64? {
        let base = lamina_gst_sound_sink_base_time(sound)
        return base == .max ? nil : base
    }

    /// Up to `capacity` samples a test's tap (an appsink named `lamina-sound-tap` in the sound
    /// branch, taking mono F32) has received, waiting at most `seconds` for a buffer; empty
    /// when none came, nil when there is no tap (no sound branch).
    func tappedSound(capacity: Int = 1 << 16, seconds: Double) -> [Float]? {
        tappedSoundBuffer(capacity: capacity, seconds: seconds)?.samples
    }

    /// As ``tappedSound(capacity:seconds:)``, with the buffer's presentation time in seconds
    /// (nil when it has none).
    package func tappedSoundBuffer(capacity: Int = 1 << 16, seconds: Double) -> (samples: [Float], time: Double?)? {
        var samples = [Float](repeating: 0, count: capacity)
        var pts = UInt64.max
        let count = lamina_gst_sound_tap_pull(pipeline, &samples, capacity, UInt64(seconds * 1e9), &pts)
        return count < 0 ? nil : (Array(samples.prefix(count)), pts == .max || count == 0 ? nil : Double(pts) / 1e9)
    }

    /// The element players made by the public initializer send their sound to instead of the
    /// audio device, when set (`lamina bench scene --sound-tap` times a tap against the flips).
    nonisolated(unsafe) package static var soundSinkOverride: String?

    /// The base time putting the sound's running time 0 (the timeline's `epochStart`) where
    /// `schedule` shows it at `rate`: `clock + (epochStart − timeline) / rate`, in nanoseconds
    /// (0 for a time before the clock's start). Nil at rate 0.
    static func soundBaseTime(schedule: SoundSchedule, epochStart: Double, rate: Double) -> UInt64? {
        guard rate > 0 else { return nil }
        let seconds = schedule.clock + (epochStart - schedule.timeline) / rate
        guard seconds.isFinite else { return nil }
        return seconds <= 0 ? 0 : UInt64(seconds * 1e9)
    }

    /// Sets the pipeline's base time from `state`'s schedule and epoch (with the state's lock
    /// held, so a seek cannot come between).
    func applySoundBaseTime(_ state: State) {
        guard state.soundWanted, let schedule = state.schedule,
              let base = Self.soundBaseTime(schedule: schedule, epochStart: state.epochStart, rate: state.rate) else { return }
        lamina_gst_set_base_time(pipeline, base)
    }

    /// Pauses the pipeline (sound stops, and decoding with it) or plays it.
    func hold(_ held: Bool) {
        stateChanges.withLock { _ in
            let changed = state.withLock { state -> Bool in
                defer { state.soundHeld = held }
                return state.soundHeld != held
            }
            if changed { lamina_gst_element_set_state(pipeline, held ? 3 : 4) }
        }
    }

    /// Once the sound has failed, sets the pipeline to the state it is in (paused while held
    /// for sound, else playing), once. The branch's error marked the pipeline's state change
    /// as failed, and a pipeline so marked ignores the new preroll a flushing seek starts: the
    /// next seek (a loop's, the player's) would leave the frame sink waiting for it forever.
    /// Setting the state again clears the mark. On the decoding thread.
    func settleAfterSoundFailure() {
        guard !state.withLock({ $0.settledAfterSoundFailure }), soundFailure != nil else { return }
        stateChanges.withLock { _ in
            let held = state.withLock { state -> Bool in
                state.settledAfterSoundFailure = true
                return state.soundHeld
            }
            lamina_gst_element_set_state(pipeline, held ? 3 : 4)
        }
    }
}
