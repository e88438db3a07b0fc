import ArgumentParser
import FoundationEssentials
import Lamina
import LaminaSystem
import SystemPackage
import LaminaTools

/// `lamina ctl`: drives a running daemon through its control socket (docs/control.md).
struct ControlCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ctl",
        abstract: "Drive the running daemon through its control socket.",
        discussion: """
            Commands: version, stats, bindings, set NAME VALUE, state NAME, scene NAME|FILE.yaml, \
            reload, screenshot [FILE.png], blank, unblank, brightness LEVEL, language TAG|none, \
            subscribe EVENT… \
            (state, gesture, control, display, scene, all), raw JSON. Exit status 0 when the daemon \
            did it, 1 when it refused (the reason on standard error), 69 when it cannot be reached.
            """)

    @Option(name: .long, help: "The control socket (default: $LAMINA_CONTROL, else /run/lamina/control).")
    var socket: String?

    @Flag(name: .long, help: "Print the daemon's replies as JSON lines.")
    var json = false

    @Argument(help: "The command and its arguments.")
    var words: [String] = []

    func run() throws {
        let request: [String: ControlValue]
        do {
            request = try ControlClient.request(words)
        } catch {
            StandardError.write("lamina ctl: \(error)\n")
            throw ExitCode(64)
        }
        let path = socket ?? ProcessInfo.processInfo.environment["LAMINA_CONTROL"] ?? ControlClient.defaultSocket
        var client: ControlClient
        do {
            client = try ControlClient(path: path)
        } catch {
            StandardError.write("lamina ctl: cannot reach the daemon at \(path): \(error)\n")
            throw ExitCode(69)
        }
        defer { client.close() }
        do {
            let reply = try client.send(request)
            guard reply.object?["ok"] == .bool(true) else {
                if json { print(reply.jsonLine) }
                StandardError.write("lamina ctl: \(reply.object?["error"]?.string ?? reply.jsonLine)\n")
                throw ExitCode(1)
            }
            if words.first == "screenshot", words.count == 2, let shot = reply.object?["path"]?.string {
                try copy(shot, to: words[1])
            }
            let text = json ? reply.jsonLine : ControlClient.humanReadable(reply)
            if !text.isEmpty { _ = try? FileDescriptor.standardOutput.writeAll(Array((text + "\n").utf8)) }
            guard words.first == "subscribe" else { return }
            while true {
                // One JSON line per event, written at once (a pipe to another program sees each).
                let event = try client.nextLine()
                _ = try? FileDescriptor.standardOutput.writeAll(Array((event.jsonLine + "\n").utf8))
            }
        } catch let error as ControlClientError {
            StandardError.write("lamina ctl: \(error)\n")
            throw ExitCode(69)
        }
    }

    /// Copies the daemon's screenshot to the file the user named.
    private func copy(_ source: String, to destination: String) throws {
        let data: [UInt8]
        do {
            data = try InputFile.bytes(atPath: source, limit: 256 << 20)
        } catch {
            throw ControlClientError(reason: "cannot read the screenshot \(source): \(error)")
        }
        do {
            try Data(data).write(to: URL(filePath: destination))
        } catch {
            throw ControlClientError(reason: "cannot write \(destination): \(error)")
        }
    }
}
