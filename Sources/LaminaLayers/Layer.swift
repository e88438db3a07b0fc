import LaminaAnimation
import LaminaGeometry
import LaminaRaster

/// A node of the layer tree (`CALayer`): geometry, appearance and sublayers, plus the
/// animations attached to it.
///
/// A layer you create is a **model** layer: it holds what app code sets, and setting a
/// property never animates it by itself. What is on screen is the **presentation**: a copy
/// rebuilt every frame from the last committed model with the running animations applied
/// (rules 45–47). Presentation layers are read-only; setting one of their properties traps.
open class Layer {
    /// Model properties shared by every layer kind (defaults of rule 48).
    struct Properties {
        var position = Point.zero
        var bounds = Rect.zero
        var anchorPoint = Point(x: 0.5, y: 0.5)
        var zPosition = 0.0
        var transform = Transform3D.identity
        var opacity = 1.0
        var backgroundColor: Color?
        var isHidden = false
        var beginTime = 0.0
        var speed = 1.0
        var timeOffset = 0.0
        var cornerRadius = 0.0
        var borderWidth = 0.0
        var borderColor: Color? = .black
        var masksToBounds = false
        var contents: PixelBuffer?
        var contentsGravity: ContentsGravity = .resize
        var contentsScale = 1.0
        /// Counts the backing stores `display()` drew (damage tracking sees each new one).
        var contentsGeneration = 0
        var anchorPointZ = 0.0
        var sublayerTransform = Transform3D.identity
        var isDoubleSided = true
        var isGeometryFlipped = false
        var shadowColor: Color? = .black
        var shadowOpacity = 0.0
        var shadowOffset = Size(width: 0, height: -3)
        var shadowRadius = 3.0
        var shadowPath: Path?
    }

    // This and the other fields every presentation pass reads and writes are not checked for
    // overlapping access at run time (the compiler still checks what it can see): every
    // animated value of every frame is written here, and the dynamic check cost more than the
    // write (decision 129).
    @exclusivity(unchecked) var properties = Properties()
    /// The layers drawn in this layer's space, back to front before `zPosition` ordering.
    @exclusivity(unchecked) public internal(set) var sublayers: [Layer] = []
    /// The layer this one is a sublayer of, if any.
    @exclusivity(unchecked) public internal(set) weak var superlayer: Layer?
    /// An optional name, for debugging and lookup.
    @exclusivity(unchecked) public var name: String?

    /// Set on presentation copies: the model layer they show.
    private weak var modelLayer: Layer?
    /// True for the read-only copies `presentation()` returns.
    @exclusivity(unchecked) public private(set) var isPresentation = false
    /// The copy shown in the last rendered frame (rule 47: rebuilt when the layer, its
    /// subtree or an animation in it changes it).
    @exclusivity(unchecked) var presentationLayer: Layer?
    /// Set when this layer or one below it changed since the last presentation pass (a
    /// property, sublayers, the mask, animations added or removed, a display request): the
    /// next commit and presentation pass walk down to it; the rest of the tree is skipped.
    @exclusivity(unchecked) final var needsPresentation = true
    /// Set by the last presentation pass: nothing in this subtree animates, so until
    /// something in it changes its copy is shown again as it is (decision 128). The pass
    /// sets it on the model and on the copy it made or kept for it.
    @exclusivity(unchecked) final var presentsStatically = false
    /// On a presentation copy that is shown again: what its subtree's walk appended to the
    /// display list, and where (DisplayListBuilder).
    @exclusivity(unchecked) final var drawingCache: SubtreeDrawing?
    /// On presentation copies during a transition: the old picture, the transition and its
    /// progress (rule 34).
    @exclusivity(unchecked) var transitionFrame: (old: Layer, transition: Transition, progress: Double)?
    /// The tree this layer is the root of, if any.
    weak var hostingTree: LayerTree?

    @exclusivity(unchecked) var animations = AnimationList()
    /// Per property, the block animation call that animated it last (rule 67).
    var blockAnimationOwners: [String: BlockAnimationRecord] = [:]
    /// Completions waiting for the next frame (removed or replaced animations).
    @exclusivity(unchecked) var pendingCallbacks: [() -> Void] = []
    /// Set by `setNeedsDisplay()`: the next commit calls `display()` (Layer+Display.swift).
    var displayRequested = false
    /// `needsDisplayOnBoundsChange`.
    var redisplaysOnResize = false

