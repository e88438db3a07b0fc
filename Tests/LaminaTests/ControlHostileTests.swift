import Foundation
@testable import Lamina
@testable import LaminaSceneFiles
@testable import LaminaControl
@testable import LaminaRuntime
import LaminaRaster
import LaminaSystem
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// What a hostile client of the control socket tried (issue 26), each case a request that
/// once reached outside the daemon's place or was cut short: screenshots over existing files,
/// through links, into FIFOs and devices, paths with NUL, folders the client cannot write.
@Suite("Control socket against hostile requests", .serialized)
struct ControlHostileTests {
    typealias Rig = ControlSocketTests.Rig

    private func ask(_ rig: Rig, _ client: ControlSocketTests.Client, _ request: String) -> [String: ControlValue] {
        client.send(request + "\n")
        rig.turn()
        return client.lines().last { $0.object?["event"] == nil }?.object ?? [:]
    }

    private func screenshot(_ rig: Rig, _ client: ControlSocketTests.Client, _ path: String) -> [String: ControlValue] {
        let quoted = String(decoding: try! JSONEncoder().encode(path), as: UTF8.self)
        return ask(rig, client, ##"{"command": "screenshot", "path": \##(quoted)}"##)
    }

    private static func mode(_ path: String) -> mode_t {
        var info = stat()
        return lstat(path, &info) == 0 ? info.st_mode & 0o7777 : 0
    }

    @Test("a screenshot never opens, follows, truncates or chmods what exists: a file, a link, a FIFO, a device; a new file gets 0640")
    func screenshotsStayInTheirPlace() throws {
        let rig = try Rig()
        let client = try rig.connect()
        let folder = rig.folder
        // An existing file keeps its bytes and its mode.
        let existing = folder + "/kept.txt"
        try "precious".write(toFile: existing, atomically: false, encoding: .utf8)
        chmod(existing, 0o600)
        let reply = screenshot(rig, client, existing)
        #expect(reply["ok"] == .bool(false))
        #expect(reply["error"]?.string == "\(existing) exists: a screenshot is written to a new file, never over one")
        #expect(try String(contentsOfFile: existing, encoding: .utf8) == "precious" && Self.mode(existing) == 0o600)
        // A symbolic link: neither it nor its target is touched.
        let target = folder + "/target.txt", link = folder + "/link.png"
        try "target".write(toFile: target, atomically: false, encoding: .utf8)
        chmod(target, 0o666)
        symlink(target, link)
        #expect(screenshot(rig, client, link)["ok"] == .bool(false))
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "target" && Self.mode(target) == 0o666)
        // A FIFO: refused at once (it used to block the writer for ever), and the next screenshot works.
        let fifo = folder + "/fifo.png"
        mkfifo(fifo, 0o666)
        chmod(fifo, 0o666)
        #expect(screenshot(rig, client, fifo)["ok"] == .bool(false))
        #expect(Self.mode(fifo) == 0o666)
        // A device node keeps its mode.
        #expect(screenshot(rig, client, "/dev/null")["ok"] == .bool(false))
        #expect(Self.mode("/dev/null") == 0o666)
        // NUL is refused, not cut.
        #expect(screenshot(rig, client, folder + "/nul\u{0}.png")["error"] == .string("`path` holds a NUL character"))
        #expect(!FileManager.default.fileExists(atPath: folder + "/nul"))
        // A new file: written, 0640 whatever the umask, the reply names it.
        let fresh = folder + "/fresh.png"
        let written = screenshot(rig, client, fresh)
        #expect(written["ok"] == .bool(true) && written["path"] == .string(fresh))
        #expect(Self.mode(fresh) == 0o640)
        #expect(try RGBAImage.readPNG(from: fresh).width == 400)
        // The default screenshot beside the socket replaces its own directory entry only:
        // a link planted there is replaced, its target untouched.
        unlink(folder + "/screenshot.png")
        symlink(target, folder + "/screenshot.png")
        #expect(ask(rig, client, ##"{"command": "screenshot"}"##)["ok"] == .bool(true))
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "target" && Self.mode(target) == 0o666)
        #expect(Self.mode(folder + "/screenshot.png") == 0o640)
    }

    @Test("a client may have a screenshot written only where it could write itself, or beside the socket")
    func screenshotFolderBelongsToThePeer() throws {
        let rig = try Rig()
        let closed = rig.folder + "/closed", open = rig.folder + "/open"
        mkdir(closed, 0o755)
        mkdir(open, 0o777)
        chmod(open, 0o777)
        let stranger = UnixSocket.Credentials(pid: 1, uid: 54321, gid: 54321)
        func refusal(_ path: String, _ peer: UnixSocket.Credentials?) -> String? {
            if case .failure(let reason)? = rig.runtime.controlPort?.screenshotTarget(.string(path), peer: peer) { return reason.text }
            return nil
        }
        #expect(refusal(closed + "/a.png", stranger) == "you cannot write in \(closed) yourself, so the daemon will not write there for you")
        #expect(refusal(open + "/a.png", stranger) == nil)
        #expect(refusal(rig.folder + "/a.png", stranger) == nil)              // the socket's folder
        #expect(refusal(closed + "/a.png", .init(pid: 1, uid: 0, gid: 0)) == nil)
        #expect(refusal("relative.png", nil) == "`path` is an absolute path of a new file")
        #expect(refusal(rig.folder + "/..", nil) == "`path` is an absolute path of a new file")
        #expect(refusal("/no/such/folder/a.png", nil)?.hasPrefix("cannot write in /no/such/folder") == true)
    }

    @Test("switch-scene with a NUL in its name is refused, not cut")
    func switchSceneNul() throws {
        let rig = try Rig()
        let client = try rig.connect()
        let reply = ask(rig, client, ##"{"command": "switch-scene", "scene": "spinner\u0000.yaml"}"##)
        #expect(reply["error"] == .string("`scene` holds a NUL character"))
        #expect(rig.runtime.scene is FileScene)
    }
}
