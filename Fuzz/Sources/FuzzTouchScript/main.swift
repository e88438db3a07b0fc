import FuzzSupport

/// A touch script: parsed, then replayed for its first 2,000 events (the lazy cursor, slots,
/// drags along their polylines).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTouchScript(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    guard let script = try? TouchScript(parsing: Fuzz.text(data, size)) else { return 0 }
    let source = ScriptedTouchSource(script: script, start: 0)
    var delivered = 0
    while delivered < 2_000, let next = source.nextEventTime {
        let events = source.events(upTo: next)
        precondition(!events.isEmpty, "an event due at \(next) was not delivered")
        for event in events {
            switch event.kind {
            case .down(_, let p), .motion(_, let p): precondition(p.x.isFinite && p.y.isFinite, "a non-finite position")
            default: break
            }
        }
        delivered += events.count
    }
    return 0
}
