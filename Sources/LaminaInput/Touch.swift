import LaminaGeometry
import LaminaLayers

/// One finger on the screen (`UITouch`): identity is the libinput seat slot (rule 86).
public final class Touch {
    /// `UITouch.Phase` raw values: began 0, moved 1, stationary 2, ended 3, cancelled 4.
    public enum Phase: Int, Sendable {
        case began = 0, moved, stationary, ended, cancelled
    }

    public let slot: Int
    public internal(set) var phase: Phase
    /// Where the finger is, in the root layer's (logical screen) coordinates.
    public internal(set) var location: Point
    public internal(set) var previousLocation: Point
    public internal(set) var timestamp: Double
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
