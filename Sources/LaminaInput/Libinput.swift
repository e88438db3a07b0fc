import CInput
#if canImport(Glibc)
import Glibc
#endif

/// Why libinput could not be set up.
public struct InputError: Error, CustomStringConvertible, Equatable {
    /// The libinput or udev call that failed.
    public var call: String
    /// What it was working on.
    public var detail: String
    public var description: String { "\(call) failed: \(detail)" }
}

/// A libinput context: the udev backend on a seat, or the path backend on listed devices.
/// One thin wrapper per libinput call; devices are opened and closed by libinput through
/// `open`/`close` (root or the `input` group: no logind session is involved).
final class Libinput {
    let context: OpaquePointer
    private let udev: OpaquePointer?

    /// The callbacks libinput opens and closes device nodes with (never changed; libinput
    /// keeps the pointer).
    nonisolated(unsafe) private static var interface = libinput_interface(
        open_restricted: { path, flags, _ in
            guard let path else { return -EINVAL }
            let fd = open(path, flags | O_CLOEXEC)
            return fd < 0 ? -errno : fd
        },
        close_restricted: { fd, _ in close(fd) })

    /// The udev backend: every input device on `seat`, added and removed as udev reports.
    init(seat: String) throws(InputError) {
        guard let udev = udev_new() else { throw InputError(call: "udev_new", detail: "no udev context") }
        guard let context = libinput_udev_create_context(&Self.interface, nil, udev) else {
            udev_unref(udev)
            throw InputError(call: "libinput_udev_create_context", detail: "no context")
        }
        if libinput_udev_assign_seat(context, seat) != 0 {
            libinput_unref(context)
            udev_unref(udev)
            throw InputError(call: "libinput_udev_assign_seat", detail: "seat \(seat)")
        }
        self.context = context
        self.udev = udev
    }

    /// The path backend: exactly the listed device nodes (no hotplug).
    init(devices: [String]) throws(InputError) {
        guard let context = libinput_path_create_context(&Self.interface, nil) else {
            throw InputError(call: "libinput_path_create_context", detail: "no context")
        }
        for path in devices where libinput_path_add_device(context, path) == nil {
            libinput_unref(context)
            throw InputError(call: "libinput_path_add_device", detail: "\(path) cannot be opened as an input device")
        }
        self.context = context
        udev = nil
    }

    deinit {
        libinput_unref(context)
        if let udev { udev_unref(udev) }
    }

    /// `libinput_get_fd`: readable when events wait.
    var descriptor: Int32 { libinput_get_fd(context) }

    /// `libinput_dispatch` then every queued event, each destroyed after `handle`.
    func drain(_ handle: (OpaquePointer) -> Void) {
        _ = libinput_dispatch(context)
        while let event = libinput_get_event(context) {
            handle(event)
            libinput_event_destroy(event)
        }
    }

    /// `libinput_suspend` / `libinput_resume`: close every device while another VT is shown.
    func suspend() { libinput_suspend(context) }
    func resume() -> Bool { libinput_resume(context) == 0 }
}
