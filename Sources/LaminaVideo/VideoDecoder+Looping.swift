import CLaminaGStreamer
import Dispatch
import LaminaSystem

/// Looping without a gap: the decoding thread seeks back to the start the moment a pass's
/// stream ends, while its last frames are still queued.
extension VideoDecoder {
    /// How long before a pass ends on screen a looping decoder with sound seeks back: the
    /// sound still to play then is cut (a flushing seek drops it), and the next pass's first
    /// frame has this long to be decoded.
    static let loopMargin = 0.05

    /// With sound playing, waits until the screen is ``loopMargin`` from the pass's end (by
    /// the player's schedule, at most a second), so the loop's flush cuts that much of the
    /// pass's sound and not all the decoder is ahead by. A seek or the stop ends the wait
    /// early; without sound there is no wait.
    func waitForPassEnd() {
        guard soundFailure == nil else { return }
        let seconds = state.withLock { state -> Double? in
            guard state.soundWanted, let schedule = state.schedule, schedule.isRealTime,
                  state.rate > 0, let last = state.lastTime else { return nil }
            let end = schedule.clock + (last + state.lastDuration - schedule.timeline) / state.rate
            return end - Self.loopMargin - SystemClock().now
        }
        guard let seconds, seconds > 0 else { return }
        _ = nudge.wait(timeout: .now() + min(seconds, 1))
        // A nudge taken here was for a seek or the stop, which the loop sees next.
    }

    /// The stream ended and the decoder loops: back to the start, the next pass placed right
    /// after the last frame. False when the pass had no frame or GStreamer refuses the seek.
    func loopBack() -> Bool {
        let next = state.withLock { state -> (start: Double, rate: Double)? in
            guard state.passFrames > 0 else { return nil }
            let start = (state.lastTime ?? state.passStart) + state.lastDuration
            state.epochPassStart = start
            state.epochSegmentStart = 0
            state.prerollWanted = state.soundHeld
            state.prerollPTS = nil
            applySoundBaseTime(state)
            return (start, state.rate)
        }
        guard let next, lamina_gst_seek(pipeline, 0, next.rate, 0) == 1 else { return false }
        state.withLock { state in
            state.passStart = next.start
            state.pass += 1
            state.passFrames = 0
        }
        return true
    }

    /// After the end, sleeps (holding no place in the queue) until a seek, looping turned on
    /// or the stop; true to go on decoding.
    func waitWhileEnded() -> Bool {
        nudge.wait()
        let (stopping, seek) = state.withLock { ($0.stopping, $0.pendingSeek) }
        if stopping { return false }
        if seek == nil && !loopBack() { finish(failure: nil) }
        return true
    }
}
