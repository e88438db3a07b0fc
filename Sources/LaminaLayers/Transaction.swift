#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import LaminaAnimation
import LaminaRaster

/// Batches layer-tree changes and sets how their implicit animations run (`CATransaction`,
/// rules 36–39).
///
/// Transactions are per thread, as in Core Animation: each thread has its own stack. With
/// none open, changes join the thread's **implicit transaction**, which the frame loop
/// commits in its "before rendering" phase (`LayerTree.commit(at:)`, rule 38). Explicit
/// `begin()` / `commit()` pairs nest; a nested transaction starts from its parent's values
/// and its own changes vanish at its commit (rule 37).
///
/// Engine code never reads a clock, so animations added in any transaction take their begin
/// time when the frame loop commits the tree, not at `commit()` (decision 37).
public enum Transaction {
    /// `animationDuration`: seconds for implicit animations (0.25 with none set).
    public static var animationDuration: Double {
        get { TransactionStack.current.top.duration }
        set { TransactionStack.current.top.duration = newValue }
    }

    /// `animationTimingFunction`: the curve of implicit animations; nil means the `default`
    /// curve (rule 13).
    public static var animationTimingFunction: TimingFunction? {
        get { TransactionStack.current.top.timingFunction }
        set { TransactionStack.current.top.timingFunction = newValue }
    }

    /// `disableActions`: when true, property changes find their actions but do not run them
    /// (rule 40).
    public static var disableActions: Bool {
        get { TransactionStack.current.top.disableActions }
        set { TransactionStack.current.top.disableActions = newValue }
    }

    /// `completionBlock`: runs once every animation added after it was set, in this
    /// transaction and the ones nested in it, has finished or been removed; with none, after
    /// the commit. A replaced block still runs for the animations it already waited on
    /// (rule 39). Always delivered from the frame loop, never inside a call.
    public static var completionBlock: (() -> Void)? {
        get { TransactionStack.current.top.completion?.block }
        set { TransactionStack.current.top.setCompletion(newValue) }
    }

    /// Opens a nested transaction with the current values.
    public static func begin() {
        let stack = TransactionStack.current
        stack.frames.append(stack.top.nested())
    }

    /// Closes the innermost explicit transaction; without one open it does nothing (rule 36).
    public static func commit() {
        let stack = TransactionStack.current
        guard stack.frames.count > 1 else { return }
        stack.frames.removeLast().close(into: stack)
    }

    /// Commits the implicit transaction now: its values reset, and a completion block with
    /// nothing to wait for is queued. Open explicit transactions are untouched.
    public static func flush() {
        TransactionStack.current.commitImplicit()
    }

    /// Core Animation's transaction lock. Layer trees here belong to one thread, so these
    /// only count; they never block and never fail, recursively (rule 36).
    public static func lock() { TransactionStack.current.lockDepth += 1 }
    /// Releases one `lock()`.
    public static func unlock() { TransactionStack.current.lockDepth = max(0, TransactionStack.current.lockDepth - 1) }

    /// The value for `key`: the four named keys read the properties above, any other key what
    /// `setValue(_:forKey:)` stored in this transaction or an enclosing one (rule 36).
    public static func value(forKey key: String) -> Any? {
        let top = TransactionStack.current.top
        switch key {
        case "animationDuration": return top.duration
        case "disableActions": return top.disableActions
        case "animationTimingFunction": return top.timingFunction
        case "completionBlock": return top.completion?.block
        default: return top.values[key]
        }
    }

    /// Sets a value for `key` in the current transaction (the named keys set the properties).
    public static func setValue(_ value: Any?, forKey key: String) {
        let top = TransactionStack.current.top
        switch key {
        case "animationDuration": top.duration = value as? Double ?? 0.25
        case "disableActions": top.disableActions = value as? Bool ?? false
        case "animationTimingFunction": top.timingFunction = value as? TimingFunction
        case "completionBlock": top.setCompletion(value as? () -> Void)
        default: top.values[key] = value
        }
    }

    /// True while an explicit `begin()` is open on this thread.
    public static var isExplicitlyOpen: Bool { TransactionStack.current.frames.count > 1 }

