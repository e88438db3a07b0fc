import CUdev

/// Display hotplug notifications: a udev monitor on the `drm` subsystem, whose `change`
/// uevents say a connector may have come or gone (display-input.md §8). The kernel's carry
/// `HOTPLUG=1`; any `change` is taken as one, since re-reading the connectors is cheap and a
/// missed panel is not (synthetic uevents carry their arguments as `SYNTH_ARG_*`). Its
/// descriptor joins the event loop's `poll`; nothing wakes while nothing is plugged.
final class HotplugMonitor {
    private let udev: OpaquePointer
    private let monitor: OpaquePointer
    let descriptor: Int32

    /// Nil when udev is not available (no `/run/udev`): hotplug then goes unnoticed.
    init?() {
        guard let udev = udev_new() else { return nil }
        guard let monitor = udev_monitor_new_from_netlink(udev, "udev") else {
            udev_unref(udev)
            return nil
        }
        guard udev_monitor_filter_add_match_subsystem_devtype(monitor, "drm", nil) >= 0,
              udev_monitor_enable_receiving(monitor) >= 0 else {
            udev_monitor_unref(monitor)
            udev_unref(udev)
            return nil
        }
        self.udev = udev
        self.monitor = monitor
        descriptor = udev_monitor_get_fd(monitor)
    }

    deinit {
        udev_monitor_unref(monitor)
        udev_unref(udev)
    }

    /// Drains the queued uevents (the socket does not block); true when one was a `change`.
    func takeHotplug() -> Bool {
        var hotplug = false
        while let device = udev_monitor_receive_device(monitor) {
            if let action = udev_device_get_action(device), String(cString: action) == "change" { hotplug = true }
            udev_device_unref(device)
        }
        return hotplug
    }
}