    /// Draws the layer's own content (`CALayer.draw(in:)`): called by `display()` with a
    /// canvas the size of the bounds (one pixel per point, `contentsScale` pixels per point
    /// when set), its pixel (0, 0) at the bounds' origin and cleared to transparent. What is
    /// drawn becomes `contents`, cached until the next `setNeedsDisplay()`. The default asks
    /// the delegate, if it is a ``LayerDrawingDelegate``, and otherwise draws nothing.
    open func draw(in canvas: Canvas) {
        (delegate as? LayerDrawingDelegate)?.draw(self, in: canvas)
    }

    /// Updates `contents` (`CALayer.display()`): called at the commit after
    /// `setNeedsDisplay()`. The default renders `draw(in:)` into a new backing store; a
    /// subclass may instead set `contents` itself.
    open func display() {
        drawBackingStore()
    }

    /// A layer with the default properties (rule 48).
    public init() {}

    // MARK: Properties

    /// The anchor point's position in the superlayer's coordinates.
    public var position: Point {
        get { properties.position }
        set { mutate("position") { $0.position = newValue } }
    }

    /// The layer's own coordinate space: its origin and size.
    public var bounds: Rect {
        get { properties.bounds }
        set {
            if LayerDiagnostics.isEnabled, newValue.size.width < 0 || newValue.size.height < 0 {
                LayerDiagnostics.warnOnce("bounds of \(type(of: self)) set to a negative size \(newValue.size): it is made positive (standardized) as Core Animation does",
                                          file: #fileID, line: #line)
            }
            let sizeChanged = newValue.standardized.size != properties.bounds.size
            mutate("bounds") { $0.bounds = newValue.standardized }
            if sizeChanged && needsDisplayOnBoundsChange { setNeedsDisplay() }
        }
    }

    /// Where `position` sits inside the bounds, in unit coordinates (0.5, 0.5 = centre).
    public var anchorPoint: Point {
        get { properties.anchorPoint }
        set { mutate("anchorPoint") { $0.anchorPoint = newValue } }
    }

    /// Front-to-back order among siblings and a z translation (rule 54).
    public var zPosition: Double {
        get { properties.zPosition }
        set { mutate("zPosition") { $0.zPosition = newValue } }
    }

    /// Applied about the anchor point (rule 51).
    public var transform: Transform3D {
        get { properties.transform }
        set { mutate("transform") { $0.transform = newValue } }
    }

    /// 0 (invisible) … 1 (opaque); multiplies the whole subtree.
    public var opacity: Double {
        get { properties.opacity }
        set { mutate("opacity") { $0.opacity = newValue } }
    }

    /// Fills the bounds behind the layer's content; nil draws nothing.
    public var backgroundColor: Color? {
        get { properties.backgroundColor }
        set { mutate("backgroundColor") { $0.backgroundColor = newValue } }
    }

    /// A hidden layer and its subtree are not drawn and not hit.
    public var isHidden: Bool {
        get { properties.isHidden }
        set { mutate("hidden") { $0.isHidden = newValue } }
    }

    /// Rounds the background, the border and (with `masksToBounds`) the clip; clamped to
    /// half the shorter side when drawn.
    public var cornerRadius: Double {
        get { properties.cornerRadius }
        set { mutate("cornerRadius") { $0.cornerRadius = newValue } }
    }

    /// Width of the border, drawn inside the bounds above the sublayers; 0 draws none.
    public var borderWidth: Double {
        get { properties.borderWidth }
        set { mutate("borderWidth") { $0.borderWidth = newValue } }
    }

    /// The border's colour (opaque black by default, rule 48); nil draws none.
    public var borderColor: Color? {
        get { properties.borderColor }
        set { mutate("borderColor") { $0.borderColor = newValue } }
    }

    /// Clips the layer's content and sublayers to its (rounded) bounds.
    public var masksToBounds: Bool {
        get { properties.masksToBounds }
        set { mutate("masksToBounds") { $0.masksToBounds = newValue } }
    }

    /// An image drawn over the background, placed in the bounds by `contentsGravity`
    /// (premultiplied pixels; nil draws nothing).
    public var contents: PixelBuffer? {
        get { properties.contents }
        set { mutate("contents") { $0.contents = newValue } }
    }

    /// How `contents` sits in the bounds (`resize` by default, rule 48).
    public var contentsGravity: ContentsGravity {
        get { properties.contentsGravity }
        set { mutate("contentsGravity") { $0.contentsGravity = newValue } }
    }

    /// Image pixels per point of `contents` (1 by default): a 2x image shows at half size.
    public var contentsScale: Double {
        get { properties.contentsScale }
        set { mutate("contentsScale") { $0.contentsScale = newValue } }
    }

    /// A layer whose alpha clips this one (its background, contents, sublayers and border),
    /// in this layer's coordinates. It is not a sublayer, but it animates and is drawn with
    /// the tree; setting it asks for the "mask" action (rule 43).
    public var mask: Layer? {
        get { maskLayer }
        set {
            precondition(!isPresentation, "a presentation layer is read-only; set the model layer")
            maskLayer?.maskOwner = nil
            maskLayer = newValue
            newValue?.maskOwner = self
            setNeedsCommit()
            propertyDidChange("mask", from: nil)
            newValue?.propertyDidChange("onOrderIn", from: nil)
        }
    }
    var maskLayer: Layer?
    /// Set on a mask: the layer it masks (its way into the tree).
    weak var maskOwner: Layer?

    /// The anchor's z coordinate (rule 51).
    public var anchorPointZ: Double {
        get { properties.anchorPointZ }
        set { mutate("anchorPointZ") { $0.anchorPointZ = newValue } }
    }

    /// Applied to every sublayer about this layer's anchor, in its bounds space: the usual
    /// home of a shared perspective (`m34 = −1/d`, rules 51, 53).
    public var sublayerTransform: Transform3D {
        get { properties.sublayerTransform }
        set { mutate("sublayerTransform") { $0.sublayerTransform = newValue } }
    }

    /// False hides the layer while its projected front faces away from the viewer (rule 55).
    public var isDoubleSided: Bool {
        get { properties.isDoubleSided }
        set { mutate("doubleSided") { $0.isDoubleSided = newValue } }
    }

    /// The shadow's colour (opaque black by default); drawn only when `shadowOpacity` > 0.
    public var shadowColor: Color? {
        get { properties.shadowColor }
        set { mutate("shadowColor") { $0.shadowColor = newValue } }
    }

    /// 0 (default: no shadow) … 1.
    public var shadowOpacity: Double {
        get { properties.shadowOpacity }
        set { mutate("shadowOpacity") { $0.shadowOpacity = newValue } }
    }

    /// Where the shadow falls, in the layer's units ((0, −3) by default, as Core Animation).
    public var shadowOffset: Size {
        get { properties.shadowOffset }
        set { mutate("shadowOffset") { $0.shadowOffset = newValue } }
    }

    /// How soft the shadow is (3 by default): about the blur's standard deviation.
    public var shadowRadius: Double {
        get { properties.shadowRadius }
        set { mutate("shadowRadius") { $0.shadowRadius = newValue } }
    }

    /// The shadow's shape; nil uses the layer's outline (its shape path, or its rounded bounds).
    public var shadowPath: Path? {
        get { properties.shadowPath }
        set { mutate("shadowPath") { $0.shadowPath = newValue } }
    }

    /// Flips the sublayers' geometry vertically within the bounds (rule 56): drawing and
    /// hit testing of sublayers see y mirrored about the bounds' middle.
    public var isGeometryFlipped: Bool {
        get { properties.isGeometryFlipped }
        set { mutate("geometryFlipped") { $0.isGeometryFlipped = newValue } }
    }

    /// True for layers that keep their sublayers in one 3-D space (`TransformLayer`);
    /// ordinary layers flatten what their sublayers draw into their own plane (rule 55).
    open var keepsSublayers3D: Bool { false }

    /// The bounding box of the bounds placed with the anchor on `position`, through
    /// `transform` (rule 49). Derived, not stored: setting it sets `position`, then
    /// `bounds.size` (so two actions run, under "position" and "bounds", rule 42), placing the
    /// untransformed bounds at the frame.
    public var frame: Rect {
        get {
            let t = transformToSuperlayer()
            let b = bounds
            let corners = [Point(x: b.minX, y: b.minY), Point(x: b.maxX, y: b.minY),
                           Point(x: b.minX, y: b.maxY), Point(x: b.maxX, y: b.maxY)]
            return Rect.boundingBox(of: corners.compactMap { t.project($0) })
        }
        set {
            // Rule 50: position from the frame's origin and the anchor; the size mapped back
            // through the transform's 2-D scale factors (Lamina choice for non-scale
            // transforms); bounds.origin kept.
            let f = newValue.standardized, a = anchorPoint
            position = Point(x: f.minX + a.x * f.width, y: f.minY + a.y * f.height)
            var size = f.size
            if !properties.transform.isIdentity {
                let scale = Decomposed2D(properties.transform).scale
                if scale.x != 0 { size.width /= abs(scale.x) }
                if scale.y != 0 { size.height /= abs(scale.y) }
            }
            bounds = Rect(origin: bounds.origin, size: size)
        }
    }

    // MARK: Actions (rules 40–43)

    /// Asked first for the action of a changed property. Weak, as in Core Animation.
    public weak var delegate: LayerDelegate?
    /// Per-key actions, searched after the delegate (`.none` ends the search).
    public var actions: [String: ActionAnswer] = [:]
    /// Searched after `actions`.
    public var style: LayerStyle?

    /// The class's own action for `key`, searched after `style`; nil here (the stock
    /// animations are a separate, last step: rule 40). Subclasses override it.
    open class func defaultAction(forKey key: String) -> (any LayerAction)? { nil }

    /// Changes model properties, then runs the action for `key` (rule 40).
    func mutate(_ key: String, _ change: (inout Properties) -> Void) {
        changeProperty(key) { change(&properties) }
    }

    /// The one path of every model property change, for this class and its subclasses:
    /// presentations refuse it, the old value is kept for the action, the tree is marked for
    /// commit and the action for `key` runs (rule 40).
    func changeProperty(_ key: String, _ apply: () -> Void) {
        precondition(!isPresentation, "a presentation layer is read-only; set the model layer")
        let old = value(forKeyPath: key)
        apply()
        setNeedsCommit()
        propertyDidChange(key, from: old)
    }

    /// Hands this subtree's waiting callbacks to the thread's frame loop queue.
    func moveCallbacksToFrameLoop() {
        TransactionStack.current.due.append(contentsOf: pendingCallbacks)
        pendingCallbacks.removeAll()
        for child in sublayers { child.moveCallbacksToFrameLoop() }
    }

    /// Whether the display may show this layer's `contents` on a hardware overlay plane
    /// instead of drawing them: a video layer's frames (decision 146). The renderer takes
    /// the chance only while the contents are drawn unrotated, at full opacity, clipped by
    /// rectangles at most, with nothing drawn over them, and the driver accepts the
    /// placement; otherwise they are drawn as any image. False for every other layer. Read
    /// on the model layer (a presentation copy is a plain `Layer`).
    open var contentsMayUseOverlayPlane: Bool { false }

    /// Feeds everything about the layer's own drawing into `hasher` (for damage tracking);
    /// subclasses that draw more add their own properties.
    open func hashDrawing(into hasher: inout Hasher) {
        hashLayerDrawing(into: &hasher, includingContents: true)
    }

    /// `Layer`'s own part of `hashDrawing`; without the contents image's identity for a
    /// layer whose contents are on an overlay plane (a new frame there changes no pixel the
    /// renderer draws).
    final func hashLayerDrawing(into hasher: inout Hasher, includingContents: Bool) {
        hasher.combine(properties.bounds.origin.x); hasher.combine(properties.bounds.origin.y)
        hasher.combine(properties.bounds.size.width); hasher.combine(properties.bounds.size.height)
        hasher.combine(properties.backgroundColor)
        hasher.combine(properties.cornerRadius)
        hasher.combine(properties.borderWidth)
        hasher.combine(properties.borderColor)
        hasher.combine(properties.masksToBounds)
        hasher.combine(sublayers.count)
        if includingContents, let contents = properties.contents { hasher.combine(ObjectIdentifier(contents)) }
        hasher.combine(properties.contentsGeneration)
        hasher.combine(properties.contentsGravity)
        hasher.combine(properties.contentsScale)
        hasher.combine(properties.shadowColor)
        hasher.combine(properties.shadowOpacity)
        hasher.combine(properties.shadowOffset.width); hasher.combine(properties.shadowOffset.height)
        hasher.combine(properties.shadowRadius)
        hasher.combine(properties.shadowPath)
        hasher.combine(maskLayer != nil)
    }

    /// Marks the tree as changed so the next frame commits and draws it, and the way from
    /// the root down to this layer as needing a new presentation.
    func setNeedsCommit() {
        var layer: Layer? = self
        while let l = layer {
            l.needsPresentation = true
            if let tree = l.hostingTree { tree.needsCommit = true; return }
            layer = l.superlayer ?? l.maskOwner
        }
    }

    // MARK: Model and presentation

    /// The presentation copy shown in the last rendered frame, or nil before the layer
    /// has been rendered (rule 45). A presentation's presentation is itself.
    public func presentation() -> Layer? {
        isPresentation ? self : presentationLayer
    }

    /// The model layer: itself for a model layer, the layer shown for a presentation.
    public func model() -> Layer {
        isPresentation ? (modelLayer ?? self) : self
    }

    /// A read-only copy of this layer's own properties (not its sublayers), of the same kind.
    /// Subclasses with their own properties override it and copy those too.
    open func makePresentationCopy() -> Layer {
        let copy = Layer()
        copy.properties = properties
        return copy
    }

    func preparePresentationCopy(of model: Layer) {
        name = model.name
        isPresentation = true
        modelLayer = model
    }

    /// A replicator's extra instance: drawn in its space, not one of its sublayers.
    func attachAsInstance(of replicator: Layer) {
        superlayer = replicator
    }

    /// Makes `children` (the sublayers' copies) this copy's sublayers.
    func adoptPresentationSublayers(_ children: [Layer]) {
        sublayers = children
        for child in children { child.superlayer = self }
    }

    // MARK: What each kind draws (asked by the display list's walk)

    /// Appends what this kind draws between the contents image and the sublayers (a shape's
    /// fill and stroke, a text layer's lines, a gradient); nothing for a plain layer.
    func appendKindContent(to operations: inout [DisplayOperation], in context: KindContentContext) {}

    /// How many separate things `appendKindContent` draws: with two or more that may overlap,
    /// a translucent layer needs an offscreen for group opacity.
    var kindContentElementCount: Int { 0 }

    /// What the kind's content may cover beyond the bounds, in the layer's space; nil for none.
    var kindContentExtent: Rect? { nil }

    /// The shadow's outline when `shadowPath` is nil, if not the rounded bounds (a shape's path).
    var kindSilhouette: Path? { nil }

    /// The path the kind's content draws, which its `hashDrawing` leaves out: the damage
    /// record carries it apart, so a frame that only moves its points can redraw just where
    /// the fill changed (`Path.differingRegions`). `onlyFilled` is false when anything else
    /// drawn from it (a stroke) reaches beyond what a fill of it covers. Nil for other kinds.
    var kindOutline: (path: Path, onlyFilled: Bool)? { nil }

    /// How many times the sublayers are drawn (a replicator's instances; 1 otherwise).
    var sublayerInstanceCount: Int { 1 }

    /// The sublayers as drawn, instance by instance, in drawing order (rule 54).
    func sublayerInstances() -> [SublayerInstance] {
        [SublayerInstance(sublayers: sublayersInDrawingOrder)]
    }

    // MARK: Key-path access (what animations drive)

    /// Every key path `value(forKeyPath:)` answers for this kind, its superclasses' included
    /// (what a scene file may set and animate).
    open class var animatableKeyPaths: [String] { Layer.layerProperties.names }

    /// The current value of an animatable property, or nil for an unknown key path.
    /// Subclasses with their own properties look in their own table, then call `super`.
    open func value(forKeyPath keyPath: String) -> AnimatableValue? {
        Layer.layerProperties.value(at: keyPath, in: &properties)
    }

    /// Writes an animated value into this layer's properties. Used on presentation copies;
    /// returns false when the key path or the value's kind is not one this layer has.
    @discardableResult
    open func applyAnimatedValue(_ value: AnimatableValue, forKeyPath keyPath: String) -> Bool {
        Layer.layerProperties.write(value, at: keyPath, in: &properties) ?? false
    }

    /// `bounds.contains(p)`, half-open (rule 57). Subclasses may override.
    open func contains(_ p: Point) -> Bool {
        bounds.contains(p)
    }

}
