import LaminaAnimation
import LaminaGeometry
import LaminaInput
import LaminaLayers
import LaminaRuntime

/// A viewport onto content larger than itself (`UIScrollView`): dragged, it follows the
/// finger, rubber-banding beyond the content's edges; released, it decelerates as iOS does,
/// bounces at an edge and springs back from beyond one; with paging it settles on whole
/// pages (rules 93–96). Indicators show where the viewport is while it moves.
///
/// Put the content in `contentLayer` (its top left is the content's origin) and set
/// `contentSize`. The viewport is `layer`: add it to the scene and place it. The scroll
/// view's offset is `layer.bounds.origin`, as a `UIScrollView`'s is its bounds' origin.
///
/// A scroll view scrolls along an axis when its content is longer than the viewport there
/// (or `alwaysBounceHorizontal` / `alwaysBounceVertical`). One that scrolls along one axis
/// only takes the drags that go more that way than the other, so a horizontal scroller in a
/// vertical one shares the finger with it: sideways drags move the inner one, the rest the
/// outer one.
///
/// While it moves, a display link updates the offset every frame from closed formulas
/// (`ScrollMotion`); when it stops, the link pauses and the loop sleeps. Keep the scroll
/// view (not only its layer) for as long as it is shown: its recognizers call it weakly.
public final class ScrollView: GestureRecognizerDelegate {
    /// How a scroll view's indicators look.
    public struct Style: Sendable {
        /// The indicators' colour.
        public var indicatorColor = Color.white.multiplyingAlpha(by: 0.5)
        /// Their thickness in pixels.
        public var indicatorThickness = 6.0
        /// Their distance from the viewport's edges in pixels.
        public var indicatorInset = 3.0
        /// Their shortest length in pixels (before rubber-banding shrinks them).
        public var minimumIndicatorLength = 36.0

        /// Half-white 6 px bars, 3 px from the edges.
        public init() {}
    }

    /// Seconds the indicators stay after the motion stops, then fade.
    public static let indicatorLinger = 0.5

    /// The viewport: add it to the scene, set its `position`. It clips its content.
    public let layer: Layer
    /// Holds the content: add sublayers here, in content coordinates.
    public let contentLayer: Layer
    /// The bar along the bottom showing the horizontal position.
    public let horizontalIndicator: Layer
    /// The bar along the right showing the vertical position.
    public let verticalIndicator: Layer
    /// The drag that scrolls (its delegate is the scroll view).
    public let panGestureRecognizer: PanGestureRecognizer
    /// How the indicators look (fixed when it is made).
    public let style: Style

    /// The content's size: how far it scrolls.
    public var contentSize: Size {
        didSet {
            let size = Size(width: max(contentSize.width.isFinite ? contentSize.width : 0, 0),
                            height: max(contentSize.height.isFinite ? contentSize.height : 0, 0))
            if size != contentSize { contentSize = size; return }
            withoutActions { contentLayer.bounds = Rect(origin: .zero, size: contentSize) }
            updateIndicators()
        }
    }
    /// Whether it settles on whole pages (the viewport's size) after a drag.
    public var isPagingEnabled = false
    /// Whether it goes past the content's edges, rubber-banding and bouncing back (true),
    /// or stops at them.
    public var bounces = true
    /// Scrolls horizontally even when the content is no wider than the viewport.
    public var alwaysBounceHorizontal = false
    /// Scrolls vertically even when the content is no taller than the viewport.
    public var alwaysBounceVertical = false
    /// How fast a flick slows: `Decay.normalRate` (0.998 a millisecond) or `Decay.fastRate`.
    public var decelerationRate: Double {
        get { decay.rate }
        set { decay.rate = newValue }
    }
    /// Whether the indicators show while it moves.
    public var showsIndicators = true
    /// Whether drags scroll it.
    public var isScrollEnabled = true
    /// Called whenever the offset changes (every frame while it moves).
    public var onScroll: ((ScrollView) -> Void)?
    /// Called when a motion ends (the offset at rest).
    public var onScrollEnd: ((ScrollView) -> Void)?
    /// Told before `onScroll` whenever the offset changes: what a list built on the scroll
    /// view lays its rows out by, leaving `onScroll` to the app.
    var offsetObserver: (() -> Void)?

