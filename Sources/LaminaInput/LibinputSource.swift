import LaminaSystem
import CInput
import LaminaGeometry
#if canImport(Glibc)
import Glibc
#endif

/// Where key events come from (libinput; a list in tests).
public protocol KeySource: AnyObject {
    /// The key events due by `time`, consumed.
    func keyEvents(upTo time: Double) -> [KeyEvent]
}

/// A source of pointer positions (a mouse, a trackball): where the pointer went, for the
/// cursor drawn on screen. Its button is a finger among the source's touches.
public protocol PointerSource: AnyObject {
    /// The pointer's latest position (panel pixels) and when it moved there, if it moved
    /// since the last call; consumed.
    func takePointerMotion() -> (time: Double, position: Point)?
}

/// A key going down or up, as libinput reports it (evdev key code, `CLOCK_MONOTONIC`).
public struct KeyEvent: Hashable, Sendable {
    /// When the key changed, on the monotonic clock (seconds).
    public var time: Double
    /// The evdev key code (`KEY_A` = 30); xkbcommon's keycode is this + 8.
    public var key: UInt32
    /// True when pressed, false when released.
    public var isPressed: Bool

    /// A key event from its parts.
    public init(time: Double, key: UInt32, isPressed: Bool) {
        self.time = time
        self.key = key
        self.isPressed = isPressed
    }
}

/// Touches (all slots), a mouse acting as one finger, and keys from libinput (rule 86,
/// display-input.md §12), through the runtime's poll loop: no threads.
///
/// Positions are `get_x/y_transformed` onto the panel (`panelSize` pixels), clamped inside
/// it; the display rotation is applied above this, by the dispatcher. Devices come and go
/// with udev (seat backend); a device removed with fingers down cancels their touches. A
/// calibration matrix (libinput's convention, `LIBINPUT_CALIBRATION_MATRIX`) is applied by
/// libinput on every touch device that takes one.
public final class LibinputSource: TouchSource, KeySource, PointerSource {
    /// Where the devices come from.
    public enum Backend: Equatable, Sendable {
        /// Every device udev puts on the seat (`seat0`), with hotplug.
        case seat(String)
        /// Exactly these device nodes (no hotplug).
        case devices([String])
    }

    /// The slot the mouse's single "finger" uses (seat slots are small numbers).
    public static let pointerSlot = 1_000
    /// The panel's size in pixels: absolute positions are scaled onto it.
    public var panelSize: Size
    /// Receives one line per event worth knowing (device added or removed, clamping).
    public var log: (String) -> Void
    /// The names of the devices present now, by libinput's system name (`event3`).
    public private(set) var devices: [String: String] = [:]

    private let libinput: Libinput
    private let calibration: [Float]?
    private var pending: [TouchEvent] = []
    private var keys: [KeyEvent] = []
    /// Seat slots down, and the device each belongs to.
    private var slotsDown: [Int: OpaquePointer] = [:]
    private var cursor: Point
    /// The pointer's last motion not yet taken.
    private var pointerMotion: (time: Double, position: Point)?
    private var pointerDevice: OpaquePointer?
    private var warnedOutOfRange: Set<String> = []

    /// Opens libinput on `backend` (the udev seat or listed device paths), mapping positions onto `panelSize` through `calibration` (libinput's six numbers) when given.
    public init(backend: Backend, panelSize: Size, calibration: [Float]? = nil,
                log: @escaping (String) -> Void = { _ in }) throws(InputError) {
        if let calibration, calibration.count != 6 {
            throw InputError(call: "calibration", detail: "a calibration matrix has 6 numbers, not \(calibration.count)")
        }
        switch backend {
        case .seat(let seat): libinput = try Libinput(seat: seat)
        case .devices(let paths): libinput = try Libinput(devices: paths)
        }
        self.panelSize = panelSize
        self.calibration = calibration
        self.log = log
        cursor = Point(x: panelSize.width / 2, y: panelSize.height / 2)
        readEvents()                                     // the devices present at start
    }

    public var eventDescriptor: Int32? { libinput.descriptor }
    /// Due at once while events read from libinput wait to be taken (a batch read for one
    /// turn that its taker has not collected yet): the loop comes straight back for them
    /// instead of waiting for the descriptor, which is empty now.
    public var nextEventTime: Double? {
        var earliest = pending.first?.time
        if let key = keys.first?.time { earliest = min(earliest ?? key, key) }
        if let motion = pointerMotion?.time { earliest = min(earliest ?? motion, motion) }
        return earliest
    }
    public var isSettled: Bool { slotsDown.isEmpty }

