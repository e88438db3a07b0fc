import Foundation
import Testing
@testable import LaminaAnimation
@testable import LaminaGeometry

@Suite("Transform interpolation by decomposition (rule 20)")
struct TransformInterpolationTests {
    static func close(_ a: Transform3D, _ b: Transform3D, _ tolerance: Double = 1e-9) -> Bool {
        zip(a.entries, b.entries).allSatisfy { abs($0 - $1) < tolerance }
    }

    /// Deterministic pseudo-random numbers in [lo, hi).
    struct Numbers {
        var state: UInt64
        mutating func next(_ lo: Double, _ hi: Double) -> Double {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return lo + (hi - lo) * Double(state >> 11) / Double(1 << 53)
        }
    }

    @Test("2-D: recomposing the decomposition gives the matrix back, reflections included", arguments: 0..<50)
    func roundTrip2D(seed: Int) {
        var n = Numbers(state: UInt64(seed) &+ 11)
        var t = Transform3D.identity
        t.m11 = n.next(-3, 3); t.m12 = n.next(-3, 3); t.m21 = n.next(-3, 3); t.m22 = n.next(-3, 3)
        t.m41 = n.next(-100, 100); t.m42 = n.next(-100, 100)
        #expect(Self.close(Decomposed2D(t).transform, t), "\(t)")
    }

    @Test("3-D: recomposing the decomposition gives the matrix back, perspective included", arguments: 0..<50)
    func roundTrip3D(seed: Int) throws {
        var n = Numbers(state: UInt64(seed) &+ 7)
        var t = Transform3D(rotationAngle: n.next(-3, 3), x: n.next(-1, 1), y: n.next(-1, 1), z: n.next(-1, 1))
            .concatenating(Transform3D(scaleX: n.next(0.2, 3), y: n.next(0.2, 3), z: n.next(-3, -0.2)))
            .concatenating(Transform3D(translationX: n.next(-50, 50), y: n.next(-50, 50), z: n.next(-50, 50)))
        t.m21 += n.next(-0.5, 0.5)                                          // some shear
        if seed % 2 == 0 { t.m34 = -1 / 500 }                                // perspective
        let d = try #require(Decomposed3D(t))
        #expect(Self.close(d.transform, t, 1e-8), "\(t)")
    }

    @Test("rotation 0 → 90° passes through 45° with the scale kept (entrywise would shrink it to 0.707)")
    func rotationMidpoint() {
        let a = Transform3D.identity, b = Transform3D(rotationAngle: .pi / 2, x: 0, y: 0, z: 1)
        let mid = a.interpolated(to: b, by: 0.5)
        #expect(Self.close(mid, Transform3D(rotationAngle: .pi / 4, x: 0, y: 0, z: 1)))
    }

    @Test("2-D angles go the short way: 170° → −170° passes through 180°, not 0°")
    func shortWay() {
        let a = Transform3D(rotationAngle: 170 * .pi / 180, x: 0, y: 0, z: 1)
        let b = Transform3D(rotationAngle: -170 * .pi / 180, x: 0, y: 0, z: 1)
        #expect(Self.close(a.interpolated(to: b, by: 0.5), Transform3D(rotationAngle: .pi, x: 0, y: 0, z: 1)))
    }

    @Test("3-D rotations slerp along the shorter arc: 0 → 90° about x passes 45° about x; −1 dot is a step")
    func slerp() {
        let a = Transform3D.identity
        let b = Transform3D(rotationAngle: .pi / 2, x: 1, y: 0, z: 0)          // not affine: the 3-D path
        #expect(Self.close(a.interpolated(to: b, by: 0.5), Transform3D(rotationAngle: .pi / 4, x: 1, y: 0, z: 0)))
        // 350° about y equals −10°: the shorter arc from 0 passes −5°, not 175°.
        let c = Transform3D(rotationAngle: 350 * .pi / 180, x: 0, y: 1, z: 0)
        #expect(Self.close(a.interpolated(to: c, by: 0.5), Transform3D(rotationAngle: -5 * .pi / 180, x: 0, y: 1, z: 0)))
        // Quaternions q and −q (dot −1) switch at the halfway point (Lamina choice).
        let q = Decomposed3D(b)!
        var negated = q
        negated.quaternion = q.quaternion.map { -$0 }
        #expect(Decomposed3D.interpolate(q, negated, 0.49).quaternion == q.quaternion)
        #expect(Decomposed3D.interpolate(q, negated, 0.5).quaternion == negated.quaternion)
    }

    @Test("scale and translation interpolate linearly; the ends are exact")
    func linearParts() {
        let a = Transform3D(scaleX: 1, y: 2, z: 1).concatenating(Transform3D(translationX: 10, y: 0, z: 0))
        let b = Transform3D(scaleX: 3, y: 4, z: 1).concatenating(Transform3D(translationX: 30, y: 20, z: 0))
        #expect(Self.close(a.interpolated(to: b, by: 0), a))
        #expect(Self.close(a.interpolated(to: b, by: 1), b))
        let mid = a.interpolated(to: b, by: 0.5)
        #expect(Self.close(mid, Transform3D(scaleX: 2, y: 3, z: 1).concatenating(Transform3D(translationX: 20, y: 10, z: 0))))
    }
}
