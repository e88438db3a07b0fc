import LaminaAnimation
import LaminaGeometry

/// Draws its sublayers `instanceCount` times (`CAReplicatorLayer`): instance i through
/// `instanceTransform` applied i times about the replicator's centre, its animations
/// `i · instanceDelay` seconds behind, its opacity multiplied by `1 + i · instanceAlphaOffset`
/// (clamped to 0…1).
open class ReplicatorLayer: Layer {
    /// The most instances drawn (decision 86): a larger `instanceCount` is clamped, so one
    /// property cannot make a frame draw a billion copies.
    public static let maximumInstanceCount = 4096

    struct ReplicatorProperties: Hashable {
        var instanceCount = 1
        var instanceTransform = Transform3D.identity
        var instanceDelay = 0.0
        var instanceAlphaOffset = 0.0
        var instanceColor = Color.white
        var instanceRedOffset = 0.0, instanceGreenOffset = 0.0, instanceBlueOffset = 0.0
    }

    var replicator = ReplicatorProperties()
    /// On presentation copies: instances 1… as built for the frame.
    var instances: [[Layer]] = []

    /// A replicator drawing its sublayers once.
    public override init() { super.init() }

    /// How many times the sublayers are drawn (1 by default; clamped to `maximumInstanceCount`).
    public var instanceCount: Int {
        get { replicator.instanceCount }
        set { mutateReplicator("instanceCount") { $0.instanceCount = min(max(newValue, 0), ReplicatorLayer.maximumInstanceCount) } }
    }

    /// Applied once more for each further instance, about the replicator's centre.
    public var instanceTransform: Transform3D {
        get { replicator.instanceTransform }
        set { mutateReplicator("instanceTransform") { $0.instanceTransform = newValue } }
    }

    /// Seconds each further instance's animations run behind the previous one's.
    public var instanceDelay: Double {
        get { replicator.instanceDelay }
        set { mutateReplicator("instanceDelay") { $0.instanceDelay = newValue } }
    }

    /// Multiplies every colour of the sublayers' drawing (opaque white by default: no change).
    public var instanceColor: Color {
        get { replicator.instanceColor }
        set { mutateReplicator("instanceColor") { $0.instanceColor = newValue } }
    }

    /// Added to `instanceColor`'s red (green, blue) for each further instance.
    public var instanceRedOffset: Double {
        get { replicator.instanceRedOffset }
        set { mutateReplicator("instanceRedOffset") { $0.instanceRedOffset = newValue } }
    }
    /// Added to `instanceColor`'s green for each further instance.
    public var instanceGreenOffset: Double {
        get { replicator.instanceGreenOffset }
        set { mutateReplicator("instanceGreenOffset") { $0.instanceGreenOffset = newValue } }
    }
    /// Added to `instanceColor`'s blue for each further instance.
    public var instanceBlueOffset: Double {
        get { replicator.instanceBlueOffset }
        set { mutateReplicator("instanceBlueOffset") { $0.instanceBlueOffset = newValue } }
    }

    /// Added to each further instance's opacity (clamped to 0…1).
    public var instanceAlphaOffset: Double {
        get { replicator.instanceAlphaOffset }
        set { mutateReplicator("instanceAlphaOffset") { $0.instanceAlphaOffset = newValue } }
    }

    private func mutateReplicator(_ key: String, _ change: (inout ReplicatorProperties) -> Void) {
        changeProperty(key) { change(&replicator) }
    }

    /// Instance i's transform in the replicator's space: `instanceTransform` applied i times
    /// about the centre of the bounds.
    public func instanceMatrix(_ i: Int) -> Transform3D {
        var power = Transform3D.identity
        for _ in 0..<max(i, 0) { power = power.concatenating(replicator.instanceTransform) }
        return aboutCentre(power)
    }

