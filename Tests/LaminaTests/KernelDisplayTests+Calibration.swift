import Lamina
@testable import LaminaSceneFiles
@testable import LaminaRuntime
import LaminaDisplay
import LaminaGeometry
import LaminaInput
import LaminaTestSupport
import Testing

/// The calibration wizard through the real stack: a uinput touchscreen whose controller is
/// wired wrong, libinput reading it through the identity matrix, the wizard on vkms; then the
/// fitted matrix given to libinput, and taps measured where they land.
extension KernelDisplayTests {
    @Test("lamina calibrate's wizard on vkms: a uinput panel with swapped, scaled and skewed 12-bit axes is calibrated by five scripted touches; afterwards taps land within 2 px, under a 90° rotation too")
    func calibrationWizard() throws {
        let screen = try UInputTouchscreen(name: "Lamina miswired touchscreen", width: 1024, height: 768, axisMaximum: (4095, 4095))
        defer { screen.destroy() }
        // The controller reads x from the panel's y and y from its x, each scaled and sheared.
        screen.wiring = { p in
            let u = p.x / 1024, v = p.y / 768
            return Point(x: (0.04 * u + 0.85 * v + 0.05) * 4096, y: (0.92 * u - 0.03 * v + 0.06) * 4096)
        }
        let session = CalibrationSession()
        do {
            let display = try Display(device: try DRMDevice(path: KernelDisplay.card))
            defer { display.close() }
            let log = CapturedLog()
            let runtime = Runtime(display: display, clock: SystemClock(), background: .black, logger: log.logger())
            _ = try runtime.install(CalibrationScene.self, settings: CalibrationScene.Settings(session: session))
            let input = try LibinputSource(backend: .seat("seat0"), panelSize: Size(width: 1024, height: 768),
                                           calibration: CalibrationMatrix.identity.values, log: { [log] in log.logger().info("\($0)") })
            runtime.addTouchSource(input)
            #expect(runtime.run(until: { input.devices.values.contains(screen.name) }), "\(log.lines)")
            for target in session.targets {
                let touches = runtime.stats.touches
                screen.down(at: target.panel)
                runtime.run(exitAfter: 0.06, untilSettled: false)
                screen.up()
                runtime.runUntilLifted(touchesBefore: touches)
            }
            #expect(runtime.run(exitAfter: KernelPacing.patience, untilSettled: false) == .finished, "\(log.lines)")
        }
        guard case .done(let result)? = session.outcome else {
            Issue.record("no calibration: \(String(describing: session.outcome))")
            return
        }
        print("calibration in the VM: matrix \(result.matrix); residuals per target (px) "
              + result.residuals.map { String(cFormat: "%.2f", $0) }.joined(separator: " "))
        #expect(result.residuals.allSatisfy { $0 < 1 }, "\(result.residuals)")

        // The matrix given to libinput: taps land where they are made, upright and turned.
        for rotation in [0, 90] {
            let display = try Display(device: try DRMDevice(path: KernelDisplay.card))
            defer { display.close() }
            let log = CapturedLog()
            let runtime = Runtime(display: display, clock: SystemClock(), background: .black, logger: log.logger())
            runtime.rotation = rotation
            let input = try LibinputSource(backend: .seat("seat0"), panelSize: Size(width: 1024, height: 768),
                                           calibration: result.matrix.values, log: { [log] in log.logger().info("\($0)") })
            runtime.addTouchSource(input)
            var landed: [Point] = []
            runtime.dispatcher.addTouchHandler(to: runtime.rootLayer) { touch in
                if touch.phase == .began { landed.append(touch.location) }
            }
            #expect(runtime.run(until: { input.devices.values.contains(screen.name) }), "\(log.lines)")
            let taps = [Point(x: 12, y: 9), Point(x: 1010, y: 20), Point(x: 512, y: 384), Point(x: 300, y: 700), Point(x: 1000, y: 760)]
            for p in taps {
                let touches = runtime.stats.touches
                screen.down(at: p)
                runtime.run(exitAfter: 0.05, untilSettled: false)
                screen.up()
                runtime.runUntilLifted(touchesBefore: touches)
            }
            #expect(landed.count == taps.count, "\(log.lines)")
            let errors = zip(taps, landed).map { panel, logical in
                runtime.rootLayer.transformToSuperlayer().project(logical).map { $0.distance(to: panel) } ?? .infinity
            }
            print("calibrated taps in the VM at \(rotation)°: errors (px) " + errors.map { String(cFormat: "%.2f", $0) }.joined(separator: " "))
            #expect(errors.allSatisfy { $0 <= 2 }, "\(rotation)°: \(errors)")
        }
    }
}
