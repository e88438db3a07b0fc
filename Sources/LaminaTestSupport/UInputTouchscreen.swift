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
    public struct Failure: Error, CustomStringConvertible {
        public var call: String
        public var errno: Int32
        public var description: String { "\(call) failed: errno \(errno)" }
    }

    public let name: String
    public let width: Int, height: Int
    /// The largest reading of each axis.
    public let axisMaximum: (x: Int, y: Int)
    /// What the device reads, in axis units, for a finger at a point given to `down`/`move`;
    /// nil reads the point itself.
    public var wiring: ((Point) -> Point)?
    private let fd: Int32
    private var destroyed = false
    private var nextTrackingID: Int32 = 1

    // linux/input-event-codes.h
    private static let EV_SYN: UInt16 = 0, EV_KEY: UInt16 = 1, EV_ABS: UInt16 = 3
    private static let SYN_REPORT: UInt16 = 0, BTN_TOUCH: UInt16 = 0x14a
    private static let ABS_X: UInt16 = 0, ABS_Y: UInt16 = 1
    private static let ABS_MT_SLOT: UInt16 = 0x2f, ABS_MT_POSITION_X: UInt16 = 0x35, ABS_MT_POSITION_Y: UInt16 = 0x36
    private static let ABS_MT_TRACKING_ID: UInt16 = 0x39
    private static let INPUT_PROP_DIRECT: UInt = 1

    public init(name: String = "Lamina test touchscreen", width: Int, height: Int, axisMaximum: (x: Int, y: Int)? = nil,
                slots: Int = 10) throws {
        let fd = open("/dev/uinput", O_WRONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw Failure(call: "open /dev/uinput", errno: errno) }
        self.fd = fd
        self.name = name
        self.width = width
        self.height = height
        let axisMaximum = axisMaximum ?? (width - 1, height - 1)
        self.axisMaximum = axisMaximum
        func check(_ ret: Int32, _ call: String) throws {
            if ret < 0 { throw Failure(call: call, errno: errno) }
        }
        do {
            try check(lamina_ioctl_value(fd, lamina_ui_set_evbit(), UInt(Self.EV_KEY)), "UI_SET_EVBIT EV_KEY")
            try check(lamina_ioctl_value(fd, lamina_ui_set_evbit(), UInt(Self.EV_ABS)), "UI_SET_EVBIT EV_ABS")
            try check(lamina_ioctl_value(fd, lamina_ui_set_keybit(), UInt(Self.BTN_TOUCH)), "UI_SET_KEYBIT BTN_TOUCH")
            try check(lamina_ioctl_value(fd, lamina_ui_set_propbit(), Self.INPUT_PROP_DIRECT), "UI_SET_PROPBIT")
            let (maxX, maxY) = (Int32(axisMaximum.x), Int32(axisMaximum.y))
            let axes: [(UInt16, Int32)] = [(Self.ABS_X, maxX), (Self.ABS_Y, maxY),
                                           (Self.ABS_MT_SLOT, Int32(slots - 1)),
                                           (Self.ABS_MT_POSITION_X, maxX), (Self.ABS_MT_POSITION_Y, maxY),
                                           (Self.ABS_MT_TRACKING_ID, 65535)]
            for (code, maximum) in axes {
                try check(lamina_ioctl_value(fd, lamina_ui_set_absbit(), UInt(code)), "UI_SET_ABSBIT \(code)")
                var setup = uinput_abs_setup()
                setup.code = code
                setup.absinfo.minimum = 0
                setup.absinfo.maximum = maximum
                setup.absinfo.resolution = code == Self.ABS_MT_SLOT || code == Self.ABS_MT_TRACKING_ID ? 0 : 4   // units per mm
                try check(ioctl(fd, lamina_ui_abs_setup(), &setup), "UI_ABS_SETUP \(code)")
            }
            var setup = uinput_setup()
            setup.id.bustype = 0x06                                  // BUS_VIRTUAL
            setup.id.vendor = 0x1209
            setup.id.product = 0x4C4D
            withUnsafeMutableBytes(of: &setup.name) { raw in
                for (i, byte) in name.utf8.prefix(raw.count - 1).enumerated() { raw[i] = byte }
            }
            try check(ioctl(fd, lamina_ui_dev_setup(), &setup), "UI_DEV_SETUP")
            try check(lamina_ioctl_value(fd, lamina_ui_dev_create(), 0), "UI_DEV_CREATE")
        } catch {
            close(fd)
            throw error
        }
    }

    deinit { destroy() }

    /// Unplugs the device (`UI_DEV_DESTROY`).
    public func destroy() {
        guard !destroyed else { return }
        destroyed = true
        _ = lamina_ioctl_value(fd, lamina_ui_dev_destroy(), 0)
        close(fd)
    }

    private func emit(_ type: UInt16, _ code: UInt16, _ value: Int32) {
        var event = input_event()
        event.type = type
        event.code = code
        event.value = value
        _ = withUnsafeBytes(of: &event) { write(fd, $0.baseAddress, $0.count) }
    }

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
        emit(Self.EV_SYN, Self.SYN_REPORT, 0)
    }

    /// The finger in `slot` moving to `point` (one report).
    public func move(slot: Int = 0, to point: Point) {
        emit(Self.EV_ABS, Self.ABS_MT_SLOT, Int32(slot))
        position(point)
        emit(Self.EV_SYN, Self.SYN_REPORT, 0)
    }

    /// The finger in `slot` lifting (one report; `BTN_TOUCH` up when it was the last).
    public func up(slot: Int = 0, last: Bool = true) {
        emit(Self.EV_ABS, Self.ABS_MT_SLOT, Int32(slot))
        emit(Self.EV_ABS, Self.ABS_MT_TRACKING_ID, -1)
        if last { emit(Self.EV_KEY, Self.BTN_TOUCH, 0) }
        emit(Self.EV_SYN, Self.SYN_REPORT, 0)
    }
}
