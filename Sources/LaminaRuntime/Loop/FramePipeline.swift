import LaminaDisplay
import LaminaLayers
import LaminaRaster

/// When frames are drawn and what with: the scheduler (vblanks asked for, the repaint window,
/// retries), the display links run for each, the renderer (only what changed), the canvas on
/// the display's shadow buffer, the colour behind the root layer, and, when set, the
/// recorder that receives every presented frame and the clock its drawing is timed on.
final class FramePipeline {
    /// When frames are drawn, vblanks asked for and refused calls retried.
    var scheduler = FrameScheduler()
    /// The display links, run once per frame before it is committed and drawn.
    let links = DisplayLinks()
    /// Draws the presentation tree, only what changed.
    let renderer = Renderer()
    /// The shadow buffer's canvas (a new one when a hotplug brings a new buffer).
    var canvas: Canvas
    /// The colour behind the root layer.
    var background: Color
    /// Receives every presented frame when set.
    var recorder: FrameRecorder?
    /// When set, each frame's drawing and presenting are timed on it (benchmarks, the daemon).
    var timingClock: MonotonicClock?
    /// Receives each timed frame's cost, step by step.
    var onFrameCost: ((FrameCost) -> Void)?
    /// Time spent committing since the last frame, on `timingClock`.
    var pendingCommitCost = 0.0
    /// Seconds before the vblank a frame starts inside the repaint window; nil measures it.
    var repaintBudget: Double?
    /// Whether contents a plane can show (video) are offered to the display's overlay plane.
    var usesOverlayPlanes = true
    /// The overlay placement of the last frame presented (nil: the plane was not used).
    var overlayShown: PlanePlacement?
    /// Frames presented with contents on the overlay plane.
    var overlayFrames = 0
    /// The driver's last overlay refusal logged (each new reason is logged once).
    var overlayRefusalLogged: String?

    init(canvas: Canvas, background: Color) {
        self.canvas = canvas
        self.background = background
    }

    /// Draws what changed in `tree`'s presentation into the canvas; the damaged rectangle,
    /// nil when nothing was drawn, the disjoint regions inside it that were redrawn, and the
    /// overlay placement `display` took for contents a
    /// plane can show (decision 146). With a timing clock, the walk and the painting are
    /// timed into `cost`. Not while recording: a recording shows every frame composited.
    func draw(_ tree: LayerTree, on display: Display, cost: inout FrameCost)
        -> (damage: PixelRect?, regions: [PixelRect], overlay: PlanePlacement?, overlayImage: PixelBuffer?) {
        guard let presentation = tree.root.presentation() else { return (nil, [], nil, nil) }
        let start = timingClock?.now
        var placement: PlanePlacement?
        var image: PixelBuffer?
        let offer: ((OverlayContents) -> Bool)? = usesOverlayPlanes && recorder == nil ? { contents in
            placement = display.prepareOverlay(contents.image, source: contents.source, destination: contents.destination)
            image = placement != nil ? contents.image : nil
            return placement != nil
        } : nil
        let frame = renderer.findDamage(presentation, canvasSize: (canvas.target.width, canvas.target.height),
                                        background: background, overlay: offer)
        let found = timingClock?.now
        renderer.paint(frame, into: canvas, background: background)
        if let start, let found, let end = timingClock?.now {
            cost.displayList = found - start
            cost.paint = end - found
        }
        return (frame.damage, frame.regions, placement, image)
    }
}

/// What the daemon does when the runtime is asked to reload, switch scenes or report its
/// stats (by a signal or the control socket); nil: the runtime cannot.
struct RuntimeHooks {
    /// Reloads the configuration and calls `done` on the loop with why it was rejected.
    var onReload: ((_ done: @escaping (String?) -> Void) -> Void)?
    /// Switches to a scene by name or file and calls `done` on the loop with why it could not.
    var onSwitchScene: ((_ scene: String, _ done: @escaping (String?) -> Void) -> Void)?
    /// Reports the stats (SIGUSR1); by default the runtime logs them.
    var onStatsRequest: (() -> Void)?
    /// Receives every published event (the control socket's subscriptions).
    var onPublish: ((_ kind: String, _ fields: [String: ControlValue]) -> Void)?
}
