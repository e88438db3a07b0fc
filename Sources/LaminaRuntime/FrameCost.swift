/// Where one frame's time went, in seconds on the runtime's `timingClock`: the steps from
/// the model to the glass, each measured apart so a benchmark can say which one grows with
/// what (`lamina bench scene`).
public struct FrameCost: Sendable, Equatable {
    /// Commits since the last frame: model changes and new animations taking effect (input
    /// handlers and display links run before, and are not in it).
    public var commit = 0.0
    /// Animations evaluated and the presentation tree rebuilt.
    public var presentation = 0.0
    /// The walk into a display list and the damage found from its records.
    public var displayList = 0.0
    /// The damaged area cleared and painted.
    public var paint = 0.0
    /// The damage copied into the scanout buffer and the flip asked for.
    public var present = 0.0
    /// The frame handed to the `--frames-out` recorder (a copy, and a wait when its queue is
    /// full); zero when nothing records. Not part of `total`: a recorded run is timed as a
    /// run that records nothing would be.
    public var record = 0.0

    /// A frame that took no time yet.
    public init() {}

    /// What the frame cost outside the rasterizer: commit, presentation and display list.
    public var outsideRaster: Double { commit + presentation + displayList }
    /// Everything but recording: what the stats' `renderMs` would be with the commit and
    /// presentation in it.
    public var total: Double { commit + presentation + displayList + paint + present }
}
