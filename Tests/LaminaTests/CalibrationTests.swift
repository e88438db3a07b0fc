import Testing
import Lamina
@testable import LaminaSceneFiles
@testable import LaminaRuntime
import LaminaDisplay
import LaminaGeometry
import LaminaInput
import LaminaTestSupport
import Foundation
import LaminaSystem

/// The calibration wizard (`lamina calibrate`) on the dummy display: a touchscreen whose axes
/// are wired wrong (swapped, scaled, skewed, offset) is simulated by a touch script whose
/// positions are the *device's* readings for each target; the fitted matrix must undo the
/// wiring exactly (an affine map is determined by four points), whatever the rotation.
@Suite("Touch calibration wizard")
struct CalibrationTests {
    /// A panel wired wrong, in libinput's normalised units: device = A·panel + t.
    struct Wiring {
        var a11 = 0.04, a12 = 0.85, a21 = 0.92, a22 = -0.03, tx = 0.05, ty = 0.06

        func device(_ p: Point, panel: Size) -> Point {
            let u = p.x / panel.width, v = p.y / panel.height
            return Point(x: (a11 * u + a12 * v + tx) * panel.width, y: (a21 * u + a22 * v + ty) * panel.height)
        }

        /// The matrix that undoes the wiring: A⁻¹ and −A⁻¹·t, worked out by hand.
        var inverse: CalibrationMatrix {
            let det = a11 * a22 - a12 * a21
            let (i11, i12, i21, i22) = (a22 / det, -a12 / det, -a21 / det, a11 / det)
            return CalibrationMatrix(i11, i12, -(i11 * tx + i12 * ty), i21, i22, -(i21 * tx + i22 * ty))
        }
    }

    /// A 800x480 panel (a 7-inch board's) drawn at `rotation`, the wizard installed, and
    /// `touches` (device positions) replayed 0.6 s apart from 0.5 s.
    final class Rig {
        let rig: DummyDisplayRig
        let runtime: Runtime
        let session: CalibrationSession
        let log = CapturedLog()

        init(rotation: Int = 0, maximumCheckError: Double = 15, attempts: Int = 3) throws {
            rig = try DummyDisplayRig(width: 800, height: 480)
            runtime = rig.makeRuntime(log: log)
            runtime.rotation = rotation
            session = CalibrationSession(maximumCheckError: maximumCheckError, attempts: attempts)
            _ = try runtime.install(CalibrationScene.self, settings: CalibrationScene.Settings(session: session))
        }

        var panel: Size { Size(width: 800, height: 480) }

        func run(touching devicePositions: [Point]) throws -> Runtime.StopReason {
            let lines = devicePositions.enumerated().map { i, p in
                "at \(0.5 + 0.6 * Double(i)) tap \(p.x),\(p.y)"
            }
            let script = try TouchScript(parsing: lines.joined(separator: "\n"))
            runtime.addTouchSource(ScriptedTouchSource(script: script, start: rig.clock.now))
            return runtime.run(exitAfter: 60, untilSettled: true)
        }

        /// Device readings for touches exactly on each target, through `wiring`.
        func touches(_ wiring: Wiring) -> [Point] {
            session.targets.map { wiring.device($0.panel, panel: panel) }
        }
    }

    static func expectClose(_ m: CalibrationMatrix, _ n: CalibrationMatrix, within tolerance: Double = 1e-9,
                            sourceLocation: SourceLocation = #_sourceLocation) {
        let pairs = zip([m.a, m.b, m.c, m.d, m.e, m.f], [n.a, n.b, n.c, n.d, n.e, n.f])
        #expect(pairs.allSatisfy { abs($0 - $1) <= tolerance }, "\(m) vs \(n)", sourceLocation: sourceLocation)
    }

