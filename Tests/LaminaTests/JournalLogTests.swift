import Foundation
import Lamina
@testable import LaminaSceneFiles
@testable import LaminaRuntime
import Logging
import LaminaTestSupport
import Testing

@Suite("Journal log lines")
struct JournalLogTests {
    @Test("each level carries its syslog priority; one line per event, metadata as key=value")
    func lines() {
        #expect(JournalLogHandler.line(level: .warning, message: "page flip refused", metadata: [:]) == "<4>page flip refused\n")
        #expect(JournalLogHandler.line(level: .info, message: "two\nlines", metadata: ["mode": "1024x768", "card": "card0"])
                == "<6>two lines card=card0 mode=1024x768\n")
        let priorities = [Logger.Level.trace, .debug, .info, .notice, .warning, .error, .critical].map(JournalLogHandler.priority)
        #expect(priorities == [7, 7, 6, 5, 4, 3, 2])
    }

    @Test("under systemd (JOURNAL_STREAM set) the daemon's lines carry priority prefixes")
    func daemonUsesJournalLines() throws {
        let result = try ChildProcessRun.lamina(["run", "--backend", "dummy", "--clock", "virtual", "--exit-after", "0.1"],
                                               environment: ["JOURNAL_STREAM": "8:1234"])
        #expect(result.status == 0)
        #expect(result.stderr.hasPrefix("<6>config configs/lamina.toml\n<6>backend: dummy display"), "\(result.stderr)")
        #expect(!result.stderr.contains("info lamina:"))
    }
}

/// Runs the built `lamina` with extra environment and returns its status and standard error.
enum ChildProcessRun {
    static func lamina(_ arguments: [String], environment: [String: String], directory: String? = nil) throws
        -> (status: Int32, stderr: String) {
        let child = try ChildProcess(CommandLineTests.executable.path, arguments, environment: environment, directory: directory)
        let result = child.finish()
        return (result.status, result.stderr)
    }
}

@Suite("Which configuration the daemon runs on")
struct ConfigAnnouncementTests {
    @Test("the daemon logs the config file it reads, and warns when it finds none and runs on built-in defaults")
    func announced() throws {
        let found = try ChildProcessRun.lamina(["run", "--backend", "dummy", "--clock", "virtual", "--exit-after", "0.1",
                                                "--config", "configs/lamina.toml"], environment: ["JOURNAL_STREAM": "8:1"])
        #expect(found.status == 0 && found.stderr.contains("<6>config configs/lamina.toml\n"))
        #expect(!found.stderr.contains("built-in defaults"))
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("lamina-noconfig-\(getpid())").path
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: empty) }
        let none = try ChildProcessRun.lamina(["run", "--backend", "dummy", "--clock", "virtual", "--exit-after", "0.1"],
                                              environment: ["JOURNAL_STREAM": "8:1"], directory: empty)
        #expect(none.status == 0)
        let defaults = "<4>no config file found (searched configs/lamina.toml, /etc/lamina/lamina.toml): running on built-in defaults\n"
        #expect(none.stderr.hasPrefix(defaults) || FileManager.default.fileExists(atPath: "/etc/lamina/lamina.toml"), "\(none.stderr)")
    }
}