    /// The completion groups an animation added now joins: the current block of every open
    /// transaction, innermost first.
    static func completionGroupsForNewAnimation() -> [CompletionGroup] {
        TransactionStack.current.frames.reversed().compactMap(\.completion)
    }

    /// Callbacks that became due outside any animation (blocks with nothing to wait for),
    /// handed to the frame loop and cleared.
    static func takeDueCallbacks() -> [() -> Void] {
        let stack = TransactionStack.current
        defer { stack.due.removeAll() }
        return stack.due
    }

    /// True when callbacks are waiting for the frame loop.
    static var hasDueCallbacks: Bool { !TransactionStack.current.due.isEmpty }
}

/// A completion block and the animations it waits for (rule 39).
final class CompletionGroup {
    let block: () -> Void
    /// Animations registered and not yet ended.
    var pending = 0
    /// Set when the transaction that set the block has committed.
    var isCommitted = false
    private var hasFired = false

    init(block: @escaping () -> Void) { self.block = block }

    /// The block, once, when its transaction committed and nothing is pending.
    func takeIfDue() -> (() -> Void)? {
        guard isCommitted, pending == 0, !hasFired else { return nil }
        hasFired = true
        return block
    }

    /// One of its animations ended; returns the block when that made it due.
    func animationEnded() -> (() -> Void)? {
        pending = max(0, pending - 1)
        return takeIfDue()
    }
}

/// One open transaction's values.
final class TransactionFrame {
    var duration = 0.25
    var timingFunction: TimingFunction?
    var disableActions = false
    var values: [String: Any] = [:]
    /// The current completion block's group, and every group set in this transaction
    /// (replaced blocks keep waiting).
    private(set) var completion: CompletionGroup?
    private var groups: [CompletionGroup] = []

    func nested() -> TransactionFrame {
        let frame = TransactionFrame()
        frame.duration = duration
        frame.timingFunction = timingFunction
        frame.disableActions = disableActions
        frame.values = values
        return frame
    }

    func setCompletion(_ block: (() -> Void)?) {
        guard let block else { completion = nil; return }
        let group = CompletionGroup(block: block)
        completion = group
        groups.append(group)
    }

    /// Commits this frame: its groups may now fire, the ones waiting on nothing right away
    /// (queued for the frame loop).
    func close(into stack: TransactionStack) {
        for group in groups {
            group.isCommitted = true
            if let block = group.takeIfDue() { stack.due.append(block) }
        }
        groups.removeAll()
        completion = nil
    }
}

/// A thread's layer-tree state: its transactions (the implicit one at the bottom, explicit
/// ones above it), the callbacks due to its frame loop and its default text face.
final class TransactionStack {
    var frames = [TransactionFrame()]
    var due: [() -> Void] = []
    var lockDepth = 0
    /// While a property animator runs its animations block, every model change is reported
    /// here instead of running an action (rule 67).
    var recorder: ((Layer, String, AnimatableValue?) -> Void)?
    /// The block animations running their animations closure, outermost first (rule 68).
    var blockContexts: [(duration: Double, options: AnimationOptions)] = []
    /// The default text face for this thread, loaded on first use.
    lazy var defaultFont: Font? = try? Font()

    var top: TransactionFrame { frames[frames.count - 1] }

    /// Commits the implicit transaction and starts a fresh one.
    func commitImplicit() {
        frames[0].close(into: self)
        let fresh = TransactionFrame()
        frames[0] = fresh
    }

    /// This thread's stack, created on first use.
    static var current: TransactionStack {
        if let raw = pthread_getspecific(threadKey) {
            return Unmanaged<TransactionStack>.fromOpaque(raw).takeUnretainedValue()
        }
        let stack = TransactionStack()
        pthread_setspecific(threadKey, Unmanaged.passRetained(stack).toOpaque())
        return stack
    }

    private static let threadKey: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key) { raw in
            if let raw { Unmanaged<TransactionStack>.fromOpaque(raw).release() }
        }
        return key
    }()
}