    @Test("targets: four corners inset by an eighth, then the middle, drawn where the panel has them")
    func targets() throws {
        let rig = try Rig()
        #expect(rig.session.targets.map(\.panel) == [Point(x: 100, y: 60), Point(x: 700, y: 60), Point(x: 700, y: 420),
                                                     Point(x: 100, y: 420), Point(x: 400, y: 240)])
        #expect(rig.session.targets.map(\.logical) == rig.session.targets.map(\.panel))
        // The cross of the first target is drawn there: white on the wizard's dark ground.
        rig.runtime.run(exitAfter: 0.1, untilSettled: false)
        let frame = rig.runtime.display.shadow
        #expect(frame[100 + 20, 60] == 0xFFFF_FFFF && frame[100, 60 + 20] == 0xFFFF_FFFF)
        #expect(frame[700 + 20, 60] != 0xFFFF_FFFF)
    }

    @Test("a swapped, scaled, skewed and offset panel: the fitted matrix is the wiring's inverse; every residual is zero")
    func undoesTheWiring() throws {
        let rig = try Rig()
        let wiring = Wiring()
        #expect(try rig.run(touching: rig.touches(wiring)) == .finished)
        guard case .done(let result)? = rig.session.outcome else { Issue.record("\(String(describing: rig.session.outcome))"); return }
        Self.expectClose(result.matrix, wiring.inverse)
        #expect(result.residuals.count == 5 && result.residuals.allSatisfy { $0 < 1e-6 })
        #expect(result.round == 1)
        // Through the matrix a touch anywhere lands where it was made.
        for p in [Point(x: 3, y: 5), Point(x: 640, y: 77), Point(x: 799, y: 479)] {
            let device = wiring.device(p, panel: rig.panel)
            let calibrated = result.matrix.apply(Point(x: device.x / 800, y: device.y / 480))
            #expect(Point(x: calibrated.x * 800, y: calibrated.y * 480).distance(to: p) < 1e-6)
        }
    }

    @Test("a display turned 90° and 270°: targets are laid out upright and converted to the panel, and the matrix still maps device to panel")
    func rotated() throws {
        for rotation in [90, 270] {
            let rig = try Rig(rotation: rotation)
            #expect(rig.runtime.screenSize == Size(width: 480, height: 800))
            let targets = rig.session.targets
            // Upright: the first target is near the top-left of what the viewer sees.
            #expect(targets[0].logical == Point(x: 60, y: 100))
            // On the panel it is the corner the turn takes it to.
            #expect(targets[0].panel.distance(to: rotation == 90 ? Point(x: 700, y: 60) : Point(x: 100, y: 420)) < 1e-9)
            let wiring = Wiring(a11: -0.9, a12: 0.02, a21: 0.01, a22: 0.88, tx: 0.95, ty: 0.07)
            #expect(try rig.run(touching: rig.touches(wiring)) == .finished)
            guard case .done(let result)? = rig.session.outcome else { Issue.record("\(rotation)°: \(rig.log.lines)"); continue }
            Self.expectClose(result.matrix, wiring.inverse)
        }
    }

    @Test("a check point that misses starts the round again; three misses fail; a double touch is not a target")
    func checkPoint() throws {
        let wiring = Wiring()
        do {    // round 1: the check touch is 40 px off; round 2 is good
            let rig = try Rig()
            var touches = rig.touches(wiring)
            let good = touches
            touches[4].x += 40
            #expect(try rig.run(touching: touches + good) == .finished)
            guard case .done(let result)? = rig.session.outcome else { Issue.record("\(rig.log.lines)"); return }
            #expect(result.round == 2)
            #expect(rig.log.lines.contains { $0.contains("the check point landed") && $0.contains("round 2") })
        }
        do {    // every round misses: failed, saying by how much
            let rig = try Rig(maximumCheckError: 5, attempts: 2)
            var touches = rig.touches(wiring)
            touches[4].y += 30
            #expect(try rig.run(touching: touches + touches) == .finished)
            guard case .failed(let reason)? = rig.session.outcome else { Issue.record("\(String(describing: rig.session.outcome))"); return }
            #expect(reason.contains("px from its target (at most 5 px accepted) in each of 2 rounds"), "\(reason)")
        }
        do {    // the first corner touched twice: the second touch is ignored, the rest go on
            let rig = try Rig()
            var touches = rig.touches(wiring)
            touches.insert(touches[0] + Point(x: 3, y: 2), at: 1)
            #expect(try rig.run(touching: touches) == .finished)
            guard case .done(let result)? = rig.session.outcome else { Issue.record("\(rig.log.lines)"); return }
            Self.expectClose(result.matrix, wiring.inverse, within: 1e-9)
        }
    }

    @Test("touches that stop short of five leave no outcome; corners on one line cannot be fitted")
    func incomplete() throws {
        let rig = try Rig()
        let touches = rig.touches(Wiring())
        #expect(try rig.run(touching: Array(touches.prefix(3))) == .settled)
        #expect(rig.session.outcome == nil && rig.session.samples.count == 3)

        let line = try Rig()
        let collinear = (0..<5).map { Point(x: 100 + 150 * Double($0), y: 100 + 60 * Double($0)) }
        #expect(try line.run(touching: collinear) == .finished)
        guard case .failed(let reason)? = line.session.outcome else { Issue.record("\(String(describing: line.session.outcome))"); return }
        #expect(reason.contains("on one line"))
    }
}