    /// Every instance's transform, 0 up to `count - 1`: each power of `instanceTransform` from
    /// the one before (one product an instance, where `instanceMatrix` for each would be
    /// quadratic in the count).
    func instanceMatrices(_ count: Int) -> [Transform3D] {
        var result: [Transform3D] = []
        result.reserveCapacity(max(count, 0))
        var power = Transform3D.identity
        for i in 0..<max(count, 0) {
            if i > 0 { power = power.concatenating(replicator.instanceTransform) }
            result.append(aboutCentre(power))
        }
        return result
    }

    private func aboutCentre(_ power: Transform3D) -> Transform3D {
        let b = bounds
        return Transform3D(translationX: -b.midX, y: -b.midY, z: 0).concatenating(power)
            .concatenating(Transform3D(translationX: b.midX, y: b.midY, z: 0))
    }

    /// Instance i's opacity factor: `instanceColor`'s alpha plus i alpha offsets, clamped.
    public func instanceAlpha(_ i: Int) -> Double {
        min(max(replicator.instanceColor.alpha + Double(i) * replicator.instanceAlphaOffset, 0), 1)
    }

    /// Instance i's colour multiplier (nil when it changes nothing).
    public func instanceTint(_ i: Int) -> (r: Double, g: Double, b: Double)? {
        let c = replicator.instanceColor, k = Double(i)
        func clamp(_ v: Double) -> Double { min(max(v, 0), 1) }
        let tint = (r: clamp(c.red + k * replicator.instanceRedOffset), g: clamp(c.green + k * replicator.instanceGreenOffset),
                    b: clamp(c.blue + k * replicator.instanceBlueOffset))
        return tint == (1, 1, 1) ? nil : tint
    }

    open override func makePresentationCopy() -> Layer {
        let copy = ReplicatorLayer()
        copy.properties = properties
        copy.replicator = replicator
        return copy
    }

    open override func hashDrawing(into hasher: inout Hasher) {
        super.hashDrawing(into: &hasher)
        hasher.combine(replicator)
    }

    /// This kind's own animatable properties.
    static let replicatorProperties = PropertyTable<ReplicatorProperties>([
        "instanceTransform": .field(\.instanceTransform),
        "instanceDelay": .field(\.instanceDelay),
        "instanceAlphaOffset": .field(\.instanceAlphaOffset),
    ])

    open override func value(forKeyPath keyPath: String) -> AnimatableValue? {
        Self.replicatorProperties.value(at: keyPath, in: &replicator) ?? super.value(forKeyPath: keyPath)
    }

    /// This kind's own key paths after `Layer`'s.
    open override class var animatableKeyPaths: [String] { super.animatableKeyPaths + ReplicatorLayer.replicatorProperties.names }

    @discardableResult
    open override func applyAnimatedValue(_ value: AnimatableValue, forKeyPath keyPath: String) -> Bool {
        Self.replicatorProperties.write(value, at: keyPath, in: &replicator) ?? super.applyAnimatedValue(value, forKeyPath: keyPath)
    }

    override var sublayerInstanceCount: Int { replicator.instanceCount }

    /// Instance 0 is the sublayers themselves; instances 1… are the copies built for the frame.
    override func sublayerInstances() -> [SublayerInstance] {
        let all = [sublayersInDrawingOrder] + instances
        let placements = instanceMatrices(all.count)
        return all.enumerated().map { i, sublayers in
            SublayerInstance(sublayers: sublayers, placement: placements[i], alpha: instanceAlpha(i), tint: instanceTint(i))
        }
    }

    /// The instances count as one more thing drawn (they may overlap the sublayers).
    override var kindContentElementCount: Int { replicator.instanceCount > 1 && !sublayers.isEmpty ? 1 : 0 }
}

extension Layer {
    /// True for a replicator, which draws its sublayers as instances, each placed, faded and
    /// tinted (`sublayerInstances()`); false for every other kind, which draws each sublayer
    /// once where it is (the display list's walk places those itself). Not an overridable
    /// hook: a new slot in `Layer`'s vtable changes every subclass's in other modules.
    var drawsSublayerInstances: Bool { self is ReplicatorLayer }
}
