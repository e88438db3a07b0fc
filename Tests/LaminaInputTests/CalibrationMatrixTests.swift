import LaminaGeometry
import LaminaInput
import Testing

/// The least-squares fit behind touch calibration (issue 16): exact samples give back the
/// matrix that made them; noise gives the fit whose residuals are smallest.
@Suite("Calibration matrix fit")
struct CalibrationMatrixTests {
    @Test("samples made by a skewed, scaled and swapped matrix give it back", arguments: [
        CalibrationMatrix(0, 1, 0, 1, 0, 0),                      // axes swapped
        CalibrationMatrix(-1, 0, 1, 0, 1, 0),                     // x mirrored
        CalibrationMatrix(0.03, 1.12, -0.06, 1.18, 0.02, -0.1),   // swapped, scaled, skewed, offset
        CalibrationMatrix(0, -1, 1, 1, 0, 0),                     // a quarter turn
    ])
    func exact(matrix: CalibrationMatrix) throws {
        let raw = [Point(x: 0.1, y: 0.1), Point(x: 0.9, y: 0.12), Point(x: 0.88, y: 0.9), Point(x: 0.1, y: 0.85)]
        let fitted = try #require(CalibrationMatrix.fit(raw: raw, target: raw.map(matrix.apply)))
        for (u, v) in zip([fitted.a, fitted.b, fitted.c, fitted.d, fitted.e, fitted.f],
                          [matrix.a, matrix.b, matrix.c, matrix.d, matrix.e, matrix.f]) {
            #expect(abs(u - v) < 1e-9)
        }
    }

    @Test("with noise, the fit's squared error is no larger than the true matrix's, and moving any number makes it larger")
    func leastSquares() throws {
        let truth = CalibrationMatrix(1.1, 0.05, -0.05, -0.02, 0.95, 0.03)
        let raw = [Point(x: 0.1, y: 0.1), Point(x: 0.9, y: 0.1), Point(x: 0.9, y: 0.9), Point(x: 0.1, y: 0.9), Point(x: 0.5, y: 0.5)]
        let noise = [Point(x: 0.004, y: -0.003), Point(x: -0.002, y: 0.005), Point(x: 0.001, y: 0.002),
                     Point(x: -0.005, y: -0.001), Point(x: 0.003, y: 0.004)]
        let target = zip(raw, noise).map { p, n in let t = truth.apply(p); return Point(x: t.x + n.x, y: t.y + n.y) }
        let fitted = try #require(CalibrationMatrix.fit(raw: raw, target: target))
        func error(_ m: CalibrationMatrix) -> Double {
            zip(raw, target).reduce(0) { sum, pair in
                let p = m.apply(pair.0)
                return sum + (p.x - pair.1.x) * (p.x - pair.1.x) + (p.y - pair.1.y) * (p.y - pair.1.y)
            }
        }
        #expect(error(fitted) <= error(truth))
        for keyPath in [\CalibrationMatrix.a, \.b, \.c, \.d, \.e, \.f] {
            for step in [1e-4, -1e-4] {
                var moved = fitted
                moved[keyPath: keyPath] += step
                #expect(error(moved) > error(fitted))
            }
        }
    }

    @Test("fewer than three samples, or samples on one line, have no fit")
    func degenerate() {
        #expect(CalibrationMatrix.fit(raw: [Point(x: 0, y: 0), Point(x: 1, y: 1)], target: [Point(x: 0, y: 0), Point(x: 1, y: 1)]) == nil)
        let line = [Point(x: 0.1, y: 0.1), Point(x: 0.5, y: 0.5), Point(x: 0.9, y: 0.9)]
        #expect(CalibrationMatrix.fit(raw: line, target: line) == nil)
        #expect(CalibrationMatrix.identity.description == "1.000000 0.000000 0.000000 0.000000 1.000000 0.000000")
    }
}
