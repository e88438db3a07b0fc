import LaminaGeometry
import LaminaInput
import LaminaLayers
import LaminaRaster

/// The calibration wizard's screen (`lamina calibrate`): a crosshair at each target of a
/// ``CalibrationSession`` in turn, a line saying what to do, and the residuals at the end.
/// A touch's position is its mean over the time the finger is down (a resting finger jitters
/// by a pixel or two); only the first finger counts. When the session has its outcome the
/// scene shows it for ``resultSeconds`` and ends the run.
public final class CalibrationScene: Scene {
    public static let name = "calibration"
    public static let summary = "touch calibration targets (lamina calibrate)"

    /// The session the scene fills in.
    public struct Settings: SceneSettings {
        /// Where the touches and the outcome go.
        public var session: CalibrationSession

        /// Settings recording into `session`.
        public init(session: CalibrationSession) {
            self.session = session
        }

        /// From a config table (which must be empty): a session with the defaults.
        public init(from table: SettingsTable) throws(ConfigError) {
            try table.rejectUnknownKeys()
            session = CalibrationSession()
        }
    }

    /// Seconds the outcome stays on the screen before the run ends.
    public static let resultSeconds = 1.5
    /// The crosshair's arm length and ring radius, in points.
    static let armLength = 28.0, ringRadius = 14.0

    /// The session being filled in.
    public let session: CalibrationSession
    private let context: SceneContext
    private let crosshair = ShapeLayer()
    private let message = TextLayer()
    /// The finger being read: its slot and the running sum and count of its positions (panel pixels).
    private var reading: (slot: Int, sum: Point, count: Int)?
    /// When the outcome has been shown long enough (run's clock).
    private var finishAt = Double.infinity

    public init(context: SceneContext, settings: Settings) {
        self.context = context
        session = settings.session
        session.begin(screenSize: context.screenSize, panelSize: context.panelSize, toPanel: context.panelPoint)

        let surface = Layer()
        surface.bounds = Rect(origin: .zero, size: context.screenSize)
        surface.position = context.center
        surface.backgroundColor = Color(red8: 0x10, green8: 0x12, blue8: 0x16)
        context.rootLayer.addSublayer(surface)

        var path = Path(circleCenter: .zero, radius: Self.ringRadius)
        let arm = Self.armLength
        path.move(to: Point(x: -arm, y: 0))
        path.line(to: Point(x: arm, y: 0))
        path.move(to: Point(x: 0, y: -arm))
        path.line(to: Point(x: 0, y: arm))
        crosshair.path = path
        crosshair.strokeColor = .white
        crosshair.fillColor = nil
        crosshair.lineWidth = 2
        crosshair.bounds = .zero
        surface.addSublayer(crosshair)

        message.fontSize = 28
        message.alignmentMode = .center
        message.foregroundColor = Color(red8: 0xE5, green8: 0xE7, blue8: 0xEB)
        message.bounds = Rect(x: 0, y: 0, width: context.screenSize.width * 0.9, height: 40)
        message.position = Point(x: context.center.x, y: context.screenSize.height * 0.32)
        surface.addSublayer(message)

        context.addTouchHandler(to: surface) { [unowned self] touch in self.handle(touch) }
        show(step: .next(0))
    }

    private func handle(_ touch: Touch) {
        guard session.currentTarget != nil else { return }
        let panel = context.panelPoint(touch.location)
        switch touch.phase {
        case .began where reading == nil:
            reading = (touch.slot, panel, 1)
            setCrosshair(pressed: true)
        case .moved, .stationary:
            guard let r = reading, r.slot == touch.slot else { return }
            reading = (r.slot, r.sum + panel, r.count + 1)
        case .ended:
            guard let r = reading, r.slot == touch.slot else { return }
            reading = nil
            setCrosshair(pressed: false)
            let step = session.record(panel: r.sum * (1 / Double(r.count)))
            show(step: step)
        case .cancelled:
            if reading?.slot == touch.slot { reading = nil; setCrosshair(pressed: false) }
        default:
            break
        }
    }

    private func setCrosshair(pressed: Bool) {
        Transaction.begin()
        Transaction.disableActions = true
        crosshair.strokeColor = pressed ? Color(red8: 0x34, green8: 0xD3, blue8: 0x99) : .white
        crosshair.lineWidth = pressed ? 4 : 2
        Transaction.commit()
    }

    private func show(step: CalibrationSession.Step) {
        Transaction.begin()
        Transaction.disableActions = true
        defer { Transaction.commit() }
        if let index = session.currentTarget {
            crosshair.position = session.targets[index].logical
            crosshair.isHidden = false
            let which = index < 4 ? "Touch the centre of the cross (\(index + 1) of \(session.targets.count))"
                                  : "Now touch the check point (\(index + 1) of \(session.targets.count))"
            if case .retry(let reason) = step {
                message.string = "Missed: \(reason). Again, round \(session.round). " + which
                context.logger.notice("calibration: \(reason); round \(session.round)")
            } else {
                message.string = which
            }
            return
        }
        crosshair.isHidden = true
        switch step {
        case .done(let result):
            let worst = result.residuals.max() ?? 0
            message.string = "Calibrated: the worst target is \(String(cFormat: "%.1f", worst)) px off"
        case .failed(let reason):
            message.string = "Not calibrated: \(reason)"
        default:
            return
        }
        finishAt = context.now + Self.resultSeconds
        context.addDisplayLink { [unowned self] link in
            if link.targetTimestamp >= self.finishAt { self.context.finish() }
        }
    }
}
