import Foundation
import Lamina
@testable import LaminaSceneFiles
@testable import LaminaRuntime
import LaminaGeometry
import LaminaSystem
import Testing

/// The small text and path helpers that replace full Foundation in the daemon (decision 103),
/// against what `printf`, Foundation and POSIX give for the same input.
@Suite("Text and path helpers without Foundation")
struct FoundationFreeTextTests {
    @Test("cFormat formats numbers as printf does, however long the result")
    func cFormat() {
        #expect(String(cFormat: "%.3f", 60.0) == "60.000")
        #expect(String(cFormat: "%.2f Hz", 59.9405) == "59.94 Hz")
        #expect(String(cFormat: "%05d", 42) == "00042")
        #expect(String(cFormat: "%+d KiB, %+.1f %%", -3, 12.25) == "-3 KiB, +12.2 %")
        #expect(String(cFormat: "%g", 300.0) == "300")
        #expect(String(cFormat: "%g", 0.5) == "0.5")
        let long = String(cFormat: "%400d", 7)                              // past the first buffer
        #expect(long.count == 400 && long.hasSuffix(" 7"))
    }

    @Test("padded aligns text left or right and leaves longer text whole")
    func padded() {
        #expect("W1".padded(to: 4) == "W1  ")
        #expect("W1".padded(to: 4, alignRight: true) == "  W1")
        #expect("elastic raster".padded(to: 4) == "elastic raster")
    }

    @Test("trimmed drops blanks at both ends, line breaks only when asked")
    func trimmed() {
        #expect("  a b \t".trimmed() == "a b")
        #expect("\n a \n".trimmed() == "\n a \n".trimmed(newlines: false))
        #expect("\n a \n".trimmed(newlines: true) == "a")
        #expect("   ".trimmed() == "")
        #expect(" x"[...].trimmed() == "x")
    }

    @Test("paths join and split as NSString's path methods did for the daemon's uses")
    func paths() {
        #expect(Paths.joined("frames", "frame-00001.png") == "frames/frame-00001.png")
        #expect(Paths.joined("frames/", "a.png") == "frames/a.png")
        #expect(Paths.joined("", "touch.script") == "touch.script")
        #expect(Paths.joined("/etc/lamina", "/abs/touch") == "/abs/touch")
        #expect(Paths.directory(of: "/etc/lamina/lamina.toml") == "/etc/lamina")
        #expect(Paths.directory(of: "lamina.toml") == "")
        #expect(Paths.isDirectory("/") == true)
        #expect(Paths.isDirectory("/proc/self/status") == false)
        #expect(Paths.isDirectory("/nonexistent-\(UInt64.random(in: 0...UInt64.max))") == nil)
    }

    @Test("no module the daemon links imports full Foundation (decision 103): only the tests' support does")
    func noFullFoundation() throws {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources")
        let files = FileManager.default.enumerator(atPath: sources.path)?.compactMap { $0 as? String }
            .filter { $0.hasSuffix(".swift") && !$0.hasPrefix("LaminaTestSupport/") } ?? []
        #expect(files.count > 100)
        for file in files {
            let text = try String(contentsOfFile: sources.appendingPathComponent(file).path, encoding: .utf8)
            let imports = text.split(separator: "\n").filter { line in
                let words = line.split(separator: " ")
                return words.contains("import") && words.contains { $0 == "Foundation" || $0.hasPrefix("Foundation.") }
            }
            #expect(imports.isEmpty, "\(file): \(imports)")
        }
    }
}
