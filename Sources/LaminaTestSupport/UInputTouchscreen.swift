import CLinux
import LaminaGeometry
#if canImport(Glibc)
import Glibc
#endif

/// A multitouch touchscreen made with uinput (type B slots, `INPUT_PROP_DIRECT`): the kernel
/// sees a real evdev device, udev tags it, and libinput reads it as any panel. For tests in
/// the VM stage (`/dev/uinput`). Axes run 0 … `width − 1` and 0 … `height − 1`, so a point is
/// the panel pixel libinput's `get_x/y_transformed` gives back on a panel of that size — unless
/// other axis ranges and a ``wiring`` are given: then the device reads `wiring(point)` in its
/// own units, as a panel whose controller is mounted or configured wrong does.
public final class UInputTouchscreen {
    public let name: String
    public let width: Int, height: Int
    /// The largest reading of each axis.
    public let axisMaximum: (x: Int, y: Int)
    /// What the device reads, in axis units, for a finger at a point given to `down`/`move`;
    /// nil reads the point itself.
    public var wiring: ((Point) -> Point)?
    private let device: UInputDevice
    private var nextTrackingID: Int32 = 1

    // linux/input-event-codes.h
    private static let EV_KEY = UInputDevice.EV_KEY, EV_ABS = UInputDevice.EV_ABS
    private static let BTN_TOUCH: UInt16 = 0x14a
    private static let ABS_X: UInt16 = 0, ABS_Y: UInt16 = 1
    private static let ABS_MT_SLOT: UInt16 = 0x2f, ABS_MT_POSITION_X: UInt16 = 0x35, ABS_MT_POSITION_Y: UInt16 = 0x36
    private static let ABS_MT_TRACKING_ID: UInt16 = 0x39

    public init(name: String = "Lamina test touchscreen", width: Int, height: Int, axisMaximum: (x: Int, y: Int)? = nil,
                slots: Int = 10) throws {
        self.name = name
        self.width = width
        self.height = height
        let axisMaximum = axisMaximum ?? (width - 1, height - 1)
        self.axisMaximum = axisMaximum
        let (maxX, maxY) = (Int32(axisMaximum.x), Int32(axisMaximum.y))
        // Positions at 4 units per mm; the slot and tracking id have no unit.
        device = try UInputDevice(name: name, keys: [Self.BTN_TOUCH], axes: [
            (Self.ABS_X, maxX, 4), (Self.ABS_Y, maxY, 4), (Self.ABS_MT_SLOT, Int32(slots - 1), 0),
            (Self.ABS_MT_POSITION_X, maxX, 4), (Self.ABS_MT_POSITION_Y, maxY, 4), (Self.ABS_MT_TRACKING_ID, 65535, 0),
        ], direct: true)
    }

    /// Unplugs the device (`UI_DEV_DESTROY`).
    public func destroy() { device.destroy() }

    private func emit(_ type: UInt16, _ code: UInt16, _ value: Int32) { device.emit(type, code, value) }

    /// The axis readings for a finger at `point`: through the wiring, rounded. A reading past
    /// the axis range is sent as it is (a controller that overshoots: libinput must cope).
    private func reading(_ point: Point) -> (x: Int32, y: Int32) {
        let p = wiring?(point) ?? point
        return (Int32(p.x.rounded()), Int32(p.y.rounded()))
    }

    private func position(_ point: Point) {
        let (x, y) = reading(point)
        emit(Self.EV_ABS, Self.ABS_MT_POSITION_X, x)
        emit(Self.EV_ABS, Self.ABS_MT_POSITION_Y, y)
        emit(Self.EV_ABS, Self.ABS_X, x)
        emit(Self.EV_ABS, Self.ABS_Y, y)
    }

    /// A finger going down in `slot` at `point` (one report).
    public func down(slot: Int = 0, at point: Point) {
        emit(Self.EV_ABS, Self.ABS_MT_SLOT, Int32(slot))
        emit(Self.EV_ABS, Self.ABS_MT_TRACKING_ID, nextTrackingID)
        nextTrackingID += 1
        position(point)
        emit(Self.EV_KEY, Self.BTN_TOUCH, 1)
        device.report()
    }

    /// The finger in `slot` moving to `point` (one report).
    public func move(slot: Int = 0, to point: Point) {
        emit(Self.EV_ABS, Self.ABS_MT_SLOT, Int32(slot))
        position(point)
        device.report()
    }

    /// The finger in `slot` lifting (one report; `BTN_TOUCH` up when it was the last).
    public func up(slot: Int = 0, last: Bool = true) {
        emit(Self.EV_ABS, Self.ABS_MT_SLOT, Int32(slot))
        emit(Self.EV_ABS, Self.ABS_MT_TRACKING_ID, -1)
        if last { emit(Self.EV_KEY, Self.BTN_TOUCH, 0) }
        device.report()
    }
}
