import LaminaGeometry

/// An absolute pointer made with uinput: a left button and X/Y axes over the panel, as a
/// virtual machine's USB tablet or a touchpad-less kiosk trackball in absolute mode, so
/// libinput reports `POINTER_MOTION_ABSOLUTE` at exact panel pixels (a relative mouse's
/// motion goes through pointer acceleration). For tests in the VM stage.
public final class UInputPointer {
    public let name: String
    private let device: UInputDevice

    private static let BTN_LEFT: UInt16 = 0x110, BTN_RIGHT: UInt16 = 0x111
    private static let ABS_X: UInt16 = 0, ABS_Y: UInt16 = 1

    /// A pointer whose axes run 0 … `width − 1` and 0 … `height − 1`: a position is the
    /// panel pixel libinput's `get_absolute_x/y_transformed` gives back on a panel of that size.
    public init(name: String = "Lamina test pointer", width: Int, height: Int) throws {
        self.name = name
        device = try UInputDevice(name: name, keys: [Self.BTN_LEFT, Self.BTN_RIGHT], axes: [
            (Self.ABS_X, Int32(width - 1), 4), (Self.ABS_Y, Int32(height - 1), 4),
        ], direct: false)
    }

    /// Unplugs the device (`UI_DEV_DESTROY`).
    public func destroy() { device.destroy() }

    /// The pointer moving to `point` (one report).
    public func move(to point: Point) {
        device.emit(UInputDevice.EV_ABS, Self.ABS_X, Int32(point.x.rounded()))
        device.emit(UInputDevice.EV_ABS, Self.ABS_Y, Int32(point.y.rounded()))
        device.report()
    }

    /// The left button pressed (true) or released (one report).
    public func button(pressed: Bool) {
        device.emit(UInputDevice.EV_KEY, Self.BTN_LEFT, pressed ? 1 : 0)
        device.report()
    }
}
