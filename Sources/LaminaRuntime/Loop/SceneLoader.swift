import Dispatch
import LaminaSystem
import Synchronization
import SystemPackage

/// Loads scenes away from the frame loop (issue 26): reading a scene file (the helper process,
/// up to its time limit) and compiling it run on a queue of their own while the loop keeps
/// drawing, answering the control socket and stopping on SIGTERM; only installing the
/// compiled scene, which the cost model bounds, happens on the loop.
///
/// One load runs at a time. Each request names a key (`reload`, `scene-file`, `switch-scene`):
/// a request whose key already waits joins that request and gets its result, so a burst of
/// reloads costs two loads, not one each; at most `maximumWaiting` requests wait, and past
/// that a request is refused at once. On a virtual clock a load runs on the spot, so runs
/// stay deterministic.
public final class SceneLoader {
    /// What runs off the loop: it reads and compiles, and returns what installs the result on
    /// the loop, which returns why the load was refused (nil: installed).
    public typealias Load = () -> (() -> String?)

    /// Requests waiting at most (besides the one running).
    public static let maximumWaiting = 4
    /// Why a request was refused when too many wait.
    public static let busy = "too many reloads and scene switches are waiting; ask again when they are done"

    /// Readable when a load has finished (nil when no eventfd could be made: loads then run
    /// on the spot).
    let wakeup: WakeupEvent?
    /// Where loads run (tests suspend it to hold one in progress).
    let queue = DispatchQueue(label: "lamina.scene-loader")
    /// Whether loads run on the queue (real time) or on the spot (a virtual clock).
    public let inBackground: Bool

    private struct Request {
        var key: String
        /// Runs on the loop when the request's turn comes: what to load, with the values of then.
        var prepare: () -> Load
        var done: [(String?) -> Void]
    }

    private var waiting: [Request] = []
    private var running: Request?
    /// The finished load's installer, handed from the queue to the loop.
    private let finished = Handoff()

    /// A loader; `inBackground` false runs every load on the spot.
    public init(inBackground: Bool) {
        wakeup = inBackground ? try? WakeupEvent() : nil
        self.inBackground = inBackground && wakeup != nil
    }

    /// Whether a load is running or waiting.
    public var isBusy: Bool { running != nil || !waiting.isEmpty }

    /// The descriptor the loop waits on while a load runs.
    var descriptor: Int32? { running != nil ? wakeup?.descriptor : nil }

    /// Asks for a load under `key`: `prepare` runs on the loop when its turn comes and says
    /// what to load; `done` gets the result on the loop (nil: installed). A request whose key
    /// already waits joins it. When too many requests wait, nothing is started, `done` gets
    /// `busy` at once and the result is false.
    @discardableResult
    public func request(_ key: String, prepare: @escaping () -> Load, done: @escaping (String?) -> Void) -> Bool {
        if let i = waiting.firstIndex(where: { $0.key == key }) {
            waiting[i].done.append(done)
        } else {
            guard waiting.count < Self.maximumWaiting else {
                done(Self.busy)
                return false
            }
            waiting.append(Request(key: key, prepare: prepare, done: [done]))
        }
        startNext()
        return true
    }

    /// Whether a request under `key` waits or runs.
    public func isLoading(_ key: String) -> Bool {
        running?.key == key || waiting.contains { $0.key == key }
    }

    private func startNext() {
        while running == nil, !waiting.isEmpty {
            let next = waiting.removeFirst()
            let load = next.prepare()
            guard inBackground, let wakeup else {
                let install = load()
                let result = install()
                for done in next.done { done(result) }
                continue
            }
            running = next
            let work = UncheckedBox(load)
            queue.async { [finished, wakeup] in
                let install = work.value()
                finished.slot.withLock { $0 = UncheckedBox(install) }
                wakeup.signal()
            }
        }
    }

    /// On the loop, when `descriptor` is readable: installs the finished load, tells its
    /// requests, and starts the next.
    func collect() {
        guard let wakeup, let request = running else { return }
        guard let install = finished.slot.withLock({ box -> UncheckedBox<() -> String?>? in
            defer { box = nil }
            return box
        }) else { return }
        _ = wakeup.reset()
        running = nil
        let result = install.value()
        for done in request.done { done(result) }
        startNext()
    }

    /// Waits for the load in progress (at exit in tests; the daemon does not wait).
    func waitUntilIdle() {
        queue.sync {}
    }
}

/// The slot a finished load's installer waits in for the loop.
private final class Handoff: Sendable {
    let slot = Mutex<UncheckedBox<() -> String?>?>(nil)
}

/// A value handed between the loop and the loader's queue, which never touch it at once: the
/// loop hands the work over and takes the result back after the queue has signalled.
struct UncheckedBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

/// The loader on the loop: its wake-up descriptor while a load runs; a finished load is
/// installed right after the wait.
extension SceneLoader: LoopSource {
    package var phase: LoopPhase { .woken }
    package var wakeDescriptors: [FileDescriptor] { descriptor.map { [FileDescriptor(rawValue: $0)] } ?? [] }
    package func nextDeadline(now: Double) -> Double? { nil }
    package func service(now: Double) -> Bool {
        collect()
        return false
    }
}
