import LaminaGeometry
import LaminaInput

/// The touch calibration wizard's progress and arithmetic (`lamina calibrate`): five targets
/// — four corners inset by ``inset`` of the screen, then a check point in the middle — each
/// touched once; the four corners fit libinput's matrix by least squares, and the check point,
/// which the fit never saw, must land within ``maximumCheckError`` pixels of its target
/// through it, else the round starts again (up to ``attempts`` rounds).
///
/// Positions are the panel's pixels (the display's own axes, before Lamina's rotation),
/// because libinput's matrix maps the device onto the panel: the wizard reads touches through
/// the identity matrix, so a touch's panel position *is* the device position scaled to the
/// panel. Targets are laid out upright on the screen (the root layer's space) and converted to
/// the panel by the display's rotation, so a rotated display calibrates the same way.
public final class CalibrationSession {
    /// A place to touch: where it is drawn (upright screen points) and where that is on the panel.
    public struct Target: Equatable, Sendable {
        /// In the root layer's space (where the scene draws it).
        public var logical: Point
        /// On the panel, in pixels (what the matrix must map the device's reading to).
        public var panel: Point
    }

    /// A finished calibration.
    public struct Result: Equatable, Sendable {
        /// The matrix to give libinput (`[input] calibration`, `LIBINPUT_CALIBRATION_MATRIX`).
        public var matrix: CalibrationMatrix
        /// For each target in order, pixels between the target and where the matrix puts the
        /// touch made on it (the corners' least-squares residuals, then the check point's error).
        public var residuals: [Double]
        /// The round that succeeded (1 for the first).
        public var round: Int
    }

    /// What a touch did to the session.
    public enum Step: Equatable, Sendable {
        /// Recorded; the target with this index is next.
        case next(Int)
        /// Too near the touch before it (a double touch on one target): not recorded.
        case ignored
        /// The check point missed: the round starts again (the reason says by how much).
        case retry(String)
        /// All five touched and the check point agreed.
        case done(Result)
        /// Every round missed (or the corners were on one line).
        case failed(String)
    }

    /// How far in from the screen's edges the corner targets are, as a fraction of its width
    /// and height (the usual eighth: far enough in for a finger, near enough to the corners
    /// that the fit sees the whole panel).
    public static let inset = 0.125
    /// The fraction of the panel's shorter side within which a touch counts as a repeat of the
    /// touch before it rather than a new target.
    public static let repeatRadius = 0.1

    /// The check point's largest error in pixels that still accepts the fit.
    public let maximumCheckError: Double
    /// Rounds before the session gives up.
    public let attempts: Int
    /// The five targets (after ``begin(screenSize:panelSize:toPanel:)``).
    public private(set) var targets: [Target] = []
    /// The panel positions touched so far this round.
    public private(set) var samples: [Point] = []
    /// The round under way (1-based).
    public private(set) var round = 1
    /// The outcome once there is one.
    public private(set) var outcome: Step?
    private var panelSize = Size(width: 1, height: 1)

    /// A session accepting a check error up to `maximumCheckError` pixels, for at most `attempts` rounds.
    public init(maximumCheckError: Double = 15, attempts: Int = 3) {
        self.maximumCheckError = maximumCheckError
        self.attempts = max(1, attempts)
    }

    /// Lays out the targets on a screen of `screenSize` points whose root layer maps onto a
    /// panel of `panelSize` pixels by `toPanel`.
    public func begin(screenSize: Size, panelSize: Size, toPanel: (Point) -> Point) {
        self.panelSize = panelSize
        let w = screenSize.width, h = screenSize.height, i = Self.inset
        let logical = [Point(x: w * i, y: h * i), Point(x: w * (1 - i), y: h * i),
                       Point(x: w * (1 - i), y: h * (1 - i)), Point(x: w * i, y: h * (1 - i)),
                       Point(x: w / 2, y: h / 2)]
        targets = logical.map { Target(logical: $0, panel: toPanel($0)) }
        samples = []
        round = 1
        outcome = nil
    }

    /// The index of the target to touch now; nil once finished.
    public var currentTarget: Int? { outcome == nil && !targets.isEmpty ? samples.count : nil }

    /// Records a touch made on the current target at `panel` (pixels, read through the identity matrix).
    @discardableResult
    public func record(panel position: Point) -> Step {
        guard outcome == nil, samples.count < targets.count else { return outcome ?? .ignored }
        let radius = Self.repeatRadius * min(panelSize.width, panelSize.height)
        if let last = samples.last, last.distance(to: position) < radius { return .ignored }
        samples.append(position)
        guard samples.count == targets.count else { return .next(samples.count) }

        let corners = 0..<4
        let raw = samples.map(normalised), wanted = targets.map { normalised($0.panel) }
        guard let matrix = CalibrationMatrix.fit(raw: Array(raw[corners]), target: Array(wanted[corners])) else {
            return finish(.failed("the four corner touches lie on one line; no calibration fits them"))
        }
        let residuals = zip(raw, targets).map { pixels(matrix.apply($0)).distance(to: $1.panel) }
        let check = residuals[4]
        if check <= maximumCheckError {
            return finish(.done(Result(matrix: matrix, residuals: residuals, round: round)))
        }
        let miss = "the check point landed \(String(cFormat: "%.1f", check)) px from its target (at most \(String(cFormat: "%.0f", maximumCheckError)) px accepted)"
        guard round < attempts else { return finish(.failed(attempts == 1 ? miss : miss + " in each of \(attempts) rounds")) }
        round += 1
        samples = []
        return .retry(miss)
    }

    private func finish(_ step: Step) -> Step {
        outcome = step
        return step
    }

    private func normalised(_ p: Point) -> Point {
        Point(x: p.x / panelSize.width, y: p.y / panelSize.height)
    }

    private func pixels(_ p: Point) -> Point {
        Point(x: p.x * panelSize.width, y: p.y * panelSize.height)
    }
}
