#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// Mistakes in how an app uses its layers that Core Animation lets pass silently — an
/// animation of a key path the layer does not have (`"strokend"`), a value of the wrong kind,
/// an animation added to a layer in no tree, a negative size — said once per place in the
/// app's code, in debug builds, so they are found while the app is written instead of as a
/// layer that never moves. Release builds say nothing and behave exactly as Core Animation
/// does (the mistake is ignored).
public enum LayerDiagnostics {
    /// Whether warnings are given: true in debug builds of Lamina (an app built for debugging
    /// builds Lamina so), false in release builds.
    public static var isEnabled: Bool {
        #if DEBUG
        return true
        #else
        return false
        #endif
    }

    private static let state = Mutex<(seen: Set<String>, handler: @Sendable (String) -> Void)>(
        (seen: [], handler: { message in
            let line = "lamina: warning: \(message)\n"
            _ = line.withCString { write(2, $0, strlen($0)) }             // standard error, unbuffered
        }))

    /// Where warnings go: standard error by default. The runtime sends them to its log.
    public static func setHandler(_ handler: @escaping @Sendable (String) -> Void) {
        state.withLock { $0.handler = handler }
    }

    /// Says `message` the first time `file:line` reports it (nothing in release builds).
    static func warnOnce(_ message: @autoclosure () -> String, file: StaticString, line: UInt) {
        guard isEnabled else { return }
        let place = "\(file):\(line)"
        let handler: (@Sendable (String) -> Void)? = state.withLock { state in
            state.seen.insert(place).inserted && state.seen.count <= maximumPlaces ? state.handler : nil
        }
        handler?("\(place): \(message())")
    }

    /// How many places are remembered: past that, nothing more is said (the set never grows
    /// without bound).
    static let maximumPlaces = 1024
}
