import Foundation
import Lamina
@testable import LaminaSceneFiles
@testable import LaminaRuntime
import LaminaTools
import LaminaDisplay
import Testing

@Suite("lamina probe")
struct ProbeTests {
    @Test("a card lists its connectors with status and modes, and its CRTCs; input devices come from sysfs")
    func report() throws {
        let device = DummyKMSDevice(clock: VirtualClock())
        let card = ProbeReport.card(path: "dummy", device: device)
        #expect(card.error == nil && !card.crtcs.isEmpty)
        let connector = try #require(card.connectors.first)
        #expect(connector.connected && connector.modes.contains { $0.preferred && $0.width == 1920 && abs($0.refreshHz - 60) < 1e-9 })

        let sysfs = FileManager.default.temporaryDirectory.appendingPathComponent("lamina-probe-\(UUID().uuidString)")
        for (event, name) in [("event10", "Goodix Capacitive TouchScreen"), ("event2", "Power Button")] {
            let dir = sysfs.appendingPathComponent("\(event)/device")
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            try "\(name)\n".write(to: dir.appendingPathComponent("name"), atomically: true, encoding: .utf8)
        }
        defer { try? FileManager.default.removeItem(at: sysfs) }
        let inputs = ProbeReport.inputDevices(sysfs: sysfs.path)
        #expect(inputs.map(\.path) == ["/dev/input/event2", "/dev/input/event10"])     // natural order
        #expect(inputs.last?.name == "Goodix Capacitive TouchScreen")
        let text = ProbeReport(cards: [card], inputDevices: inputs).text
        #expect(text.contains("Virtual-1: connected") && text.contains("@ 60.000 Hz (preferred)"))
        #expect(ProbeReport(cards: [], inputDevices: []).text.contains("no display cards"))
        let framebuffers = [ProbeReport.Framebuffer(path: "/dev/fb0", driver: "simplefb", width: 800, height: 480,
                                                    format: "rgb565", twoScreens: false),
                            ProbeReport.Framebuffer.probe(path: "/dev/lamina-no-fb")]
        let withFB = ProbeReport(cards: [], framebuffers: framebuffers, inputDevices: []).text
        #expect(withFB.contains("/dev/fb0 (simplefb, fbdev): 800x480 rgb565, memory for one screen (single buffered)"))
        #expect(withFB.contains("/dev/lamina-no-fb: open failed: errno 2"))
    }

    @Test("the command prints JSON that decodes back")
    func command() throws {
        let process = Process()
        process.executableURL = CommandLineTests.executable
        process.arguments = ["probe", "--backend", "dummy", "--json"]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let report = try JSONDecoder().decode(ProbeReport.self, from: data)
        #expect(report.cards.contains { $0.path == "dummy" && $0.connectors.first?.connected == true })
    }
}
