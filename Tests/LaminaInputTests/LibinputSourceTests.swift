import LaminaGeometry
import Testing
@testable import LaminaInput

/// libinput set-up errors, on any machine (the events themselves are tested in the VM stage
/// with a uinput touchscreen: `KernelDisplayTests.touchThroughLibinput`).
@Suite("libinput source")
struct LibinputSourceTests {
    @Test("a device path that is not an input device is an error naming it")
    func badDevice() {
        #expect(throws: InputError(call: "libinput_path_add_device", detail: "/dev/null cannot be opened as an input device")) {
            try LibinputSource(backend: .devices(["/dev/null"]), panelSize: Size(width: 800, height: 480))
        }
        #expect(throws: InputError.self) {
            try LibinputSource(backend: .devices(["/dev/input/lamina-none"]), panelSize: Size(width: 800, height: 480))
        }
    }

    @Test("a calibration matrix has six numbers")
    func badCalibration() {
        #expect(throws: InputError(call: "calibration", detail: "a calibration matrix has 6 numbers, not 4")) {
            try LibinputSource(backend: .devices([]), panelSize: Size(width: 800, height: 480), calibration: [1, 0, 0, 1])
        }
    }

    @Test("with no devices the source is settled, has a descriptor, and delivers nothing")
    func empty() throws {
        let source = try LibinputSource(backend: .devices([]), panelSize: Size(width: 800, height: 480))
        #expect(source.isSettled && source.eventDescriptor != nil && source.nextEventTime == nil)
        #expect(source.events(upTo: 1e9).isEmpty && source.keyEvents(upTo: 1e9).isEmpty && source.devices.isEmpty)
    }
}
