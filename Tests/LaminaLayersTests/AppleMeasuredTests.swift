import Foundation
import Testing
@testable import LaminaAnimation
@testable import LaminaGeometry
@testable import LaminaLayers

/// The Apple-measured rows (Fixtures/apple-measured-timing.json), sampled the way they were
/// measured on QuartzCore: the layer in a live tree at speed 0, the animation added and
/// committed, then timeOffset = t, commit, read presentation() ("How to test these rules").
@Suite("Apple-measured timing rows through the speed-0 sampling technique (rules 3, 8, 9)")
struct AppleMeasuredTests {
    struct Row: Decodable {
        var source: String
        var timing: [String: Double]
        var fillMode: String
        var times: [Double]
        var expected: [Double]
    }

    @Test("every row")
    func rows() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Fixtures/apple-measured-timing.json")
        struct File: Decodable { var rows: [Row] }
        let rows = try JSONDecoder().decode(File.self, from: Data(contentsOf: url)).rows
        #expect(rows.count == 11)
        for row in rows {
            let root = Layer(), layer = Layer()
            root.addSublayer(layer)
            let tree = LayerTree(root: root)
            Transaction.begin()
            Transaction.disableActions = true
            layer.opacity = 0.5
            layer.speed = 0
            Transaction.commit()
            tree.commit(at: 100)
            tree.updatePresentation(at: 100)
            var a = BasicAnimation(keyPath: "opacity", from: .scalar(0), to: .scalar(1), duration: row.timing["duration"] ?? 1)
            a.isRemovedOnCompletion = false
            a.timing.fillMode = FillMode(rawValue: row.fillMode)!
            if let v = row.timing["beginTime"] { a.timing.beginTime = v }
            if let v = row.timing["speed"] { a.timing.speed = v }
            if let v = row.timing["timeOffset"] { a.timing.timeOffset = v }
            if let v = row.timing["repeatCount"] { a.timing.repeatCount = v }
            if let v = row.timing["repeatDuration"] { a.timing.repeatDuration = v }
            if row.timing["autoreverses"] != nil { a.timing.autoreverses = true }
            layer.add(a, forKey: "sample")
            tree.commit(at: 100)
            tree.updatePresentation(at: 100)
            for (t, expected) in zip(row.times, row.expected) {
                Transaction.begin()
                Transaction.disableActions = true
                layer.timeOffset = t
                Transaction.commit()
                tree.commit(at: 100)
                tree.updatePresentation(at: 100)
                let shown = try #require(layer.presentation()).opacity
                #expect(abs(shown - expected) < 1e-9, "\(row.source) at t = \(t): \(shown)")
            }
        }
    }
}
