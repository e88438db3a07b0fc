import LaminaGeometry

/// One raw touch event, as libinput reports it (`LIBINPUT_EVENT_TOUCH_*`): a seat slot, a
/// position in panel pixels, and a time in seconds on `CLOCK_MONOTONIC` (rule 86).
public struct TouchEvent: Hashable, Sendable {
    public enum Kind: Hashable, Sendable {
        case down(slot: Int, position: Point)
        case motion(slot: Int, position: Point)
        case up(slot: Int)
        case cancel(slot: Int)
        /// Closes one multi-touch update (`LIBINPUT_EVENT_TOUCH_FRAME`).
        case frame
    }

    public var time: Double
    public var kind: Kind

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
}