    /// Everything libinput has (times are the kernel's, never after `time`). This is the one
    /// read of libinput per turn of the loop (it runs first): the keys and pointer motion of
    /// the same batch wait for `keyEvents` and `takePointerMotion`, so a touch that arrives
    /// with them is delivered in the same turn, never left behind by a second read.
    public func events(upTo time: Double) -> [TouchEvent] {
        readEvents()
        defer { pending.removeAll() }
        return pending
    }

    /// The pointer's last motion read so far (by this turn's `events`).
    public func takePointerMotion() -> (time: Double, position: Point)? {
        defer { pointerMotion = nil }
        return pointerMotion
    }

    /// The key events read so far (by this turn's `events`; times are the kernel's).
    public func keyEvents(upTo time: Double) -> [KeyEvent] {
        defer { keys.removeAll() }
        return keys
    }

    /// Closes the devices while another VT is shown (touches down are cancelled), and opens
    /// them again on return.
    public func suspend() {
        cancelTouches { _ in true }
        libinput.suspend()
    }

    /// Takes the devices back after `suspend()` (a VT switch back).
    public func resume() {
        if !libinput.resume() { log("input: libinput_resume failed; devices stay closed") }
    }

    /// Maps positions onto a panel of `size` pixels from now on.
    public func panelResized(to size: Size) {
        panelSize = size
    }

    private func readEvents() {
        libinput.drain { event in handle(event) }
    }

    private func handle(_ event: OpaquePointer) {
        let type = libinput_event_get_type(event)
        switch type {
        case LIBINPUT_EVENT_DEVICE_ADDED: deviceAdded(libinput_event_get_device(event))
        case LIBINPUT_EVENT_DEVICE_REMOVED: deviceRemoved(libinput_event_get_device(event))
        case LIBINPUT_EVENT_TOUCH_DOWN, LIBINPUT_EVENT_TOUCH_MOTION, LIBINPUT_EVENT_TOUCH_UP,
             LIBINPUT_EVENT_TOUCH_CANCEL, LIBINPUT_EVENT_TOUCH_FRAME:
            touch(type, libinput_event_get_touch_event(event), device: libinput_event_get_device(event))
        case LIBINPUT_EVENT_POINTER_MOTION, LIBINPUT_EVENT_POINTER_MOTION_ABSOLUTE, LIBINPUT_EVENT_POINTER_BUTTON:
            pointer(type, libinput_event_get_pointer_event(event), device: libinput_event_get_device(event))
        case LIBINPUT_EVENT_KEYBOARD_KEY:
            guard let key = libinput_event_get_keyboard_event(event) else { return }
            keys.append(KeyEvent(time: Double(libinput_event_keyboard_get_time_usec(key)) / 1e6,
                                 key: libinput_event_keyboard_get_key(key),
                                 isPressed: libinput_event_keyboard_get_key_state(key) == LIBINPUT_KEY_STATE_PRESSED))
        default:
            break
        }
    }

    private static func name(_ device: OpaquePointer?) -> (system: String, name: String) {
        guard let device else { return ("?", "?") }
        return (String(cString: libinput_device_get_sysname(device)), String(cString: libinput_device_get_name(device)))
    }

    private func deviceAdded(_ device: OpaquePointer?) {
        guard let device else { return }
        let (system, name) = Self.name(device)
        devices[system] = name
        var kinds: [String] = []
        if libinput_device_has_capability(device, LIBINPUT_DEVICE_CAP_TOUCH) != 0 { kinds.append("touch") }
        if libinput_device_has_capability(device, LIBINPUT_DEVICE_CAP_POINTER) != 0 { kinds.append("pointer") }
        if libinput_device_has_capability(device, LIBINPUT_DEVICE_CAP_KEYBOARD) != 0 { kinds.append("keyboard") }
        var calibrated = ""
        if let calibration, libinput_device_has_capability(device, LIBINPUT_DEVICE_CAP_TOUCH) != 0 {
            if libinput_device_config_calibration_has_matrix(device) != 0,
               libinput_device_config_calibration_set_matrix(device, calibration) == LIBINPUT_CONFIG_STATUS_SUCCESS {
                calibrated = ", calibrated"
            } else {
                calibrated = ", takes no calibration matrix"
            }
        }
        log("input device added: \(system) \"\(name)\" (\(kinds.isEmpty ? "no touch, pointer or keys" : kinds.joined(separator: ", "))\(calibrated))")
    }

    private func deviceRemoved(_ device: OpaquePointer?) {
        guard let device else { return }
        let (system, name) = Self.name(device)
        devices[system] = nil
        let cancelled = cancelTouches { $0 == device }
        log("input device removed: \(system) \"\(name)\"" + (cancelled > 0 ? "; \(cancelled) touches down cancelled" : ""))
        if pointerDevice == device { pointerDevice = nil }
    }

