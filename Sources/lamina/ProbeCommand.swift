import ArgumentParser
import FoundationEssentials
import Lamina
import LaminaTools
import LaminaDisplay

/// `lamina probe`: what this machine offers Lamina — cards, connectors and their modes,
/// CRTCs, framebuffer devices, input devices — as text or JSON.
struct ProbeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "probe",
        abstract: "List display cards (connectors, modes, CRTCs), framebuffer devices, input devices and GStreamer's video decoders.",
        discussion: "With --backend dummy the dummy display is listed as a card too (what tests and machines without a display use).")

    @Flag(name: .long, help: "Print JSON.")
    var json = false

    @Option(name: .long, help: "Also list this backend's device: dummy.")
    var backend: String?

    func run() throws {
        var cards = DRMDevice.cardPaths().map { path -> ProbeReport.Card in
            do {
                let device = try DRMDevice(path: path)
                return ProbeReport.card(path: path, device: device)
            } catch {
                return ProbeReport.Card(path: path, error: "\(error)", connectors: [], crtcs: [])
            }
        }
        if let backend {
            guard backend == "dummy" else { throw ValidationError("--backend takes dummy") }
            cards.append(ProbeReport.card(path: "dummy", device: DummyKMSDevice(clock: VirtualClock())))
        }
        let framebuffers = ProbeReport.Framebuffer.paths().map { ProbeReport.Framebuffer.probe(path: $0) }
        var decoders: [ProbeReport.VideoDecoder] = [], videoError: String?
        do {
            decoders = try VideoDecoderInfo.available().map { ProbeReport.VideoDecoder(name: $0.name, rank: $0.rank, hardware: $0.isHardware) }
        } catch {
            videoError = error.description
        }
        let report = ProbeReport(cards: cards, framebuffers: framebuffers, inputDevices: ProbeReport.inputDevices(),
                                 videoDecoders: decoders, videoError: videoError)
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            print(String(decoding: try encoder.encode(report), as: UTF8.self))
        } else {
            print(report.text)
        }
    }
}
