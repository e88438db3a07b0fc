import Foundation
import Testing
@testable import LaminaGeometry

@Suite("Transforms")
struct TransformTests {
    @Test("rotation about z has m11 = cos, m12 = sin, m21 = −sin (conventions)")
    func rotationEntries() {
        let t = Transform3D(rotationAngle: 0.3, x: 0, y: 0, z: 2)
        #expect(abs(t.m11 - cos(0.3)) < 1e-15 && abs(t.m12 - sin(0.3)) < 1e-15)
        #expect(abs(t.m21 + sin(0.3)) < 1e-15 && abs(t.m22 - cos(0.3)) < 1e-15)
        #expect(Transform3D(rotationAngle: 1, x: 0, y: 0, z: 0) == .identity)   // zero axis (rule 52)
    }

    @Test("concatenating applies the receiver first (row vectors)")
    func concatOrder() {
        let move = Transform3D(translationX: 10, y: 0, z: 0)
        let scale = Transform3D(scaleX: 2, y: 2, z: 1)
        #expect(move.concatenating(scale).project(Point(x: 1, y: 1)) == Point(x: 22, y: 2))
        #expect(scale.concatenating(move).project(Point(x: 1, y: 1)) == Point(x: 12, y: 2))
        // CATransform3DTranslate(t, …) applies the translation before t (rule 52).
        #expect(scale.translatedBy(x: 10, y: 0, z: 0) == move.concatenating(scale))
    }

    @Test("concatenating is the row-by-column product to the bit, negative zeros included")
    func concatenationIsTheMatrixProduct() {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            switch state >> 61 {
            case 0: return 0
            case 1: return -0.0
            case 2: return 1
            default: return Double(Int64(bitPattern: state) >> 40) / 4096
            }
        }
        for _ in 0..<500 {
            let a = Transform3D(entries: (0..<16).map { _ in next() }), b = Transform3D(entries: (0..<16).map { _ in next() })
            let x = a.entries, y = b.entries
            var expected = [Double](repeating: 0, count: 16)
            for i in 0..<4 {
                for j in 0..<4 {
                    var sum = 0.0
                    for k in 0..<4 { sum += x[i * 4 + k] * y[k * 4 + j] }
                    expected[i * 4 + j] = sum
                }
            }
            #expect(a.concatenating(b).entries.map(\.bitPattern) == expected.map(\.bitPattern))
        }
    }

    @Test("inverse, and a singular matrix inverts to itself (rule 52)")
    func inverse() {
        let t = Transform3D(rotationAngle: 0.7, x: 1, y: 2, z: 3).translatedBy(x: 5, y: -3, z: 2)
        let product = t.concatenating(t.inverted())
        for (a, b) in zip(product.entries, Transform3D.identity.entries) { #expect(abs(a - b) < 1e-12) }
        let singular = Transform3D(scaleX: 0, y: 1, z: 1)
        #expect(singular.inverted() == singular)
        let affineSingular = AffineTransform(scaleX: 0, y: 1)
        #expect(affineSingular.inverted() == affineSingular)
    }

    @Test("isAffine and the affine part (rule 52)")
    func affine() {
        let a = AffineTransform(rotationAngle: 0.4).translatedBy(x: 3, y: 4)
        let t = Transform3D(a)
        #expect(t.isAffine)
        #expect(t.affineTransform == a)
        var p = Transform3D.identity
        p.m34 = -1.0 / 500
        #expect(!p.isAffine)
        #expect(p.affineTransform == .identity)
        // Both conventions agree on points.
        let q = Point(x: 7, y: -2)
        let viaAffine = a.apply(to: q), via3D = t.project(q)!
        #expect(abs(viaAffine.x - via3D.x) < 1e-12 && abs(viaAffine.y - via3D.y) < 1e-12)
    }

    // Rule 53: a square rotated 60° about x under m34 = −1/500 has its far edge shorter than
    // its near edge by the projective ratio.
    @Test("perspective foreshortening (rule 53)")
    func perspective() {
        var perspective = Transform3D.identity
        perspective.m34 = -1.0 / 500
        let theta = Double.pi / 3
        let t = Transform3D(rotationAngle: theta, x: 1, y: 0, z: 0).concatenating(perspective)
        // Square of side 200 centred at the origin: edges at y = ±100.
        func edgeLength(_ y: Double) -> Double {
            let a = t.project(Point(x: -100, y: y))!, b = t.project(Point(x: 100, y: y))!
            return b.x - a.x
        }
        // After rotation the edge at y has z = y·sin θ; w = 1 − z/500.
        let wTop = 1 - (-100 * sin(theta)) / 500, wBottom = 1 - (100 * sin(theta)) / 500
        #expect(abs(edgeLength(-100) - 200 / wTop) < 1e-9)
        #expect(abs(edgeLength(100) - 200 / wBottom) < 1e-9)
        #expect(edgeLength(-100) < edgeLength(100))
        #expect(abs(edgeLength(-100) / edgeLength(100) - wBottom / wTop) < 1e-12)
    }

    @Test("affine transform of a rect is the bounding box of its corners")
    func rectThroughTransform() {
        let r = AffineTransform(rotationAngle: .pi / 2).apply(to: Rect(x: 0, y: 0, width: 10, height: 4))
        #expect(abs(r.minX + 4) < 1e-12 && abs(r.maxX) < 1e-12 && abs(r.minY) < 1e-12 && abs(r.maxY - 10) < 1e-12)
    }
}

@Suite("Rect")
struct RectTests {
    @Test("containment is half-open (rule 57)")
    func halfOpen() {
        let r = Rect(x: 0, y: 0, width: 10, height: 10)
        #expect(r.contains(Point(x: 0, y: 0)))
        #expect(!r.contains(Point(x: 10, y: 5)))
        #expect(!r.contains(Point(x: 5, y: 10)))
        #expect(r.contains(Point(x: 9.999, y: 9.999)))
    }

    @Test("negative sizes standardize; union and intersection")
    func algebra() {
        let r = Rect(x: 10, y: 10, width: -4, height: -2)
        #expect(r.standardized == Rect(x: 6, y: 8, width: 4, height: 2))
        let a = Rect(x: 0, y: 0, width: 4, height: 4), b = Rect(x: 2, y: 3, width: 5, height: 5)
        #expect(a.union(b) == Rect(x: 0, y: 0, width: 7, height: 8))
        #expect(a.intersection(b) == Rect(x: 2, y: 3, width: 2, height: 1))
        #expect(a.intersection(Rect(x: 5, y: 5, width: 1, height: 1)) == nil)
        #expect(a.inset(by: EdgeInsets(top: 1, left: 1, bottom: 0, right: 2)) == Rect(x: 1, y: 1, width: 1, height: 3))
    }
}
