import LaminaGeometry
import LaminaInput

/// Where `lamina calibrate` puts the matrix it fits.
public enum CalibrationDestination: Sendable {
    /// `[input] calibration` in the config file (printed when there is none).
    case config
    /// A udev rule on standard output.
    case udevRule
    /// Only the matrix and residuals on standard output.
    case printOnly
}

extension LaminaProgram {
    /// Runs the calibration wizard on the configured display and input (`lamina calibrate`),
    /// prints each target's residual and the matrix, and writes it to `destination`. Returns
    /// 0 when calibrated, 1 when not (the check point kept missing, the run was stopped, a
    /// touch script ended early), 78 for a bad config, 69 with no display.
    public static func calibrate(_ options: DaemonOptions, session: CalibrationSession, destination: CalibrationDestination,
                                 scenes: SceneRegistry, label: String, print: (String) -> Void = { Swift.print($0) }) -> Int32 {
        var options = options
        options.calibration = session
        options.scene = nil
        let logger = LaminaLogging.bootstrap(label: label, verbose: false)
        let summary: RunSummary
        do {
            summary = try Daemon.run(options, catalog: scenes, logger: logger)
        } catch let error as ConfigError {
            return report(label, "bad configuration: \(error)", status: ConfigError.exitStatus)
        } catch let error as BackendError {
            return report(label, error.description, status: BackendError.exitStatus)
        } catch {
            return report(label, "\(error)", status: 1)
        }
        switch session.outcome {
        case .done(let result)?:
            for (index, (target, residual)) in zip(session.targets, result.residuals).enumerated() {
                let name = index < 4 ? "target \(index + 1)" : "check point"
                print("\(name) at \(String(cFormat: "%.0f,%.0f", target.panel.x, target.panel.y)) px: \(String(cFormat: "%.2f", residual)) px off")
            }
            print("matrix: \(result.matrix)")
            return save(result.matrix, options: options, destination: destination, scenes: scenes, label: label, print: print)
        case .failed(let reason)?:
            return report(label, "not calibrated: \(reason)", status: 1)
        default:
            let touched = session.samples.count
            let why = summary.stopReason == .signal ? "stopped" : "the touches ended"
            return report(label, "not calibrated: \(why) after \(touched) of \(session.targets.count) targets", status: 1)
        }
    }

    private static func save(_ matrix: CalibrationMatrix, options: DaemonOptions, destination: CalibrationDestination,
                             scenes: SceneRegistry, label: String, print: (String) -> Void) -> Int32 {
        switch destination {
        case .printOnly:
            return 0
        case .udevRule:
            print(CalibrationOutput.udevRule(matrix))
            return 0
        case .config:
            guard let path = options.configFile else {
                print("no config file: add to one")
                print("[input]\ncalibration = \"\(matrix)\"")
                return 0
            }
            do {
                try CalibrationOutput.write(matrix, toConfig: path, sceneNames: scenes.sceneNames)
            } catch {
                return report(label, "cannot write the calibration to \(path): \(error)", status: 1)
            }
            print("wrote [input] calibration to \(path); it applies when lamina next starts")
            return 0
        }
    }
}