    /// True while a finger drags the content.
    public private(set) var isDragging = false
    /// True while it moves on its own after a drag (decelerating, bouncing, paging) or an
    /// animated offset change.
    public var isDecelerating: Bool { motion != nil }

    private let context: SceneContext
    private var decay = Decay()
    private var link: DisplayLink?
    private var motion: (x: ScrollMotion?, y: ScrollMotion?, start: Double)?
    private var dragStartOffset = Point.zero
    private var fadeTimer: SceneTimer?
    /// A finger stopped the motion and has not lifted or dragged yet.
    private var isHeld = false
    /// The last finger to land stopped a motion (a tap that stops a list selects nothing).
    public private(set) var touchStoppedMotion = false

    /// A scroll view `size` pixels large with no content yet.
    public init(context: SceneContext, size: Size, style: Style = Style()) {
        self.context = context
        self.style = style
        contentSize = .zero
        layer = Layer()
        contentLayer = Layer()
        horizontalIndicator = Layer()
        verticalIndicator = Layer()
        let relay = Relay()
        panGestureRecognizer = PanGestureRecognizer { relay.scrollView?.panned($0) }
        let touches = TouchRecognizer { _ in }
        touches.onFirstTouchDown = { relay.scrollView?.touchedDown() }
        touches.onLastTouchUp = { relay.scrollView?.touchedUp() }
        relay.scrollView = self
        withoutActions {
            layer.bounds = Rect(origin: .zero, size: Size(width: max(size.width, 0), height: max(size.height, 0)))
            layer.masksToBounds = true
            contentLayer.anchorPoint = .zero
            contentLayer.position = .zero
            layer.addSublayer(contentLayer)
            for indicator in [horizontalIndicator, verticalIndicator] {
                indicator.backgroundColor = style.indicatorColor
                indicator.cornerRadius = style.indicatorThickness / 2
                indicator.opacity = 0
                indicator.anchorPoint = .zero
                layer.addSublayer(indicator)
            }
        }
        panGestureRecognizer.delegate = self
        context.addGestureRecognizer(panGestureRecognizer, to: layer)
        context.addGestureRecognizer(touches, to: layer)
    }

    /// How the recognizers reach the scroll view without keeping it.
    private final class Relay {
        weak var scrollView: ScrollView?
    }

    // MARK: The offset

    /// The content's point at the viewport's top left. Setting it stops any motion and
    /// does not clamp (as `UIScrollView`'s does not).
    public var contentOffset: Point {
        get { layer.bounds.origin }
        set {
            stopMotion()
            setOffset(newValue)
        }
    }

    /// Moves to `offset`, animated with the scroll view's spring when `animated` (the offset
    /// is clamped to the content then).
    public func setContentOffset(_ offset: Point, animated: Bool) {
        guard animated else {
            contentOffset = offset
            return
        }
        let target = Point(x: min(max(offset.x, 0), maximumOffset.x), y: min(max(offset.y, 0), maximumOffset.y))
        let now = context.now
        let velocity = currentVelocity(at: now)
        let current = contentOffset
        startMotion(x: ScrollMotion(springingFrom: current.x, velocity: velocity.x, to: target.x),
                    y: ScrollMotion(springingFrom: current.y, velocity: velocity.y, to: target.y), at: now)
    }

    /// The largest offset along each axis: the content's size less the viewport's (0 when
    /// the content is smaller).
    public var maximumOffset: Point {
        let size = layer.bounds.size
        return Point(x: max(contentSize.width - size.width, 0), y: max(contentSize.height - size.height, 0))
    }

    /// Whether it scrolls along each axis.
    public var scrollsHorizontally: Bool { contentSize.width > layer.bounds.width || alwaysBounceHorizontal }
    /// Whether it scrolls vertically.
    public var scrollsVertically: Bool { contentSize.height > layer.bounds.height || alwaysBounceVertical }

    private func setOffset(_ offset: Point) {
        guard offset.x.isFinite, offset.y.isFinite else { return }
        withoutActions { layer.bounds.origin = offset }
        updateIndicators()
        offsetObserver?()
        onScroll?(self)
    }

    // MARK: Dragging

