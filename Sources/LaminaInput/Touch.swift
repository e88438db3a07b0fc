import LaminaGeometry
import LaminaLayers

/// One finger on the screen (`UITouch`): identity is the libinput seat slot (rule 86).
public final class Touch {
    /// `UITouch.Phase` raw values: began 0, moved 1, stationary 2, ended 3, cancelled 4.
    public enum Phase: Int, Sendable {
        /// The finger landed.
        case began = 0
        /// The finger moved.
        case moved
        /// The finger is down and did not move.
        case stationary
        /// The finger lifted.
        case ended
        /// The system cancelled the touch (a device removed, a recognizer took it).
        case cancelled
    }

    /// The multitouch slot the finger is in (a mouse is slot 1000).
    public let slot: Int
    /// Where the finger is in its life.
    public internal(set) var phase: Phase
    /// Where the finger is, in the root layer's (logical screen) coordinates.
    public internal(set) var location: Point
    /// The location before the last move, in the root layer's space.
    public internal(set) var previousLocation: Point
    /// When the touch last changed, in seconds on the run's clock.
    public internal(set) var timestamp: Double
    /// Taps in a row at about this place (rule 83's window and slop): 1 for a first touch,
    /// 2 when it lands within 0.3 s of the last lift and 10 pt of it, and so on.
    public internal(set) var tapCount = 1
    /// False once a recognizer with `cancelsTouchesInView` recognized it: the layer's touch
    /// handlers got `cancelled` and hear no more of it.
    var deliversToHandlers = true
    /// Landed or moved since the last multi-touch frame (else its phase becomes stationary).
    var movedInFrame = false
    /// The touch handler of the layer it landed on (or the nearest ancestor with one).
    var handler: ((Touch) -> Void)?
    /// The model layer the touch landed on (hit-tested on the presentation tree, rule 58).
    public let layer: Layer?

    init(slot: Int, location: Point, timestamp: Double, layer: Layer?) {
        self.slot = slot
        phase = .began
        self.location = location
        previousLocation = location
        self.timestamp = timestamp
        self.layer = layer
    }

    /// The touch's location in `layer`'s coordinates (nil: the root's).
    public func location(in layer: Layer?) -> Point {
        guard let layer else { return location }
        return layer.convert(location, from: nil) ?? location
    }
}
