import Foundation
import Lamina
@testable import LaminaSceneFiles
@testable import LaminaRuntime
import LaminaDisplay
import LaminaGeometry
import LaminaInput
import LaminaRaster
import LaminaScenes
import LaminaTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// SIGHUP reloads (issue 7): the scene and live settings change between two frames; a bad
/// file changes nothing.
@Suite("Configuration reload")
struct ReloadTests {
    private func write(_ text: String) throws -> String {
        let path = NSTemporaryDirectory() + "lamina-reload-\(UUID().uuidString.prefix(8)).toml"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    private static let first = """
        [display]
        background = "#000000"
        [elastic_field]
        fill_color = "#FF0000"
        width = 200
        height = 100
        """

    @Test("a good file swaps the scene and live settings between two frames; device keys wait for a restart; a bad file changes nothing")
    func reloadInProcess() throws {
        let rig = try DummyDisplayRig(width: 400, height: 300, refresh: 60, start: 0)
        let log = CapturedLog()
        let runtime = rig.makeRuntime(log: log)
        let path = try write(Self.first)
        defer { unlink(path) }
        let catalog = Gallery.registry
        var running = try Daemon.check(path: path, catalog: catalog)
        try catalog.install(scene: running.scene, settings: running.settings(forScene: running.scene), in: runtime)
        runtime.addTouchSource(ScriptedTouchSource(script: try TouchScript(parsing: "at 0.1 tap 200,150"), start: 0))
        runtime.run(exitAfter: 0.3, untilSettled: false)                    // the field is wobbling
        #expect(rig.display.shadow[200, 150] == 0xFFFF_0000)

        try """
            [display]
            background = "#0000FF"
            blank_after = 30
            mode = "800x600"
            [elastic_field]
            fill_color = "#00FF00"
            width = 100
            height = 50
            """.write(toFile: path, atomically: true, encoding: .utf8)
        let reloadedAt = rig.clock.now
        running = Daemon.reload(path: path, running: running, runtime: runtime, catalog: catalog, logger: log.logger())
        #expect(runtime.run(untilSettled: true) == .settled)
        #expect(rig.display.shadow[200, 150] == 0xFF00_FF00 && rig.display.shadow[10, 10] == 0xFF00_00FF)
        #expect(runtime.blankAfter == 30 && running.mode == .preferred)     // the mode waits for a restart
        #expect(log.count(containing: "configuration reloaded from \(path): scene elastic-field; display.mode take effect at the next start") == 1)
        // No frame lost: the first flip after the reload is the next vblank after the last one.
        let flips = runtime.recentFlipTimestamps
        let before = try #require(flips.last { $0 <= reloadedAt }), after = try #require(flips.first { $0 > reloadedAt })
        #expect(abs(after - before - rig.display.frameDuration) < 1e-9)
        #expect(rig.display.missedVBlanks == 0)

        let shown = rig.display.shadow.copy()
        try "[elastic_field]\nfill_color = \"green\"\n".write(toFile: path, atomically: true, encoding: .utf8)
        let kept = Daemon.reload(path: path, running: running, runtime: runtime, catalog: catalog, logger: log.logger())
        #expect(runtime.run(untilSettled: true) == .settled)
        #expect(kept.settings(forScene: "elastic-field").file == running.settings(forScene: "elastic-field").file)
        #expect(log.count(containing: "reload rejected, keeping the running configuration: \(path):2: elastic_field.fill_color") == 1)
        #expect(Pixels.differing(rig.display.shadow, shown) == 0)
    }

    @Test("SIGHUP reloads the running daemon: STATUS says reloaded, then rejected for a bad file; SIGTERM still ends it cleanly")
    func sighup() throws {
        let path = try write("[display]\nbackend = \"dummy\"\nconsole = \"none\"\n" + Self.first.replacingOccurrences(of: "[display]\n", with: ""))
        defer { unlink(path) }
        let listener = try NotifySocketListener()
        let daemon = try ChildProcess(CommandLineTests.executable.path, ["run", "--config", path, "--exit-after", "30"],
                                      environment: ["NOTIFY_SOCKET": listener.path])
        #expect(listener.wait(for: "READY=1", limit: 20))
        try "[display]\nbackend = \"dummy\"\n[elastic_field]\nfill_color = \"#00FF00\"\n".write(toFile: path, atomically: true, encoding: .utf8)
        daemon.signal(SIGHUP)
        let reloaded = listener.wait(for: "STATUS=reloaded", limit: 10)
        try "[display]\nrotation = 45\n".write(toFile: path, atomically: true, encoding: .utf8)
        daemon.signal(SIGHUP)
        let rejected = listener.wait(for: "STATUS=reload rejected", limit: 10)
        daemon.signal(SIGTERM)
        let result = daemon.finish()
        #expect(reloaded && rejected, "\(result.stderr)")
        #expect(result.status == 0 && result.stderr.contains("stopped (signal)"), "\(result.stderr)")
        #expect(result.stderr.contains("reload rejected, keeping the running configuration: \(path):2: display.rotation"))
    }

    @Test("on the virtual clock SIGUSR2 is ignored without a VT, SIGUSR1 logs the stats and SIGTERM stops cleanly with them (not the default action), mid-run")
    func virtualClockSignals() throws {
        let path = try write("[display]\nbackend = \"dummy\"\nclock = \"virtual\"\nconsole = \"none\"\n")
        defer { unlink(path) }
        // A day-long drag: millions of events, a run far longer than the test waits.
        let script = path + ".touch"
        try "at 0 drag 100,100 1800,900 over 86400\n".write(toFile: script, atomically: true, encoding: .utf8)
        defer { unlink(script) }
        let listener = try NotifySocketListener()
        let daemon = try ChildProcess(CommandLineTests.executable.path, ["run", "--config", path, "--touch-script", script],
                                      environment: ["NOTIFY_SOCKET": listener.path])
        #expect(listener.wait(for: "READY=1", limit: 20))
        daemon.signal(SIGUSR2)                          // no VT taken: ignored, not a pause
        daemon.signal(SIGUSR1)
        daemon.signal(SIGTERM)
        let result = daemon.finish()
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("stopped (signal)") && result.stderr.contains("stats: "), "\(result.stderr)")
        #expect(result.stderr.contains("SIGUSR2 ignored: Lamina is not switching a VT"), "\(result.stderr)")
    }
}
