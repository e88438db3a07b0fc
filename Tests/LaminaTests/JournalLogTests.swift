import Lamina
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
        #expect(result.stderr.hasPrefix("<6>backend: dummy display"), "\(result.stderr)")
        #expect(!result.stderr.contains("info lamina:"))
    }
}

/// Runs the built `lamina` with extra environment and returns its status and standard error.
enum ChildProcessRun {
    static func lamina(_ arguments: [String], environment: [String: String]) throws -> (status: Int32, stderr: String) {
        let child = try ChildProcess(CommandLineTests.executable.path, arguments, environment: environment)
        let result = child.finish()
        return (result.status, result.stderr)
    }
}
