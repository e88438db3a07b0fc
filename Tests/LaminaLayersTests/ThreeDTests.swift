import Foundation
import Testing
@testable import LaminaAnimation
@testable import LaminaGeometry
@testable import LaminaLayers
@testable import LaminaRaster

private func frame(_ tree: LayerTree, _ t: Double) {
    tree.commit(at: t)
    for callback in tree.updatePresentation(at: t) { callback() }
}

private func render(_ tree: LayerTree, width: Int, height: Int) throws -> PixelBuffer {
    let buffer = PixelBuffer(width: width, height: height)
    Renderer().render(try #require(tree.root.presentation()), into: Canvas(target: buffer), background: .black)
    return buffer
}

/// A square face of `size` centred on its anchor.
private func face(_ size: Double, _ color: Color) -> Layer {
    let layer = Layer()
    layer.bounds = Rect(x: 0, y: 0, width: size, height: size)
    layer.backgroundColor = color
    return layer
}

@Suite("Geometry in 3-D: sublayerTransform, perspective, transform layers (rules 51, 53, 55, 57)")
struct ThreeDTests {
    @Test("sublayerTransform acts about the superlayer's anchor; anchorPointZ shifts the anchor in z (rule 51)")
    func sublayerTransform() throws {
        let parent = Layer()
        parent.bounds = Rect(x: 0, y: 0, width: 100, height: 100)
        parent.sublayerTransform = Transform3D(scaleX: 2, y: 2, z: 1)
        let child = Layer()
        child.bounds = Rect(x: 0, y: 0, width: 10, height: 10)
        child.position = Point(x: 60, y: 50)
        parent.addSublayer(child)
        // The child's centre (5, 5) sits at (60, 50), 10 right of the anchor (50, 50): scaled to 20.
        let centre = try #require(child.transformToSuperlayer().project(Point(x: 5, y: 5)))
        #expect(abs(centre.x - 70) < 1e-12 && abs(centre.y - 50) < 1e-12)
        child.anchorPointZ = 7
        let z = child.transformToSuperlayer().applyHomogeneous(x: 5, y: 5, z: 0).z
        #expect(z == -7)
    }

    @Test("perspective: a square turned 60° about x under m34 = −1/500 has its far edge shorter by the projective ratio (rule 53)")
    func perspective() throws {
        let parent = Layer()
        parent.bounds = Rect(x: 0, y: 0, width: 400, height: 400)
        var perspective = Transform3D.identity
        perspective.m34 = -1.0 / 500
        parent.sublayerTransform = perspective
        let square = face(100, .white)
        square.position = Point(x: 200, y: 200)
        square.transform = Transform3D(rotationAngle: .pi / 3, x: 1, y: 0, z: 1e-300 * 0)
        parent.addSublayer(square)
        let m = square.transformToSuperlayer()
        func edgeLength(_ y: Double) throws -> Double {
            let a = try #require(m.project(Point(x: 0, y: y))), b = try #require(m.project(Point(x: 100, y: y)))
            return abs(b.x - a.x)
        }
        let top = try edgeLength(0), bottom = try edgeLength(100)
        // Rotating about x by 60° moves the edge at y = ±50 to z = ±50·sin 60°; w = 1 − z/500.
        let z = 50 * sin(Double.pi / 3)
        let ratio = max(top, bottom) / min(top, bottom)
        #expect(abs(ratio - (1 + z / 500) / (1 - z / 500)) < 1e-9)
    }

    @Test("a transform layer paints its planes back to front by depth; an ordinary layer keeps array order (rules 54, 55)")
    func depthSorting() throws {
        for keeps3D in [true, false] {
            let root = Layer()
            root.bounds = Rect(x: 0, y: 0, width: 40, height: 40)
            root.anchorPoint = .zero
            let space: Layer = keeps3D ? TransformLayer() : Layer()
            space.bounds = Rect(x: 0, y: 0, width: 40, height: 40)
            space.anchorPoint = .zero
            root.addSublayer(space)
            let near = face(20, Color(red: 1, green: 0, blue: 0)), far = face(20, Color(red: 0, green: 0, blue: 1))
            near.position = Point(x: 20, y: 20)
            far.position = Point(x: 20, y: 20)
            near.transform = Transform3D(translationX: 0, y: 0, z: 10)
            far.transform = Transform3D(translationX: 0, y: 0, z: -10)
            space.addSublayer(near)
            space.addSublayer(far)                                        // later in the array
            let tree = LayerTree(root: root)
            frame(tree, 0)
            let buffer = try render(tree, width: 40, height: 40)
            #expect(buffer[20, 20] == (keeps3D ? 0xFFFF_0000 : 0xFF00_00FF), "transform layer: \(keeps3D)")
        }
    }

    @Test("isDoubleSided false hides a layer turned away; a transform layer is never hit itself (rules 55, 57)")
    func backFaces() throws {
        let root = Layer()
        root.bounds = Rect(x: 0, y: 0, width: 40, height: 40)
        root.anchorPoint = .zero
        let turned = face(20, .white)
        turned.position = Point(x: 20, y: 20)
        turned.transform = Transform3D(rotationAngle: .pi, x: 0, y: 1, z: 0)
        root.addSublayer(turned)
        let tree = LayerTree(root: root)
        frame(tree, 0)
        #expect(try render(tree, width: 40, height: 40)[20, 20] == 0xFFFF_FFFF)
        Transaction.begin()
        Transaction.disableActions = true
        turned.isDoubleSided = false
        Transaction.commit()
        frame(tree, 1)
        #expect(try render(tree, width: 40, height: 40)[20, 20] == 0xFF00_0000)
        let space = TransformLayer()
        space.bounds = Rect(x: 0, y: 0, width: 40, height: 40)
        #expect(!space.contains(Point(x: 5, y: 5)))
    }

    @Test("masksToBounds stops hits on sublayers outside the bounds; without it they are hit (rule 57)")
    func maskedHits() {
        let root = Layer()
        root.bounds = Rect(x: 0, y: 0, width: 100, height: 100)
        root.anchorPoint = .zero
        let clipper = Layer()
        clipper.bounds = Rect(x: 0, y: 0, width: 20, height: 20)
        clipper.anchorPoint = .zero
        let spill = Layer()
        spill.bounds = Rect(x: 0, y: 0, width: 20, height: 20)
        spill.anchorPoint = .zero
        spill.position = Point(x: 30, y: 0)                               // outside the clipper
        clipper.addSublayer(spill)
        root.addSublayer(clipper)
        #expect(root.hitTest(Point(x: 35, y: 5)) === spill)
        clipper.masksToBounds = true
        #expect(root.hitTest(Point(x: 35, y: 5)) === root)
    }

    @Test("acceptance: a stack of spinning cubes of rounded squares in HSB colours, begun staggered, autoreversing; the face nearest the viewer shows")
    func spinningStack() throws {
        let root = Layer()
        root.bounds = Rect(x: 0, y: 0, width: 360, height: 160)
        root.anchorPoint = .zero
        var perspective = Transform3D.identity
        perspective.m34 = -1.0 / 500
        // HSB face colours, one sixth of the hue circle apart (rule 66): exact primaries and mixes.
        let colors = (0..<6).map { Color(hue: Double($0) / 6, saturation: 1, brightness: 1) }
        // Face placements: front, back, right, left, top, bottom (each pushed out by half the size).
        let placements: [Transform3D] = [
            Transform3D(translationX: 0, y: 0, z: 40),
            Transform3D(rotationAngle: .pi, x: 0, y: 1, z: 0).concatenating(Transform3D(translationX: 0, y: 0, z: -40)),
            Transform3D(rotationAngle: .pi / 2, x: 0, y: 1, z: 0).concatenating(Transform3D(translationX: 40, y: 0, z: 0)),
            Transform3D(rotationAngle: -.pi / 2, x: 0, y: 1, z: 0).concatenating(Transform3D(translationX: -40, y: 0, z: 0)),
            Transform3D(rotationAngle: .pi / 2, x: 1, y: 0, z: 0).concatenating(Transform3D(translationX: 0, y: -40, z: 0)),
            Transform3D(rotationAngle: -.pi / 2, x: 1, y: 0, z: 0).concatenating(Transform3D(translationX: 0, y: 40, z: 0)),
        ]
        var cubes: [TransformLayer] = []
        for i in 0..<3 {
            // Each cube in a stage whose perspective vanishes at the cube's centre.
            let stage = Layer()
            stage.bounds = Rect(x: 0, y: 0, width: 120, height: 160)
            stage.position = Point(x: 60 + Double(i) * 120, y: 80)
            stage.sublayerTransform = perspective
            root.addSublayer(stage)
            let cube = TransformLayer()
            cube.bounds = Rect(x: 0, y: 0, width: 80, height: 80)
            cube.position = Point(x: 60, y: 80)
            for (placement, color) in zip(placements, colors) {
                let square = face(80, color)
                square.cornerRadius = 16
                square.position = Point(x: 40, y: 40)
                square.transform = placement
                cube.addSublayer(square)
            }
            stage.addSublayer(cube)
            cubes.append(cube)
        }
        let tree = LayerTree(root: root)
        frame(tree, 100)
        // Staggered begins: absolute layer time (rule 5), 0.3 s apart.
        for (i, cube) in cubes.enumerated() {
            var spin = BasicAnimation(keyPath: "transform.rotation.y", from: .scalar(0), to: .scalar(2 * .pi), duration: 4)
            spin.timing.beginTime = cube.convertTime(100, from: nil) + Double(i) * 0.3
            spin.timing.fillMode = .backwards
            spin.timing.repeatCount = .infinity
            spin.timing.autoreverses = true                                 // infinite autoreversing spins
            cube.add(spin, forKey: "spin")
        }
        frame(tree, 100)
        let begins = cubes.map { $0.animation(forKey: "spin")!.timing.beginTime }
        #expect(zip(begins, [100, 100.3, 100.6]).allSatisfy { abs($0 - $1) < 1e-12 })
        frame(tree, 101)                                                  // turned 90°, 63°, 36°
        for (i, cube) in cubes.enumerated() {
            let angle = 2 * Double.pi * (1 - Double(i) * 0.3) / 4
            let shown = try #require(cube.presentation()).transform
            #expect(zip(shown.entries, Transform3D(rotationAngle: angle, x: 0, y: 1, z: 0).entries).allSatisfy { abs($0 - $1) < 1e-9 })
        }
        // The face whose centre is nearest the viewer at each cube's angle, from the face placements alone.
        let buffer = try render(tree, width: 360, height: 160)
        for (i, cube) in cubes.enumerated() {
            let spin = try #require(cube.presentation()).transform
            let nearest = placements.indices.max { a, b in
                placements[a].concatenating(spin).m43 < placements[b].concatenating(spin).m43
            }!
            let expected = colors[nearest].premultiplied.pixel32
            let centreX = 60 + i * 120, centreY = 80
            #expect(buffer[centreX, centreY] == expected, "cube \(i)")
        }
    }
}
