import Foundation
import LaminaTestSupport
import Testing
@testable import LaminaBenchmarks
@testable import LaminaGeometry
@testable import LaminaRaster

@Suite("Workload files")
struct WorkloadTests {
    func write(_ json: String) throws -> String {
        let path = NSTemporaryDirectory() + "lamina-workload-\(UUID().uuidString).json"
        try json.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test("ops decode into geometry and render src-over with opacity")
    func render() throws {
        let path = try write("""
            {"format": "raster-bench-workloads/1", "workloads": [
              {"id": "T1", "name": "t", "width": 8, "height": 4, "background": [0, 0, 0, 255], "ops": [
                {"op": "fill_rect", "rect": [0, 0, 4, 4], "color": [255, 0, 0, 255]},
                {"op": "fill_rect", "rect": [2, 0, 6, 4], "color": [255, 255, 255, 255], "opacity": 0.5},
                {"op": "fill_path", "path": {"verbs": "MLLZ", "coords": [6, 0, 8, 0, 8, 4]}, "fill_rule": "evenodd", "color": [0, 0, 255, 255]}
              ]}]}
            """)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let file = try WorkloadFile(path: path)
        let renderer = try #require(WorkloadRenderer(file.workloads[0]))
        renderer.renderFrame()
        #expect(renderer.frame[0, 0] == 0xFFFF_0000)
        #expect(renderer.frame[3, 0] == 0xFFFF_8080)        // 50 % white over red
        #expect(renderer.frame[5, 2] == 0xFF80_8080)        // 50 % white over black
        #expect(renderer.frame[7, 0] & 0xFF > 0x80)         // the blue triangle's corner
    }

    static let prefix = #"{"format": "raster-bench-workloads/1", "workloads": [{"id": "A", "name": "a", "width": 4, "height": 4, "#

    @Test("bad files and ops are refused with where and why", arguments: [
        (#"{"format": "other"}"#, "format"),
        ("[1]", "not an object"),
        (prefix + #""background": [0,0,0,255], "ops": [{"op": "spin"}]}]}"#, "A.ops[0]: unknown op 'spin'"),
        (prefix + #""background": [0,0,0,255], "ops": [{"op": "fill_path", "path": {"verbs": "ML", "coords": [1, 2, 3]}, "color": [0,0,0,255]}]}]}"#, "too few coords"),
        (prefix + #""background": [0,0,300,255], "ops": []}]}"#, "A.background"),
    ])
    func errors(json: String, fragment: String) throws {
        let path = try write(json)
        defer { try? FileManager.default.removeItem(atPath: path) }
        do {
            _ = try WorkloadFile(path: path)
            Issue.record("accepted")
        } catch {
            #expect(error.description.contains(fragment), "\(error)")
            #expect(error.file == path)
        }
    }

    @Test("workloads needing features or files Lamina lacks are reported, not drawn wrong")
    func unsupported() throws {
        let path = try write("""
            {"format": "raster-bench-workloads/1", "workloads": [
              {"id": "S", "name": "s", "width": 4, "height": 4, "background": [0, 0, 0, 255], "ops": [
                {"op": "draw_text", "font": "f", "size": 12, "origin": [0, 0], "text": "a", "color": [0, 0, 0, 255]}]},
              {"id": "V", "name": "v", "width": 4, "height": 4, "background": [0, 0, 0, 255], "requires": ["video"], "ops": []}]}
            """)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let file = try WorkloadFile(path: path)
        #expect(WorkloadRenderer(file.workloads[0], fontPaths: file.fontPaths) == nil)    // font "f" is nowhere
        #expect(WorkloadRenderer.missingFeatures(file.workloads[0]).isEmpty)
        #expect(WorkloadRenderer(file.workloads[1]) == nil)
        #expect(WorkloadRenderer.missingFeatures(file.workloads[1]) == ["video"])
    }
}

@Suite("Procedural images")
struct ProceduralImageTests {
    @Test("checker-gradient-v1 follows its definition, premultiplied with round(C·A/255)")
    func checker() {
        let image = WorkloadFile.checkerGradient()
        #expect(image.width == 256 && image.height == 256)
        // (0, 0): c = 0 → B 64, A 192; R = G = 0.
        #expect(image[0, 0] == 0xC000_0030)                 // 64·192/255 = 48.19 → 48
        // (40, 3): c = 1 → opaque, R = 40, G = 3, B = 255.
        #expect(image[40, 3] == 0xFF28_03FF)
        // (255, 100): x>>5 = 7, y>>5 = 3 → c = 0: R = round(255·192/255) = 192, G = round(100·192/255) = 75.
        #expect(image[255, 100] == 0xC0C0_4B30)
    }
}

@Suite("Banded rendering")
struct BandedRenderingTests {
    @Test("any number of bands renders the same pixels as one thread", arguments: [2, 3, 7])
    func bands(threads: Int) throws {
        let json = """
            {"format": "raster-bench-workloads/1",
             "images": {"checker256": {"width": 256, "height": 256, "recipe": "checker-gradient-v1"}},
             "fonts": {"dejavu-sans": {"search_paths": ["/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"]}},
             "workloads": [{"id": "M", "name": "mixed", "width": 160, "height": 97, "background": [30, 30, 40, 255], "ops": [
               {"op": "fill_circle", "center": [50.3, 40.7], "radius": 33.1, "color": [200, 40, 40, 180]},
               {"op": "fill_rrect", "rect": [70.5, 10.25, 80, 60], "radius": 12, "color": [40, 200, 90, 255]},
               {"op": "stroke_path", "path": {"verbs": "MC", "coords": [5, 90, 40, -20, 120, 120, 155, 5]},
                "width": 5.5, "cap": "round", "join": "round", "miter_limit": 4, "color": [250, 250, 60, 200]},
               {"op": "draw_image", "image": "checker256", "transform": [0.2, 0.1, -0.1, 0.2, 60, 30], "filter": "bilinear", "opacity": 0.8},
               {"op": "draw_text", "font": "dejavu-sans", "size": 14, "origin": [8, 60], "text": "Lamina AV", "color": [255, 255, 255, 255]},
               {"op": "fill_rect", "rect": [0, 0, 160, 97], "color": [0, 0, 255, 255], "opacity": 0.2}]}]}
            """
        let path = NSTemporaryDirectory() + "lamina-bands-\(UUID().uuidString).json"
        try json.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let file = try WorkloadFile(path: path)
        let one = try #require(WorkloadRenderer(file.workloads[0], images: file.images, fontPaths: file.fontPaths))
        let many = try #require(WorkloadRenderer(file.workloads[0], images: file.images, fontPaths: file.fontPaths, threads: threads))
        one.renderFrame()
        many.renderFrame()
        many.renderFrame()                                         // a second frame redraws the same
        let differing = Pixels.differing(one.frame, many.frame)
        #expect(differing == 0)
        #expect(one.frame[50, 40] != 0xFF1E_1E28)                 // something was drawn
    }
}

@Suite("JSON documents")
struct JSONDocumentTests {
    @Test("a document reads into Swift values and writes back with sorted keys")
    func roundTrip() throws {
        let text = #"{"b": [1, 2.5, true, null, "x"], "a": {"n": -3}}"#
        let value = try #require(try JSONDocument.parse(Array(text.utf8)) as? [String: Any])
        let list = try #require(value["b"] as? [Any])
        #expect(list[0] as? Int == 1)
        #expect(list[1] as? Double == 2.5)
        #expect(list[2] as? Bool == true)
        #expect(list[3] is JSONDocument.Null)
        #expect(list[4] as? String == "x")
        #expect(JSONDocument.number(list[0]) == 1 && JSONDocument.number(list[1]) == 2.5 && JSONDocument.number(list[4]) == nil)
        let written = String(decoding: try JSONDocument.encode(value), as: UTF8.self)
        #expect(written.firstRange(of: "\"a\"")!.lowerBound < written.firstRange(of: "\"b\"")!.lowerBound)
        let again = try #require(try JSONDocument.parse(Array(written.utf8)) as? [String: Any])
        #expect((again["a"] as? [String: Any])?["n"] as? Int == -3)
        #expect(throws: (any Error).self) { try JSONDocument.encode(["x": 1 as Float]) }
    }
}