/// Where the matrix goes: the config file edited in place (everything else kept), or a udev rule.
@Suite("Calibration output")
struct CalibrationOutputTests {
    let matrix = CalibrationMatrix(0.038304, 1.085291, -0.067033, 1.174668, -0.051073, -0.055669)
    var line: String { "calibration = \"0.038304 1.085291 -0.067033 1.174668 -0.051073 -0.055669\"  # lamina calibrate" }

    @Test("the [input] table's calibration line replaced; added under the header; the table added at the end")
    func editsTheText() {
        let replacing = "[run]\nscene = \"spinner\"\n\n[input]\n# the panel\ncalibration = \"1 0 0 0 1 0\"\nkeyboard_layout = \"us\"\n"
        #expect(CalibrationOutput.settingCalibration(matrix, in: replacing)
                == "[run]\nscene = \"spinner\"\n\n[input]\n# the panel\n\(line)\nkeyboard_layout = \"us\"\n")
        let adding = "[input]   # touch\nkeyboard_layout = \"de\"\n[display]\ncalibration_is_not_here = 1\n"
        #expect(CalibrationOutput.settingCalibration(matrix, in: adding)
                == "[input]   # touch\n\(line)\nkeyboard_layout = \"de\"\n[display]\ncalibration_is_not_here = 1\n")
        let appending = "[run]\nscene = \"ripple\"\n"
        #expect(CalibrationOutput.settingCalibration(matrix, in: appending) == "[run]\nscene = \"ripple\"\n\n[input]\n\(line)\n")
        // A key that merely starts with the word is not the calibration line.
        let lookalike = "[input]\ncalibrations_old = 2\n"
        #expect(CalibrationOutput.settingCalibration(matrix, in: lookalike) == "[input]\n\(line)\ncalibrations_old = 2\n")
    }

    @Test("written in one step with the file's permissions, and read back as the config's matrix; a file that would not load is left alone")
    func writesTheFile() throws {
        let folder = NSTemporaryDirectory() + "lamina-calibration-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/lamina.toml"
        try Data("[run]\nscene = \"spinner\"\n".utf8).write(to: URL(fileURLWithPath: path))
        Paths.setPermissions(path, 0o640)
        try CalibrationOutput.write(matrix, toConfig: path, sceneNames: ["spinner"])
        let config = try LaminaConfig.load(path: path, sceneNames: ["spinner"])
        #expect(config.calibration == matrix.values)
        #expect(Paths.permissions(path) == 0o640)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["lamina.toml"])

        let broken = folder + "/broken.toml"
        let text = "[run]\nscene = \"nowhere\"\n"
        try Data(text.utf8).write(to: URL(fileURLWithPath: broken))
        #expect(throws: ConfigError.self) { try CalibrationOutput.write(matrix, toConfig: broken, sceneNames: ["spinner"]) }
        #expect(try String(contentsOfFile: broken, encoding: .utf8) == text)
        #expect(!FileManager.default.fileExists(atPath: broken + ".lamina-calibrate"))
    }

    @Test("the udev rule sets LIBINPUT_CALIBRATION_MATRIX on touchscreens")
    func udevRule() {
        let rule = CalibrationOutput.udevRule(matrix)
        #expect(rule.contains("ENV{ID_INPUT_TOUCHSCREEN}==\"1\", ENV{LIBINPUT_CALIBRATION_MATRIX}=\"\(matrix)\""))
    }
}
