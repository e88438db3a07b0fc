import LaminaGeometry

/// One raw touch event, as libinput reports it (`LIBINPUT_EVENT_TOUCH_*`): a seat slot, a
/// position in panel pixels, and a time in seconds on `CLOCK_MONOTONIC` (rule 86).
public struct TouchEvent: Hashable, Sendable {
    /// What happened to which finger.
    public enum Kind: Hashable, Sendable {
        /// A finger landed in `slot` at `position` (panel pixels).
        case down(slot: Int, position: Point)
        /// The finger in `slot` moved to `position`.
        case motion(slot: Int, position: Point)
        /// The finger in `slot` lifted.
        case up(slot: Int)
        /// The touch in `slot` was cancelled (its device went away).
        case cancel(slot: Int)
        /// Closes one multi-touch update (`LIBINPUT_EVENT_TOUCH_FRAME`).
        case frame
    }

    /// When, in seconds on the run's clock.
    public var time: Double
    /// What happened.
    public var kind: Kind

    /// An event from its parts.
    public init(time: Double, kind: Kind) {
        self.time = time
        self.kind = kind
    }
}

/// Where touch events come from: libinput on a device, a script on the dummy backend.
/// Both feed the same dispatcher.
public protocol TouchSource: AnyObject {
    /// A descriptor that polls readable when events are waiting (nil: use `nextEventTime`).
    var eventDescriptor: Int32? { get }
    /// When the next event is due, for sources without a descriptor; nil when none is left.
    var nextEventTime: Double? { get }
    /// True when a run waiting for everything to settle may end here: a script with nothing
    /// left, a live device with no finger down.
    var isSettled: Bool { get }
    /// Every event due at or before `time`, in order.
    func events(upTo time: Double) -> [TouchEvent]
    /// The key events due by `time` that came with the touches (a keyboard on the same
    /// seat), consumed; none for a source without keys.
    func keyEvents(upTo time: Double) -> [KeyEvent]
    /// The pointer's latest position and time if it moved since the last call (a mouse on
    /// the same seat), consumed; nil for a source without a pointer.
    func takePointerMotion() -> (time: Double, position: Point)?
    /// Lets go of the devices while another VT is shown (touches down are cancelled).
    func suspend()
    /// Takes the devices back after `suspend()`.
    func resume()
    /// The panel the positions map onto is now `size` pixels (another display was plugged in).
    func panelResized(to size: Size)
}

/// What a source without keys, pointer or devices to let go of does: nothing.
extension TouchSource {
    public func keyEvents(upTo time: Double) -> [KeyEvent] { [] }
    public func takePointerMotion() -> (time: Double, position: Point)? { nil }
    public func suspend() {}
    public func resume() {}
    public func panelResized(to size: Size) {}
}
