import LaminaGeometry
import LaminaInput
import SystemPackage

/// Where touches come from and where they go: the touch sources (libinput, scripts), read
/// in the order they were added, and the dispatcher that routes their events to recognizers
/// and handlers by hit testing. The loop reads and delivers them (`Runtime.deliverInput`);
/// this holds what the loop, the output and the pointer ask of them together.
final class TouchInput {
    /// Routes touches to gesture recognizers and touch handlers by hit testing.
    let dispatcher: TouchDispatcher
    /// The touch sources, in the order they were added.
    private(set) var sources: [TouchSource] = []

    init(dispatcher: TouchDispatcher) {
        self.dispatcher = dispatcher
    }

    /// Feeds `source`'s events to the loop after those of the sources added before.
    func add(_ source: TouchSource) {
        sources.append(source)
    }

    /// No finger down, no gesture waiting for time to pass, no scripted input left.
    var isSettled: Bool {
        !dispatcher.hasActiveTouches && dispatcher.nextDeadline == nil && sources.allSatisfy(\.isSettled)
    }

    /// The earliest of the sources' next events (a script's) and the gesture deadlines.
    var nextDeadline: Double? {
        var earliest = dispatcher.nextDeadline
        for source in sources {
            if let time = source.nextEventTime, time < earliest ?? .infinity { earliest = time }
        }
        return earliest
    }

    /// The sources' descriptors (libinput's), appended to `descriptors`.
    func collectDescriptors(into descriptors: inout [FileDescriptor]) {
        for source in sources {
            if let fd = source.eventDescriptor { descriptors.append(FileDescriptor(rawValue: fd)) }
        }
    }

    /// The pointer's latest position from every source (all are drained, so no motion stays
    /// due in one), nil when none moved.
    func takePointerMotion() -> (time: Double, position: Point)? {
        var moved: (time: Double, position: Point)?
        for source in sources {
            if let motion = source.takePointerMotion() { moved = motion }
        }
        return moved
    }

    /// Lets go of the devices (another VT's owner reads them).
    func suspend() {
        sources.forEach { $0.suspend() }
    }

    /// Takes the devices back.
    func resume() {
        sources.forEach { $0.resume() }
    }

    /// The panel is now `size` pixels (a hotplug brought another mode).
    func panelResized(to size: Size) {
        for source in sources { source.panelResized(to: size) }
    }
}