    /// Cancels the touches down whose device passes `belongs`; how many there were.
    @discardableResult
    private func cancelTouches(_ belongs: (OpaquePointer) -> Bool) -> Int {
        let slots = slotsDown.filter { belongs($0.value) }.keys.sorted()
        guard !slots.isEmpty else { return 0 }
        let now = Double(monotonicMicroseconds()) / 1e6
        for slot in slots {
            slotsDown[slot] = nil
            pending.append(TouchEvent(time: now, kind: .cancel(slot: slot)))
        }
        pending.append(TouchEvent(time: now, kind: .frame))
        return slots.count
    }

    /// A position on the panel, clamped inside it (a device reporting beyond its range is
    /// logged once).
    private func onPanel(_ x: Double, _ y: Double, device: OpaquePointer?) -> Point {
        let inside = Point(x: min(max(x, 0), panelSize.width - 1), y: min(max(y, 0), panelSize.height - 1))
        if inside != Point(x: x, y: y) && !(x.isNaN || y.isNaN) {
            let (system, name) = Self.name(device)
            if warnedOutOfRange.insert(system).inserted {
                log("input: \(system) \"\(name)\" reported \(x),\(y) outside the \(Int(panelSize.width))x\(Int(panelSize.height)) panel; clamped (further ones silently)")
            }
        }
        return inside
    }

    private func touch(_ type: libinput_event_type, _ touch: OpaquePointer?, device: OpaquePointer?) {
        guard let touch else { return }
        let time = Double(libinput_event_touch_get_time_usec(touch)) / 1e6
        if type == LIBINPUT_EVENT_TOUCH_FRAME {
            pending.append(TouchEvent(time: time, kind: .frame))
            return
        }
        let slot = Int(libinput_event_touch_get_seat_slot(touch))
        switch type {
        case LIBINPUT_EVENT_TOUCH_DOWN, LIBINPUT_EVENT_TOUCH_MOTION:
            let position = onPanel(libinput_event_touch_get_x_transformed(touch, UInt32(panelSize.width)),
                                   libinput_event_touch_get_y_transformed(touch, UInt32(panelSize.height)), device: device)
            if type == LIBINPUT_EVENT_TOUCH_DOWN {
                slotsDown[slot] = device
                pending.append(TouchEvent(time: time, kind: .down(slot: slot, position: position)))
            } else {
                pending.append(TouchEvent(time: time, kind: .motion(slot: slot, position: position)))
            }
        case LIBINPUT_EVENT_TOUCH_UP:
            slotsDown[slot] = nil
            pending.append(TouchEvent(time: time, kind: .up(slot: slot)))
        default:
            slotsDown[slot] = nil
            pending.append(TouchEvent(time: time, kind: .cancel(slot: slot)))
        }
    }

    /// The mouse as one finger: the left button is the finger, the cursor its position.
    private func pointer(_ type: libinput_event_type, _ pointer: OpaquePointer?, device: OpaquePointer?) {
        guard let pointer else { return }
        let time = Double(libinput_event_pointer_get_time_usec(pointer)) / 1e6
        let slot = Self.pointerSlot
        switch type {
        case LIBINPUT_EVENT_POINTER_MOTION:
            cursor = onPanel(cursor.x + libinput_event_pointer_get_dx(pointer), cursor.y + libinput_event_pointer_get_dy(pointer), device: nil)
            pointerMotion = (time, cursor)
        case LIBINPUT_EVENT_POINTER_MOTION_ABSOLUTE:
            cursor = onPanel(libinput_event_pointer_get_absolute_x_transformed(pointer, UInt32(panelSize.width)),
                             libinput_event_pointer_get_absolute_y_transformed(pointer, UInt32(panelSize.height)), device: device)
            pointerMotion = (time, cursor)
        default:
            guard libinput_event_pointer_get_button(pointer) == 0x110 else { return }        // BTN_LEFT
            if libinput_event_pointer_get_button_state(pointer) == LIBINPUT_BUTTON_STATE_PRESSED {
                guard slotsDown[slot] == nil, let device else { return }
                slotsDown[slot] = device
                pending.append(TouchEvent(time: time, kind: .down(slot: slot, position: cursor)))
            } else if slotsDown.removeValue(forKey: slot) != nil {
                pending.append(TouchEvent(time: time, kind: .up(slot: slot)))
            }
            pending.append(TouchEvent(time: time, kind: .frame))
            return
        }
        if slotsDown[slot] != nil {
            pending.append(TouchEvent(time: time, kind: .motion(slot: slot, position: cursor)))
            pending.append(TouchEvent(time: time, kind: .frame))
        }
    }

    private func monotonicMicroseconds() -> UInt64 {
        SystemClock.shared.microseconds
    }
}
