import Foundation
import LaminaSystem
import LaminaTestSupport
import SystemPackage
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The thin wrappers over system calls (decision 97): each against the kernel's own answer.
@Suite("System call wrappers")
struct SystemWrapperTests {
    /// A new empty folder under the temporary directory, removed by the caller.
    static func folder() throws -> String {
        let path = NSTemporaryDirectory() + "lamina-system-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        return path
    }

    @Test("a lock file is held until its value goes; a second taker is told at once; a missing folder is ENOENT")
    func lockFile() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/lock"
        var first: LockFile? = try LockFile(path: path)
        #expect(throws: LockFile.Failure.held) { try LockFile(path: path) }
        #expect(first?.path == path)
        first = nil
        #expect(Self.waitUntilReleased(path))
        let again = try LockFile(path: path)
        #expect(again.path == path)
        #expect(throws: LockFile.Failure.cannotOpen(.noSuchFileOrDirectory)) { try LockFile(path: dir + "/missing/lock") }
    }

    @Test("a folder watcher reports files written and closed, and files renamed in, each once; a missing folder throws")
    func folderWatcher() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let watcher = try FolderWatcher(folder: dir)
        #expect(watcher.drain().isEmpty)
        Self.write("a", to: dir + "/scene.yaml")
        Self.write("b", to: dir + "/scene.yaml")
        Self.write("c", to: dir + "/.staged")
        #expect(rename(dir + "/.staged", dir + "/other.yaml") == 0)
        #expect(Self.drain(watcher, until: ["scene.yaml", ".staged", "other.yaml"]) == ["scene.yaml", ".staged", "other.yaml"])
        #expect(watcher.drain().isEmpty)
        do {
            _ = try FolderWatcher(folder: dir + "/missing")
            Issue.record("watched a missing folder")
        } catch {
            #expect(error.call == "inotify_add_watch" && error.errno == .noSuchFileOrDirectory)
        }
    }

    /// Waits until no descriptor anywhere holds `path`'s lock, by taking it (blocking) on a
    /// descriptor of its own on another thread and letting it go. A child forked by another
    /// test between its fork and its exec holds a copy of every descriptor, the lock's too,
    /// until the exec closes it (CI's sanitizer run saw the lock still held a moment after
    /// the value went); at most 10 s, a bound for a failure: a lock the value never
    /// releases is never free.
    static func waitUntilReleased(_ path: String) -> Bool {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        let taken = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            if flock(fd, LOCK_EX) == 0 { flock(fd, LOCK_UN) }
            taken.signal()
        }
        guard taken.wait(timeout: .now() + 10) == .success else { return false }
        close(fd)
        return true
    }

    /// Writes `text` to `path` and closes it, the descriptor closed on exec: a process
    /// another test spawns meanwhile must not hold the file open (the close the watcher
    /// reports comes with the last descriptor).
    static func write(_ text: String, to path: String) {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        #expect(fd >= 0)
        let bytes = Array(text.utf8)
        #expect(Glibc.write(fd, bytes, bytes.count) == bytes.count)
        #expect(close(fd) == 0)
    }

    /// Drains `watcher` until it has reported `expected` or stops reporting. A file can
    /// still be open in a child forked by another test between its fork and its exec; its
    /// close comes a moment later, so the test waits for the descriptor (at most 10 s
    /// each time, a bound for a failure, never reached when the events come).
    static func drain(_ watcher: FolderWatcher, until expected: Set<String>) -> Set<String> {
        var names = watcher.drain()
        while !expected.isSubset(of: names) {
            var pending = pollfd(fd: watcher.descriptor.rawValue, events: Int16(POLLIN), revents: 0)
            guard poll(&pending, 1, 10_000) > 0 else { break }
            names.formUnion(watcher.drain())
        }
        return names
    }

    @Test("a signal sent to this thread waits on the signal descriptor, with who sent it")
    func signalDescriptor() throws {
        // Thread-directed: the signal stays with the thread that blocked it (another test
        // thread, where it is not blocked, would take its default action).
        let signals = try SignalDescriptor(watching: [SIGUSR1])
        defer {
            var mask = sigset_t()
            sigemptyset(&mask)
            sigaddset(&mask, SIGUSR1)
            _ = signals.drain()
            pthread_sigmask(SIG_UNBLOCK, &mask, nil)
        }
        #expect(signals.drain().isEmpty)
        #expect(pthread_kill(pthread_self(), SIGUSR1) == 0)
        #expect(signals.drain() == [SignalDescriptor.Arrival(signal: SIGUSR1, fromKernel: false)])
        #expect(signals.drain().isEmpty)
    }

    @Test("a datagram reaches a bound socket whole (sd_notify's transport); an empty or too long address is refused")
    func datagram() throws {
        let listener = try NotifySocketListener()
        #expect(UnixSocket.sendDatagram(Array("READY=1\nSTATUS=ok".utf8), to: Array(listener.path.utf8)))
        #expect(listener.messages() == ["READY=1\nSTATUS=ok"])
        #expect(!UnixSocket.sendDatagram([1], to: []))
        #expect(!UnixSocket.sendDatagram([1], to: Array(repeating: UInt8(ascii: "a"), count: 200)))
        #expect(!UnixSocket.sendDatagram([1], to: Array("/nonexistent-lamina/notify".utf8)))
    }

    @Test("a device that is not a virtual terminal: its VT ioctls fail with ENOTTY, named")
    func notATerminal() throws {
        let terminal = try VirtualTerminal(path: "/dev/null", readOnly: true)
        do {
            _ = try terminal.displayMode()
            Issue.record("/dev/null answered KDGETMODE")
        } catch {
            #expect(error.call == "KDGETMODE" && error.errno == .inappropriateIOCTLForDevice && error.detail == "/dev/null")
        }
        #expect(throws: SystemCallError.self) { try VirtualTerminal(path: "/nonexistent-lamina-tty") }
    }

    @Test("the process's CPU time grows with work and never goes back")
    func processCPUTime() {
        let before = ProcessCPUTime.seconds
        var x = 0.0
        for i in 0..<2_000_000 { x += Double(i).squareRoot() }
        let after = ProcessCPUTime.seconds
        #expect(x > 0 && after > before)
    }

    @Test("a child's output is collected from both pipes, each cut at its limit, the output's limit reported")
    func collectOutput() throws {
        let child = try SpawnedProcess("/bin/sh", ["-c", "printf 'out put'; printf 'error' >&2"])
        let all = child.collectOutput()
        #expect(child.wait() == 0)
        #expect(all.output == Array("out put".utf8) && all.errorOutput == Array("error".utf8) && !all.exceededLimits)

        let chatty = try SpawnedProcess("/bin/sh", ["-c", "printf 'abcdefgh'; printf 'ERRORS' >&2"])
        let cut = chatty.collectOutput(outputLimit: 3, errorLimit: 2)
        chatty.signal(SIGKILL)
        _ = chatty.wait()
        #expect(cut.output == Array("abc".utf8) && cut.exceededLimits)
    }

    @Test("a bound datagram socket receives what sendDatagram sends to its path, and nothing blocks when empty")
    func datagramRoundTrip() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/notify"
        let socket = try UnixSocket.bindDatagram(path: path)
        defer { socket.close(); UnixSocket.removeFile(at: path) }
        var buffer = [UInt8](repeating: 0, count: 64)
        #expect(socket.receive(into: &buffer) == .wouldBlock)
        #expect(!socket.waitUntilReadable(seconds: 0))
        #expect(UnixSocket.sendDatagram(Array("READY=1".utf8), to: Array(path.utf8)))
        #expect(socket.waitUntilReadable(seconds: 5))
        #expect(socket.receive(into: &buffer) == .moved(7) && buffer.prefix(7) == Array("READY=1".utf8)[...])
        #expect(throws: Errno.fileNameTooLong) { try UnixSocket.bindDatagram(path: String(repeating: "x", count: 200)) }
    }
}
