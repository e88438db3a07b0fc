import CLinux
#if canImport(Glibc)
import Glibc
#endif

/// An evdev device made with uinput (`/dev/uinput`), for the VM's tests: the kernel sees a
/// real input device, udev tags it and libinput reads it. The touchscreen and the pointer
/// are built on it.
final class UInputDevice {
    /// A uinput call that failed.
    struct Failure: Error, CustomStringConvertible {
        var call: String
        var errno: Int32
        var description: String { "\(call) failed: errno \(errno)" }
    }

    // linux/input-event-codes.h
    static let EV_SYN: UInt16 = 0, EV_KEY: UInt16 = 1, EV_ABS: UInt16 = 3
    static let SYN_REPORT: UInt16 = 0

    private let fd: Int32
    private var destroyed = false

    /// Creates the device: its keys, its absolute axes (code, maximum, units per mm), and
    /// `INPUT_PROP_DIRECT` for a touchscreen (a pointer on the screen itself).
    init(name: String, keys: [UInt16], axes: [(code: UInt16, maximum: Int32, resolution: Int32)], direct: Bool) throws {
        let fd = open("/dev/uinput", O_WRONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw Failure(call: "open /dev/uinput", errno: errno) }
        self.fd = fd
        func check(_ ret: Int32, _ call: String) throws {
            if ret < 0 { throw Failure(call: call, errno: errno) }
        }
        do {
            try check(lamina_ioctl_value(fd, lamina_ui_set_evbit(), UInt(Self.EV_KEY)), "UI_SET_EVBIT EV_KEY")
            try check(lamina_ioctl_value(fd, lamina_ui_set_evbit(), UInt(Self.EV_ABS)), "UI_SET_EVBIT EV_ABS")
            for key in keys { try check(lamina_ioctl_value(fd, lamina_ui_set_keybit(), UInt(key)), "UI_SET_KEYBIT \(key)") }
            if direct { try check(lamina_ioctl_value(fd, lamina_ui_set_propbit(), 1), "UI_SET_PROPBIT INPUT_PROP_DIRECT") }
            for axis in axes {
                try check(lamina_ioctl_value(fd, lamina_ui_set_absbit(), UInt(axis.code)), "UI_SET_ABSBIT \(axis.code)")
                var setup = uinput_abs_setup()
                setup.code = axis.code
                setup.absinfo.minimum = 0
                setup.absinfo.maximum = axis.maximum
                setup.absinfo.resolution = axis.resolution
                try check(ioctl(fd, lamina_ui_abs_setup(), &setup), "UI_ABS_SETUP \(axis.code)")
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
    func destroy() {
        guard !destroyed else { return }
        destroyed = true
        _ = lamina_ioctl_value(fd, lamina_ui_dev_destroy(), 0)
        close(fd)
    }

    /// Writes one input event.
    func emit(_ type: UInt16, _ code: UInt16, _ value: Int32) {
        var event = input_event()
        event.type = type
        event.code = code
        event.value = value
        _ = withUnsafeBytes(of: &event) { write(fd, $0.baseAddress, $0.count) }
    }

    /// Ends a report (`SYN_REPORT`).
    func report() { emit(Self.EV_SYN, Self.SYN_REPORT, 0) }
}
