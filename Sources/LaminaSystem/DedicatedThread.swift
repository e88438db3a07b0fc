import CLinux
#if canImport(Glibc)
import Glibc
#endif

/// A thread of its own for work that blocks for as long as it lives (a video decoder's loop,
/// waiting on GStreamer and on room in its queue), so it never holds one of libdispatch's
/// shared workers; named, so `top -H` and `ps -L` show what it is.
public enum DedicatedThread {
    /// Starts a detached thread named `name` (at most 15 bytes are kept, the kernel's limit)
    /// running `body`; throws when the thread cannot be made (`pthread_create`'s error).
    public static func start(named name: String, _ body: @escaping @Sendable () -> Void) throws(SystemCallError) {
        let box = Unmanaged.passRetained(Body(run: body, name: String(decoding: name.utf8.prefix(15), as: UTF8.self)))
        var thread = pthread_t()
        let result = pthread_create(&thread, nil, { argument in
            let body = Unmanaged<Body>.fromOpaque(argument!).takeRetainedValue()
            _ = lamina_set_thread_name(body.name)
            body.run()
            return nil
        }, box.toOpaque())
        guard result == 0 else {
            box.release()
            throw SystemCallError(call: "pthread_create", errno: result, detail: name)
        }
        pthread_detach(thread)
    }

    /// What the thread runs, carried across `pthread_create`.
    private final class Body {
        let run: @Sendable () -> Void
        let name: String
        init(run: @escaping @Sendable () -> Void, name: String) {
            self.run = run
            self.name = name
        }
    }
}
