import LaminaDisplay
import LaminaSystem
import Testing

@Suite("Waiting for a display device")
struct DeviceWaitTests {
    struct NotYet: Error, Equatable { let attempt: Int }

    @Test("a device usable at once is taken at once: one attempt, no time passes")
    func usableAtOnce() throws {
        let clock = VirtualClock(start: 100)
        let (result, attempts) = DeviceWait.retrying(upTo: 10, clock: clock, loop: clock.makeEventLoop(),
                                                     attempt: { Result<Int, NotYet>.success(7) }, keepWaiting: { _ in true })
        #expect(try result.get() == 7 && attempts == 1 && clock.now == 100)
    }

    @Test("a device that becomes usable is taken at the first retry after it does, every retryInterval")
    func becomesUsable() throws {
        let clock = VirtualClock(start: 0)
        var times: [Double] = []
        let (result, attempts) = DeviceWait.retrying(upTo: 10, clock: clock, loop: clock.makeEventLoop(), attempt: {
            times.append(clock.now)
            return clock.now >= 1.1 ? .success(times.count) : Result<Int, NotYet>.failure(NotYet(attempt: times.count))
        }, keepWaiting: { _ in true })
        // Tries at 0, 0.25, …, 1.0 fail; the one at 1.25 is the first at or after 1.1.
        #expect(try result.get() == 6 && attempts == 6)
        #expect(times.count == 6 && zip(times, times.dropFirst()).allSatisfy { abs($1 - $0 - DeviceWait.retryInterval) < 1e-9 })
        #expect(abs(clock.now - 1.25) < 1e-9)
    }

    @Test("a device that never becomes usable: the last failure at the deadline, never later")
    func givesUp() {
        let clock = VirtualClock(start: 5)
        let (result, attempts) = DeviceWait.retrying(upTo: 2, clock: clock, loop: clock.makeEventLoop(), attempt: {
            Result<Int, NotYet>.failure(NotYet(attempt: 0))
        }, keepWaiting: { _ in true })
        #expect(throws: NotYet.self) { try result.get() }
        // 5.0, 5.25, …, 7.0: nine attempts, the last exactly at the deadline.
        #expect(attempts == 9 && abs(clock.now - 7) < 1e-9)
    }

    @Test("a failure keepWaiting calls final ends the wait at once; no wait at all when 0 seconds are given")
    func finalFailure() {
        let clock = VirtualClock(start: 0)
        var asked = 0
        let final = DeviceWait.retrying(upTo: 10, clock: clock, loop: clock.makeEventLoop(), attempt: {
            Result<Int, NotYet>.failure(NotYet(attempt: 0))
        }, keepWaiting: { _ in asked += 1; return asked < 3 })
        #expect(final.attempts == 3 && abs(clock.now - 0.5) < 1e-9)
        let none = DeviceWait.retrying(upTo: 0, clock: clock, loop: clock.makeEventLoop(), attempt: {
            Result<Int, NotYet>.failure(NotYet(attempt: 0))
        }, keepWaiting: { _ in true })
        #expect(none.attempts == 1 && abs(clock.now - 0.5) < 1e-9)
    }

    @Test("a folder without card nodes: openFirstUsable waits on the clock it is given and says why it gave up")
    func noCards() throws {
        let clock = VirtualClock(start: 0)
        let (result, attempts) = DRMDevice.openFirstUsable(directory: "/nonexistent-lamina-dri", waitingUpTo: 1, clock: clock)
        #expect(attempts == 5 && abs(clock.now - 1) < 1e-9)
        guard case .failure(let error) = result else { Issue.record("opened a device"); return }
        #expect(error.detail.contains("no /nonexistent-lamina-dri/card* device"), "\(error)")
    }
}
