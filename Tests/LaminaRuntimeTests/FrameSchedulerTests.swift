@testable import Lamina
@testable import LaminaRuntime
import Testing

/// The frame scheduler's decisions after a vblank, on a 60 Hz frame (16.667 ms).
@Suite("Frame scheduler")
struct FrameSchedulerTests {
    let frame = 1.0 / 60

    /// What follows a vblank at t = 1 s, decided at `now`.
    func after(_ scheduler: inout FrameScheduler, now: Double = 1.001, canDraw: Bool = true, needsFrame: Bool,
               links: Bool = false, budget: Double = 0.004) -> FrameScheduler.Action {
        scheduler.afterVBlank(at: 1, now: now, frameDuration: frame, canDraw: canDraw, needsFrame: needsFrame,
                              linksRunning: links, budget: { budget })
    }

    @Test("a frame needed after a vblank is drawn at once for the next vblank")
    func drawsAtOnce() {
        var scheduler = FrameScheduler()
        #expect(after(&scheduler, needsFrame: true) == .draw(target: 1 + frame))
        #expect(scheduler.isIdle)
    }

    @Test("in the repaint window the frame waits until the budget before the vblank, then is due once")
    func repaintWindow() {
        var scheduler = FrameScheduler()
        scheduler.repaintWindow = true
        #expect(after(&scheduler, needsFrame: true) == .none)
        let start = 1 + frame - 0.004
        #expect(scheduler.nextDeadline == start)
        let early = scheduler.takeDueFrame(now: start - 0.0001)
        #expect(early == nil)
        let due = scheduler.takeDueFrame(now: start)
        #expect(due == 1 + frame)
        let again = scheduler.takeDueFrame(now: start)
        #expect(again == nil)                                                   // taken
        #expect(scheduler.isIdle)
    }

    @Test("a budget of a whole frame or more draws at once even in the repaint window")
    func bigBudget() {
        var scheduler = FrameScheduler()
        scheduler.repaintWindow = true
        #expect(after(&scheduler, needsFrame: true, budget: frame) == .draw(target: 1 + frame))
    }

    @Test("links with nothing to draw ask for one vblank at a time")
    func linksOnly() {
        var scheduler = FrameScheduler()
        #expect(after(&scheduler, needsFrame: false, links: true) == .requestVBlank)
        scheduler.vblankRequestSent()
        #expect(after(&scheduler, needsFrame: false, links: true) == .none)
        scheduler.vblankArrived()
        #expect(scheduler.isIdle)
        #expect(after(&scheduler, needsFrame: false, links: false) == .none)
    }

    @Test("nothing is drawn while a flip is in flight, a retry is scheduled or a frame waits; forgetting clears all")
    func blocked() {
        var scheduler = FrameScheduler()
        #expect(after(&scheduler, canDraw: false, needsFrame: true, links: true) == .none)
        scheduler.retry(at: 1.5)
        #expect(after(&scheduler, needsFrame: true, links: true) == .none)
        let early = scheduler.takeRetry(now: 1.4)
        #expect(!early)
        let due = scheduler.takeRetry(now: 1.5)
        #expect(due && scheduler.retryAt == nil)
        scheduler.repaintWindow = true                  // a frame waits in the window until 2.0
        let waits = scheduler.afterVBlank(at: 1.0, now: 1.0, frameDuration: 1, canDraw: true, needsFrame: true,
                                          linksRunning: false, budget: { 0 })
        #expect(waits == .none && scheduler.frameDueAt?.start == 2)
        #expect(after(&scheduler, needsFrame: true) == .none)
        scheduler.retry(at: 1.9)
        scheduler.vblankRequestSent()
        #expect(scheduler.nextDeadline == 1.9)
        scheduler.forgetScheduledOutput()
        #expect(scheduler.isIdle && scheduler.nextDeadline == nil)
    }
}
