import LaminaAnimation
import LaminaGeometry

/// An animated value of up to four numbers that interpolate one by one (a number, a point, a
/// size, a rectangle, a colour), as lanes: most animations are of these kinds, and a frame
/// evaluates them without building, interpolating, writing through a key path and destroying an
/// `AnimatableValue` (decision 129).
struct PlainLanes: Equatable {
    enum Kind: Equatable { case scalar, point, size, rect, color }

    let kind: Kind
    let values: SIMD4<Double>

    /// The lanes of `value`; nil for the kinds that do not interpolate lane by lane
    /// (transforms, Booleans, no colour).
    init?(_ value: AnimatableValue) {
        switch value {
        case .scalar(let v): (kind, values) = (.scalar, SIMD4(v, 0, 0, 0))
        case .point(let p): (kind, values) = (.point, SIMD4(p.x, p.y, 0, 0))
        case .size(let s): (kind, values) = (.size, SIMD4(s.width, s.height, 0, 0))
        case .rect(let r): (kind, values) = (.rect, SIMD4(r.origin.x, r.origin.y, r.size.width, r.size.height))
        case .color(let c?): (kind, values) = (.color, SIMD4(c.red, c.green, c.blue, c.alpha))
        case .color(nil), .transform, .bool: return nil
        }
    }
}

/// A stored property's type that animations write as lanes: `init(lanes:)` builds exactly
/// what `init(animatableValue:)` gets from `AnimatableValue.interpolated(to:by:)`, which
/// interpolates these kinds lane by lane as `a + (b − a) · t`.
protocol PlainAnimatable: AnimatableComponent {
    static var laneKind: PlainLanes.Kind { get }
    init(lanes: SIMD4<Double>)
}

extension Double: PlainAnimatable {
    static var laneKind: PlainLanes.Kind { .scalar }
    init(lanes: SIMD4<Double>) { self = lanes[0] }
}

extension Point: PlainAnimatable {
    static var laneKind: PlainLanes.Kind { .point }
    init(lanes: SIMD4<Double>) { self.init(x: lanes[0], y: lanes[1]) }
}

extension Size: PlainAnimatable {
    static var laneKind: PlainLanes.Kind { .size }
    init(lanes: SIMD4<Double>) { self.init(width: lanes[0], height: lanes[1]) }
}

extension Rect: PlainAnimatable {
    static var laneKind: PlainLanes.Kind { .rect }
    init(lanes: SIMD4<Double>) { self.init(x: lanes[0], y: lanes[1], width: lanes[2], height: lanes[3]) }
}

extension Optional: PlainAnimatable where Wrapped == Color {
    static var laneKind: PlainLanes.Kind { .color }
    init(lanes: SIMD4<Double>) { self = Color(red: lanes[0], green: lanes[1], blue: lanes[2], alpha: lanes[3]) }
}

/// Writes a transform straight into a stored `Transform3D` field of a property struct, at
/// the field's byte offset: an affine transform animation's value every frame, without the
/// `AnimatableValue` whose transform case is boxed (an allocation and a free each frame) and
/// without the key path's setter.
struct TransformWriter<Storage>: Sendable {
    let offset: Int

    /// Nil when `field` is not a stored field at a fixed offset.
    init?(_ field: WritableKeyPath<Storage, Transform3D> & Sendable) {
        guard let offset = MemoryLayout<Storage>.offset(of: field) else { return nil }
        self.offset = offset
    }

    @inline(__always)
    func write(_ transform: Transform3D, into storage: inout Storage) {
        withUnsafeMutableBytes(of: &storage) { bytes in
            bytes.storeBytes(of: transform, toByteOffset: offset, as: Transform3D.self)
        }
    }
}

/// Writes lanes straight into a stored field of a property struct, at the field's byte
/// offset: a key path's setter goes through the runtime's generic key-path code on every
/// write (about a tenth of a frame of 10,000 animations, measured).
/// Two plain numbers, so an animation holding one retains nothing to use it.
struct LaneWriter<Storage>: Sendable {
    let kind: PlainLanes.Kind
    let offset: Int

    /// Nil when `field` is not a stored field at a fixed offset (a computed property), or its
    /// type is not trivially copyable.
    init?<Value: PlainAnimatable>(_ field: WritableKeyPath<Storage, Value> & Sendable) {
        guard _isPOD(Value.self), let offset = MemoryLayout<Storage>.offset(of: field) else { return nil }
        kind = Value.laneKind
        self.offset = offset
    }

    /// Stores `lanes` as the field's type (the one `kind` stands for: `PlainAnimatable`'s
    /// kinds are one per type).
    @inline(__always)
    func write(_ lanes: SIMD4<Double>, into storage: inout Storage) {
        withUnsafeMutableBytes(of: &storage) { bytes in
            switch kind {
            case .scalar: bytes.storeBytes(of: Double(lanes: lanes), toByteOffset: offset, as: Double.self)
            case .point: bytes.storeBytes(of: Point(lanes: lanes), toByteOffset: offset, as: Point.self)
            case .size: bytes.storeBytes(of: Size(lanes: lanes), toByteOffset: offset, as: Size.self)
            case .rect: bytes.storeBytes(of: Rect(lanes: lanes), toByteOffset: offset, as: Rect.self)
            case .color: bytes.storeBytes(of: Color?(lanes: lanes), toByteOffset: offset, as: Color?.self)
            }
        }
    }
}

/// Writes one component of a stored transform (`transform.scale`, `.rotation.z`,
/// `.translation`, …) given as lanes: the transform read at its byte offset, the component
/// replaced by `set`, and stored back, as the key path's derived property does, without
/// projecting the key path through the runtime's generic code on every frame.
struct TransformComponentWriter<Storage>: Sendable {
    /// The component's lane kind (a scalar, or a size for `transform.translation`).
    let kind: PlainLanes.Kind
    let transform: TransformWriter<Storage>
    /// The transform with the component replaced; nil when it cannot be (nothing written).
    let set: @Sendable (Transform3D, SIMD4<Double>) -> Transform3D?

    @inline(__always)
    func write(_ lanes: SIMD4<Double>, into storage: inout Storage) {
        let current = withUnsafeBytes(of: &storage) { $0.load(fromByteOffset: transform.offset, as: Transform3D.self) }
        if let updated = set(current, lanes) { transform.write(updated, into: &storage) }
    }
}