    /// A drag that goes mostly along an axis the scroll view does not scroll is left to
    /// others (an outer scroller); one that goes along no scrollable axis is refused.
    public func gestureRecognizerShouldBegin(_ recognizer: GestureRecognizer) -> Bool {
        guard recognizer === panGestureRecognizer, isScrollEnabled else { return recognizer !== panGestureRecognizer }
        // At this moment the translation was just rebased to zero: the way from where the
        // fingers landed says which way the drag goes.
        let moved = panGestureRecognizer.startLocation(in: nil).map { panGestureRecognizer.location(in: nil) - $0 } ?? .zero
        switch (scrollsHorizontally, scrollsVertically) {
        case (true, true): return true
        case (true, false): return abs(moved.x) >= abs(moved.y)
        case (false, true): return abs(moved.y) >= abs(moved.x)
        case (false, false): return false
        }
    }

    /// A finger on moving content holds it where it is.
    private func touchedDown() {
        touchStoppedMotion = isScrollEnabled && motion != nil
        guard isScrollEnabled, motion != nil else { return }
        stopMotion()
        isHeld = true
    }

    /// Lifted without dragging: content held beyond an edge, or between pages, goes back.
    private func touchedUp() {
        guard isHeld else { return }
        isHeld = false
        release(velocity: .zero)
    }

    private func panned(_ pan: PanGestureRecognizer) {
        switch pan.state {
        case .began:
            stopMotion()
            isHeld = false
            isDragging = true
            dragStartOffset = contentOffset
            showIndicators()
        case .changed:
            let t = pan.translation(in: layer)
            setOffset(Point(x: dragOffset(dragStartOffset.x - t.x, axis: \.x),
                            y: dragOffset(dragStartOffset.y - t.y, axis: \.y)))
        case .ended, .cancelled:
            isDragging = false
            let velocity = pan.state == .ended ? pan.velocity(in: layer) : .zero
            release(velocity: Point(x: scrollsHorizontally ? -velocity.x : 0, y: scrollsVertically ? -velocity.y : 0))
        default:
            break
        }
    }

    /// Where a drag to `raw` (no rubber band) puts the offset along `axis`.
    private func dragOffset(_ raw: Double, axis: KeyPath<Point, Double>) -> Double {
        let scrolls = axis == \Point.x ? scrollsHorizontally : scrollsVertically
        guard scrolls else { return contentOffset[keyPath: axis] }
        let range = 0...maximumOffset[keyPath: axis]
        guard bounces else { return min(max(raw, range.lowerBound), range.upperBound) }
        let dimension = axis == \Point.x ? layer.bounds.width : layer.bounds.height
        return RubberBand.offset(raw, in: range, dimension: dimension)
    }

    /// Released at the current offset moving at `velocity` (offset per second).
    private func release(velocity: Point) {
        let now = context.now, offset = contentOffset, maximum = maximumOffset
        func motion(_ x: Double, _ v: Double, _ upper: Double, _ page: Double, _ startX: Double) -> ScrollMotion {
            guard isPagingEnabled, page > 0 else {
                return ScrollMotion(offset: x, velocity: v, range: 0...upper, decay: decay, bounces: bounces)
            }
            // The page the projection lands on, at most one page from where the drag began.
            let from = (startX / page).rounded()
            let projected = ((x + decay.projection(of: v)) / page).rounded()
            let target = min(max(projected, from - 1), from + 1) * page
            return ScrollMotion(springingFrom: x, velocity: v, to: min(max(target, 0), upper))
        }
        let size = layer.bounds.size
        startMotion(x: motion(offset.x, velocity.x, maximum.x, size.width, dragStartOffset.x),
                    y: motion(offset.y, velocity.y, maximum.y, size.height, dragStartOffset.y), at: now)
    }

    // MARK: Motion

    private func startMotion(x: ScrollMotion, y: ScrollMotion, at time: Double) {
        motion = (x, y, time)
        showIndicators()
        if link == nil {
            link = context.addDisplayLink { [weak self] link in self?.step(link) }
        }
        link?.isPaused = false
    }

    private func step(_ link: DisplayLink) {
        guard let current = motion else {
            link.isPaused = true
            return
        }
        let t = link.targetTimestamp - current.start
        let x = current.x?.position(at: t) ?? contentOffset.x, y = current.y?.position(at: t) ?? contentOffset.y
        setOffset(Point(x: x, y: y))
        if current.x?.isFinished(at: t) ?? true, current.y?.isFinished(at: t) ?? true {
            stopMotion()
            onScrollEnd?(self)
        }
    }

