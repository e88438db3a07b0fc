import Glibc
import Lamina
@testable import LaminaSceneFiles
@testable import LaminaRuntime
import LaminaGeometry
import LaminaInput
import LaminaSystem
import LaminaTestSupport
import Testing

extension KernelDisplayTests {
    /// Whether `descriptor` has something to read now.
    private static func readable(_ descriptor: Int32) -> Bool {
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, 0) > 0
    }

    /// Waits (up to the suite's patience) until `descriptor` has something to read.
    private static func waitReadable(_ descriptor: Int32) -> Bool {
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, Int32(KernelPacing.patience * 1000)) > 0
    }

    @Test("libinput is read once per turn: a touch that arrives after the turn's read stays in the kernel, where its descriptor wakes the loop, and the next read delivers it")
    func libinputReadOncePerTurn() throws {
        // Under an emulated arm64 guest the first uinput pointer's motion has twice never
        // reached libinput within the suite's patience (CI, 2026-11-27), moves repeated each
        // second; fresh devices made once more are held to everything below.
        if try !readOncePerTurn(finalAttempt: false) { _ = try readOncePerTurn(finalAttempt: true) }
    }

    /// One run of the scenario with new devices; false, checking nothing, when it is not the
    /// final attempt and the turn had no pointer motion to take.
    private func readOncePerTurn(finalAttempt: Bool) throws -> Bool {
        let pointer = try UInputPointer(name: "Lamina turn pointer", width: 1024, height: 768)
        defer { pointer.destroy() }
        let screen = try UInputTouchscreen(name: "Lamina turn touchscreen", width: 1024, height: 768)
        defer { screen.destroy() }
        let input = try LibinputSource(backend: .seat("seat0"), panelSize: Size(width: 1024, height: 768), log: { _ in })
        let fd = try #require(input.eventDescriptor)
        let clock = SystemClock()
        let start = clock.now
        while !(input.devices.values.contains(pointer.name) && input.devices.values.contains(screen.name)),
              clock.now - start < KernelPacing.patience {
            _ = Self.waitReadable(fd)
            _ = input.events(upTo: clock.now)
        }
        #expect(input.devices.values.contains(pointer.name) && input.devices.values.contains(screen.name))
        _ = input.takePointerMotion()
        _ = input.keyEvents(upTo: clock.now)

        // A turn: the pointer's motion is read by the turn's one read (`events`; read again
        // until the motion is in, as a loaded machine may deliver it after the first wake).
        // The move is made again, a pixel further, each second nothing comes: under a loaded
        // emulated VM, udev may still be settling the new device (libinput reopening it) when
        // the first move is written, and a motion written then is lost with the old descriptor.
        var read: [TouchEvent] = []
        let moved = clock.now
        var lastMove = -Double.infinity
        repeat {
            if clock.now - lastMove >= 1 {
                pointer.move(to: Point(x: 100 + (clock.now - moved).rounded(.down), y: 100))
                lastMove = clock.now
            }
            var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            _ = poll(&entry, 1, 250)
            read += input.events(upTo: clock.now)
        } while input.nextEventTime == nil && clock.now - moved < KernelPacing.patience
        // ... a touch arrives while the turn goes on, and the turn takes its motion and keys.
        screen.down(at: Point(x: 500, y: 400))
        let woke = Self.waitReadable(fd)
        let motion = input.takePointerMotion()
        _ = input.keyEvents(upTo: clock.now)
        if !finalAttempt && motion == nil {
            screen.up()
            return false
        }
        #expect(!read.contains { if case .down = $0.kind { true } else { false } })
        #expect(woke)
        #expect(motion != nil)
        // The touch must not be left where nothing wakes the loop for it: either still in the
        // kernel (the descriptor is readable) or read and reported as due now. A second read
        // inside the turn (the old `takePointerMotion` and `keyEvents`) put it in the source
        // with the descriptor empty and no deadline.
        #expect(Self.readable(fd) || input.nextEventTime != nil)
        // The next turn's read delivers it.
        let next = input.events(upTo: clock.now)
        #expect(next.contains { if case .down = $0.kind { true } else { false } })
        screen.up()
        return true
    }
}
