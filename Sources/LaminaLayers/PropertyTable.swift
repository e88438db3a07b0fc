import LaminaAnimation
import LaminaGeometry

/// A type a layer property can hold that animations drive as an ``AnimatableValue``.
protocol AnimatableComponent: SendableMetatype {
    /// The value as animations see it.
    var animatableValue: AnimatableValue { get }
    /// The value back from an animation; nil when the animation's value is another kind.
    init?(animatableValue: AnimatableValue)
}

extension Double: AnimatableComponent {
    var animatableValue: AnimatableValue { .scalar(self) }
    init?(animatableValue value: AnimatableValue) {
        guard case .scalar(let v) = value else { return nil }
        self = v
    }
}

extension Point: AnimatableComponent {
    var animatableValue: AnimatableValue { .point(self) }
    init?(animatableValue value: AnimatableValue) {
        guard case .point(let p) = value else { return nil }
        self = p
    }
}

extension Size: AnimatableComponent {
    var animatableValue: AnimatableValue { .size(self) }
    init?(animatableValue value: AnimatableValue) {
        guard case .size(let s) = value else { return nil }
        self = s
    }
}

extension Rect: AnimatableComponent {
    var animatableValue: AnimatableValue { .rect(self) }
    init?(animatableValue value: AnimatableValue) {
        guard case .rect(let r) = value else { return nil }
        self = r
    }
}

extension Transform3D: AnimatableComponent {
    var animatableValue: AnimatableValue { .transform(self) }
    init?(animatableValue value: AnimatableValue) {
        guard case .transform(let t) = value else { return nil }
        self = t
    }
}

extension Bool: AnimatableComponent {
    var animatableValue: AnimatableValue { .bool(self) }
    init?(animatableValue value: AnimatableValue) {
        guard case .bool(let b) = value else { return nil }
        self = b
    }
}

/// An optional colour: nil is a colour value of its own (rule 19).
extension Optional: AnimatableComponent where Wrapped == Color {
    var animatableValue: AnimatableValue { .color(self) }
    init?(animatableValue value: AnimatableValue) {
        guard case .color(let c) = value else { return nil }
        self = c
    }
}

/// How animations read and write one key path of a layer kind's stored properties.
struct AnimatableProperty<Storage>: Sendable {
    /// The current value. The storage is passed `inout` only so that reading one field does
    /// not copy the whole struct out of its layer.
    let read: @Sendable (inout Storage) -> AnimatableValue
    /// Writes a value; false (and nothing written) when it is not of this property's kind.
    let write: @Sendable (inout Storage, AnimatableValue) -> Bool
    /// For a stored field of a lane kind, its lanes written in place (`LaneWriter`).
    var laneWriter: LaneWriter<Storage>? = nil
    /// For a stored transform field, a transform written in place (`TransformWriter`).
    var transformWriter: TransformWriter<Storage>? = nil
    /// For a component of a stored transform field, the component written in place
    /// (`TransformComponentWriter`).
    var componentWriter: TransformComponentWriter<Storage>? = nil

    /// A stored field, read and written as itself.
    @inline(__always)
    static func field<Value: AnimatableComponent>(_ field: WritableKeyPath<Storage, Value> & Sendable) -> Self {
        stored(field)
    }

    /// A stored field of a lane kind: also written as lanes.
    @inline(__always)
    static func field<Value: PlainAnimatable>(_ field: WritableKeyPath<Storage, Value> & Sendable) -> Self {
        var property = stored(field)
        property.laneWriter = LaneWriter(field)
        return property
    }

    /// A stored transform field: also written in place.
    @inline(__always)
    static func field(_ field: WritableKeyPath<Storage, Transform3D> & Sendable) -> Self {
        var property = stored(field)
        property.transformWriter = TransformWriter(field)
        return property
    }

    @inline(__always)
    private static func stored<Value: AnimatableComponent>(_ field: WritableKeyPath<Storage, Value> & Sendable) -> Self {
        Self(read: { $0[keyPath: field].animatableValue },
             write: { storage, value in
                 guard let v = Value(animatableValue: value) else { return false }
                 storage[keyPath: field] = v
                 return true
             })
    }

    /// A value derived from a stored field (a component of a transform): `get` reads it,
    /// `set` returns the field with it replaced, or nil when it cannot be.
    static func derived<Field, Value: AnimatableComponent>(from field: WritableKeyPath<Storage, Field> & Sendable,
                                                          get: @escaping @Sendable (Field) -> Value,
                                                          set: @escaping @Sendable (Field, Value) -> Field?) -> Self {
        Self(read: { get($0[keyPath: field]).animatableValue },
             write: { storage, value in
                 guard let v = Value(animatableValue: value), let updated = set(storage[keyPath: field], v) else { return false }
                 storage[keyPath: field] = updated
                 return true
             })
    }
}

/// A layer kind's animatable properties by key path: the one place each is named for
/// `value(forKeyPath:)` and `applyAnimatedValue(_:forKeyPath:)`. A subclass's table covers
/// its own storage and falls back to its superclass's.
struct PropertyTable<Storage>: Sendable {
    /// The key paths, in the order given, and their properties at the same index. A scan of
    /// short (inline) strings is faster than hashing one for a dictionary, and a table has a
    /// few dozen entries at most.
    private let keyPaths: [String]
    private let properties: [AnimatableProperty<Storage>]

    init(_ properties: KeyValuePairs<String, AnimatableProperty<Storage>>) {
        keyPaths = properties.map(\.key)
        self.properties = properties.map(\.value)
        precondition(Set(keyPaths).count == keyPaths.count, "a key path listed twice")
    }

    /// The value at `keyPath`, or nil when the key path is not in the table. `storage` is
    /// only read (see ``AnimatableProperty/read``).
    /// The key paths, in the order listed.
    var names: [String] { keyPaths }

    func value(at keyPath: String, in storage: inout Storage) -> AnimatableValue? {
        guard let i = keyPaths.firstIndex(of: keyPath) else { return nil }
        return properties[i].read(&storage)
    }

    /// Where `keyPath` is in the table, for `write(_:atIndex:in:)`; nil when it is not there.
    func index(of keyPath: String) -> Int? {
        keyPaths.firstIndex(of: keyPath)
    }

    /// Writes `value` into the property at `index` (from `index(of:)`); false when the value
    /// is of another kind. What an animation does every frame, without the key path's lookup.
    @inline(__always)
    func write(_ value: AnimatableValue, atIndex index: Int, in storage: inout Storage) -> Bool {
        properties[index].write(&storage, value)
    }

    /// The lane writer of the property at `index`, if it has one.
    func laneWriter(atIndex index: Int) -> LaneWriter<Storage>? {
        properties[index].laneWriter
    }

    /// The transform writer of the property at `index`, if it has one.
    func transformWriter(atIndex index: Int) -> TransformWriter<Storage>? {
        properties[index].transformWriter
    }

    /// The transform component writer of the property at `index`, if it has one.
    func componentWriter(atIndex index: Int) -> TransformComponentWriter<Storage>? {
        properties[index].componentWriter
    }

    /// Writes `value` at `keyPath`; nil when the key path is not in the table, false when the
    /// value is of another kind.
    func write(_ value: AnimatableValue, at keyPath: String, in storage: inout Storage) -> Bool? {
        guard let i = keyPaths.firstIndex(of: keyPath) else { return nil }
        return properties[i].write(&storage, value)
    }
}
