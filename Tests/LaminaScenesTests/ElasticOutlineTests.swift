#if canImport(Glibc)
import Glibc
#endif
import Lamina
import LaminaScenes
import LaminaTestSupport
import Testing

/// The elastic field's outline stays smooth however its edges bulge (issue 15: no kink where a
/// corner arc meets a bulging edge), and its placeholder shows only while it is empty.
@Suite("Elastic field outline and placeholder")
struct ElasticOutlineTests {
    /// The unit tangent leaving `element` at its start (from `start`) and arriving at its end.
    static func tangents(of element: Path.Element, from start: Point) -> (out: Point, in: Point)? {
        func unit(_ v: Point) -> Point? {
            let l = (v.x * v.x + v.y * v.y).squareRoot()
            return l > 1e-12 ? Point(x: v.x / l, y: v.y / l) : nil
        }
        switch element {
        case .line(let to):
            guard let d = unit(to - start) else { return nil }
            return (d, d)
        case .quad(let c, let to):
            guard let a = unit(c - start) ?? unit(to - start), let b = unit(to - c) ?? unit(to - start) else { return nil }
            return (a, b)
        case .cubic(let c1, let c2, let to):
            guard let a = unit(c1 - start) ?? unit(c2 - start) ?? unit(to - start),
                  let b = unit(to - c2) ?? unit(to - c1) ?? unit(to - start) else { return nil }
            return (a, b)
        case .move, .close:
            return nil
        }
    }

    /// The largest angle (radians) between the tangent arriving at a joint and the one leaving it.
    static func worstTurn(_ path: Path) -> Double {
        var current = Point.zero, subpathStart = Point.zero
        var pieces: [(out: Point, in: Point)] = []
        for element in path.elements {
            switch element {
            case .move(let p): current = p; subpathStart = p
            case .line(let to), .quad(_, let to), .cubic(_, _, let to):
                if let t = tangents(of: element, from: current) { pieces.append(t) }
                current = to
            case .close:
                current = subpathStart
            }
        }
        var worst = 0.0
        for (i, piece) in pieces.enumerated() {
            let next = pieces[(i + 1) % pieces.count]              // closed: the last meets the first
            let cross = piece.in.x * next.out.y - piece.in.y * next.out.x
            let dot = piece.in.x * next.out.x + piece.in.y * next.out.y
            worst = max(worst, abs(atan2(cross, dot)))
        }
        return worst
    }

    @Test("the outline is tangent-continuous at every joint, at rest and however far the edges bulge")
    func smooth() {
        var random = SplitMix64(seed: 15)
        for _ in 0..<500 {
            let size = Size(width: Double.random(in: 80...1600, using: &random), height: Double.random(in: 40...400, using: &random))
            let radius = Double.random(in: 1...(min(size.width, size.height) / 2), using: &random)
            let rest = ElasticField.restPositions(size)
            let across = [Point(x: 0, y: -1), Point(x: 1, y: 0), Point(x: 0, y: 1), Point(x: -1, y: 0)]
            let controls = rest.indices.map { i in rest[i] + across[i] * Double.random(in: -80...80, using: &random) }
            let path = ElasticField.path(size: size, cornerRadius: radius, controls: controls)
            #expect(Self.worstTurn(path) < 1e-9)
        }
    }

    @Test("the measure finds the kink of a quadratic edge through a bulged control point")
    func measureSeesKinks() {
        // The outline before issue 15: the edge a quadratic whose middle passes through the
        // control point, so it leaves the corner at an angle.
        var kinked = Path()
        kinked.move(to: Point(x: 20, y: 0))
        kinked.quad(to: Point(x: 180, y: 0), control: Point(x: 100, y: -20))
        kinked.quad(to: Point(x: 200, y: 20), control: Point(x: 200, y: 0))
        kinked.line(to: Point(x: 200, y: 60))
        kinked.line(to: Point(x: 0, y: 60))
        kinked.line(to: Point(x: 0, y: 20))
        kinked.quad(to: Point(x: 20, y: 0), control: Point(x: 0, y: 0))
        kinked.close()
        #expect(Self.worstTurn(kinked) > 0.1)
    }

    @Test("at rest each edge is straight, through its midpoint")
    func restIsStraight() {
        let size = Size(width: 300, height: 80)
        let path = ElasticField.path(size: size, cornerRadius: 20, controls: ElasticField.restPositions(size))
        for element in path.elements {
            if case .cubic(let c1, let c2, let to) = element {
                #expect(c1.y == to.y && c2.y == to.y || c1.x == to.x && c2.x == to.x)
            }
        }
    }

    @Test("the placeholder shows while the field is empty and hides once text is typed")
    func placeholder() throws {
        let rig = try DummyDisplayRig(width: 400, height: 300, refresh: 60, start: 0)
        let runtime = rig.makeRuntime()
        var settings = ElasticField.Settings()
        settings.size = Size(width: 300, height: 100)
        let scene = try runtime.install(ElasticField.self, settings: settings)
        #expect(scene.placeholderLabel.string == "Tap to type" && !scene.placeholderLabel.isHidden)
        scene.edit(.insert("x"))                                   // no focus yet: ignored
        #expect(!scene.placeholderLabel.isHidden)
        scene.bounce()
        runtime.addTouchSource(ScriptedTouchSource(script: try TouchScript(parsing: "at 0.1 tap 200,150"), start: rig.clock.now))
        #expect(runtime.run(untilSettled: true) == .settled && scene.isFocused)
        scene.edit(.insert("Hi"))
        #expect(scene.placeholderLabel.isHidden)
        scene.edit(.deleteBackward)
        scene.edit(.deleteBackward)
        #expect(!scene.placeholderLabel.isHidden)
    }
}
