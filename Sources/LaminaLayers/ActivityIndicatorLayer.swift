import LaminaAnimation
import LaminaGeometry
import LaminaRaster

/// A spinning activity indicator (`UIActivityIndicatorView`, rule 70): rounded spokes
/// around a centre, each fading from full to dim over one period, the next spoke a
/// fraction of a period behind (a replicator with an instance delay), so brightness runs
/// round clockwise. Lamina choice: 8 spokes, a 1 s period, fading 1 → 0.25.
public final class ActivityIndicatorLayer: ReplicatorLayer {
    /// UIKit's sizes: medium 20 points across, large 37.
    public enum Style: Sendable {
        /// 20 points across.
        case medium
        /// 37 points across.
        case large
        var diameter: Double { self == .medium ? 20 : 37 }
    }

    /// Spokes drawn around the circle.
    public static let spokeCount = 8
    /// Seconds for the bright spoke to go once round.
    public static let period = 1.0
    /// The opacity a spoke fades to.
    public static let dimOpacity = 0.25

    /// Hide when stopped (default true).
    public var hidesWhenStopped = true {
        didSet { if !isAnimating { isHidden = hidesWhenStopped } }
    }
    /// Whether the spokes turn (`startAnimating()` … `stopAnimating()`).
    public private(set) var isAnimating = false
    private let spoke = ShapeLayer()

    /// A stopped indicator of `style` with spokes of `color` (UIKit's grey by default).
    public init(style: Style = .medium, color: Color = Color(red: 0.56, green: 0.56, blue: 0.58)) {
        super.init()
        let d = style.diameter
        bounds = Rect(x: 0, y: 0, width: d, height: d)
        let width = d * 0.09, length = d * 0.28
        spoke.bounds = Rect(x: 0, y: 0, width: width, height: length)
        spoke.position = Point(x: d / 2, y: length / 2)
        spoke.path = Path(roundedRect: spoke.bounds, cornerRadius: width / 2)
        spoke.fillColor = color
        spoke.opacity = Self.dimOpacity
        addSublayer(spoke)
        instanceCount = Self.spokeCount
        instanceTransform = Transform3D(rotationAngle: 2 * .pi / Double(Self.spokeCount), x: 0, y: 0, z: 1)
        instanceDelay = Self.period / Double(Self.spokeCount)
        isHidden = true
    }

    /// Shows the indicator and starts the spin (at the next frame).
    public func startAnimating() {
        guard !isAnimating else { return }
        isAnimating = true
        Transaction.begin()
        Transaction.disableActions = true
        isHidden = false
        Transaction.commit()
        var fade = BasicAnimation(keyPath: "opacity", from: .scalar(1), to: .scalar(Self.dimOpacity), duration: Self.period)
        fade.timing.repeatCount = .infinity
        fade.timing.fillMode = .backwards
        spoke.add(fade, forKey: "fade")
    }

    /// Stops the spin; hides the indicator when `hidesWhenStopped`.
    public func stopAnimating() {
        guard isAnimating else { return }
        isAnimating = false
        spoke.removeAnimation(forKey: "fade")
        Transaction.begin()
        Transaction.disableActions = true
        isHidden = hidesWhenStopped
        Transaction.commit()
    }
}
