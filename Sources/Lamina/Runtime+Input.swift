import LaminaInput

/// Input's part of a turn of the loop: touches through the dispatcher, gesture deadlines,
/// keys and their text, key repeat.
extension Runtime {
    /// Delivers the input due by `now`; what it changes is committed with the turn.
    func handleInput(now: Double) {
        var fingerWentDown = false
        for source in touchSources {
            for event in source.events(upTo: now) {
                workDone = true
                guard admitTouch(event) else { continue }
                if case .down(let slot, _) = event.kind {
                    telemetry.touchWentDown()
                    if slot != LibinputSource.pointerSlot { fingerWentDown = true }   // the mouse's button is no finger
                }
                let mark = changeMark
                dispatcher.dispatch(event)
                if case .frame = event.kind { continue }
                telemetry.noteInput(at: event.time, changed: changeMark != mark)
            }
        }
        if let deadline = dispatcher.nextDeadline, now >= deadline {
            workDone = true
            dispatcher.advance(to: now)                 // a long press begins, a multi-tap window closes
        }
        for source in touchSources.compactMap({ $0 as? KeySource }) {
            for key in source.keyEvents(upTo: now) {
                workDone = true
                blanking.lastInput = now
                let mark = changeMark
                keyHandler?(key)
                for input in keyboard?.handle(key) ?? [] { deliver(input) }
                telemetry.noteInput(at: now, changed: changeMark != mark)
            }
        }
        if let keyboard, let due = keyboard.nextRepeatTime, now >= due {
            workDone = true
            for input in keyboard.repeats(upTo: now) { deliver(input) }
        }
        if timers.fire(upTo: now) { workDone = true }
        handlePointer(now: now, touchWentDown: fingerWentDown)
    }
}
