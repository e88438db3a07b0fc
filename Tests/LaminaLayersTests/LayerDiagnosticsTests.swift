import LaminaAnimation
import LaminaGeometry
@testable import LaminaLayers
import Synchronization
import Testing

/// What debug builds say about mistakes Core Animation ignores (issue 30).
@Suite("Layer diagnostics", .serialized)
struct LayerDiagnosticsTests {
    /// Messages from this file, gathered.
    private static let heard = Mutex<[String]>([])

    private func listen() {
        LayerDiagnostics.setHandler { message in
            if message.contains("LayerDiagnosticsTests") { Self.heard.withLock { $0.append(message) } }
        }
    }

    private func messages() -> [String] { Self.heard.withLock { $0 } }

    @Test("an unknown key path, a value of another kind and a layer in no tree are each said once per call site, with a hint")
    func saidOncePerSite() {
        #expect(LayerDiagnostics.isEnabled)             // the tests are a debug build
        listen()
        let root = Layer()
        let tree = LayerTree(root: root)
        let shape = ShapeLayer()
        root.addSublayer(shape)
        let before = messages().count
        for _ in 0..<3 {
            shape.add(BasicAnimation(keyPath: "strokend", from: .scalar(0), to: .scalar(1), duration: 1), forKey: "draw")
        }
        var said = Array(messages().dropFirst(before))
        #expect(said.count == 1)
        #expect(said.first?.contains("ShapeLayer has no animatable property 'strokend' (did you mean 'strokeEnd'?)") == true, "\(said)")
        shape.add(BasicAnimation(keyPath: "opacity", to: .point(Point(x: 1, y: 1)), duration: 1), forKey: "fade")
        said = Array(messages().dropFirst(before))
        #expect(said.count == 2 && said.last?.contains("'opacity' of ShapeLayer holds a number, not a point") == true, "\(said)")
        let loose = Layer()
        loose.add(BasicAnimation(keyPath: "opacity", to: .scalar(0), duration: 1), forKey: "fade")
        said = Array(messages().dropFirst(before))
        #expect(said.count == 3 && said.last?.contains("which is in no tree, stops at once") == true, "\(said)")
        shape.add(BasicAnimation(keyPath: "strokeEnd", from: .scalar(0), to: .scalar(1), duration: 1), forKey: "ok")
        #expect(messages().count == before + 3)          // a right one says nothing
        _ = tree
    }
}