    /// The offset's velocity now, while a motion runs (zero otherwise).
    private func currentVelocity(at time: Double) -> Point {
        guard let motion else { return .zero }
        let t = time - motion.start
        return Point(x: motion.x?.velocity(at: t) ?? 0, y: motion.y?.velocity(at: t) ?? 0)
    }

    private func stopMotion() {
        guard motion != nil else { return }
        motion = nil
        link?.isPaused = true
        if !isDragging { hideIndicatorsLater() }
    }

    // MARK: Indicators

    private func showIndicators() {
        fadeTimer?.invalidate()
        fadeTimer = nil
        guard showsIndicators else { return }
        withoutActions {
            horizontalIndicator.opacity = scrollsHorizontally && contentSize.width > layer.bounds.width ? 1 : 0
            verticalIndicator.opacity = scrollsVertically && contentSize.height > layer.bounds.height ? 1 : 0
        }
    }

    private func hideIndicatorsLater() {
        fadeTimer?.invalidate()
        fadeTimer = context.addTimer(interval: Self.indicatorLinger) { [weak self] _ in
            guard let self else { return }
            self.horizontalIndicator.opacity = 0        // an implicit fade
            self.verticalIndicator.opacity = 0
            self.fadeTimer = nil
        }
    }

    /// Places the bars for the current offset: each as long as the viewport's share of the
    /// content, shortened by how far the offset is beyond an edge.
    private func updateIndicators() {
        let size = layer.bounds.size, offset = layer.bounds.origin, maximum = maximumOffset
        let thickness = style.indicatorThickness, inset = style.indicatorInset
        func bar(viewport: Double, content: Double, offset: Double, maximum: Double, track: Double) -> (start: Double, length: Double) {
            guard content > 0, track > 0 else { return (0, 0) }
            let beyond = offset < 0 ? -offset : max(offset - maximum, 0)
            var length = max(track * viewport / content, style.minimumIndicatorLength) - beyond
            length = min(max(length, thickness), track)
            let fraction = maximum > 0 ? min(max(offset / maximum, 0), 1) : 0
            return (fraction * (track - length), length)
        }
        let horizontalTrack = size.width - 2 * inset - thickness - inset
        let verticalTrack = size.height - 2 * inset - thickness - inset
        let h = bar(viewport: size.width, content: contentSize.width, offset: offset.x, maximum: maximum.x, track: horizontalTrack)
        let v = bar(viewport: size.height, content: contentSize.height, offset: offset.y, maximum: maximum.y, track: verticalTrack)
        withoutActions {
            horizontalIndicator.bounds = Rect(x: 0, y: 0, width: h.length, height: thickness)
            horizontalIndicator.position = Point(x: offset.x + inset + h.start, y: offset.y + size.height - inset - thickness)
            verticalIndicator.bounds = Rect(x: 0, y: 0, width: thickness, height: v.length)
            verticalIndicator.position = Point(x: offset.x + size.width - inset - thickness, y: offset.y + inset + v.start)
        }
    }
}

/// Hears the fingers that land on its layer and lift again, recognizing nothing: how a
/// scroll view stops moving under a touch and goes on when it lifts. It fails when the last
/// finger lifts (so no touch's end waits for it), or when another recognizer takes the
/// touches.
final class TouchRecognizer: GestureRecognizer {
    override var kind: String { "touch" }
    /// Called when the first finger of a touch sequence lands.
    var onFirstTouchDown: (() -> Void)?
    /// Called when the last one lifts, unless a recognizer took them.
    var onLastTouchUp: (() -> Void)?
    private var isDown = false

    override func touchesBegan(_ touches: [Touch], at time: Double) {
        guard state == .possible, !isDown else { return }
        isDown = true
        onFirstTouchDown?()
    }

    override func touchesEnded(_ touches: [Touch], at time: Double) {
        guard state == .possible, self.touches.count <= touches.count else { return }
        onLastTouchUp?()
        transition(to: .failed)
    }

    override func reset() {
        super.reset()
        isDown = false
    }
}
