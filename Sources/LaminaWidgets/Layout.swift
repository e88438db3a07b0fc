import LaminaGeometry
import LaminaLayers

/// How long an item of a stack is along the stack's axis.
public enum ItemSize: Hashable, Sendable {
    /// As long as the item is (its bounds' size when added, or as set since).
    case fit
    /// Exactly this long.
    case fixed(Double)
    /// A share, by this weight, of the length the fitting and fixed items leave.
    case flexible(Double)
}

/// What a layout container does: place its items in its bounds.
public protocol LayoutContainer: AnyObject {
    /// The container's layer, whose sublayers are the items.
    var layer: Layer { get }
    /// Places the items for the layer's current bounds.
    func layOut()
}

extension LayoutContainer {
    /// The container's size; setting it lays the items out again.
    public var size: Size {
        get { layer.bounds.size }
        set {
            LayoutGeometry.place(layer, size: newValue)
            layOut()
        }
    }
}

/// Items in a row or a column (`UIStackView`, SwiftUI's stacks, CSS flexbox's simple case):
/// laid out one after another along `axis` with `spacing` between them inside `padding`;
/// fitting and fixed items keep their length, flexible ones share what is left by weight,
/// and without flexible items `distribution` places the group. Across the axis each item is
/// aligned (`alignment`), or stretched to the stack's width with `.fill`.
///
/// The stack lays out again when its size, an item or a setting changes; after resizing an
/// item yourself, call `layOut()`. Stacks nest: add a stack's container as an item of
/// another (`add(_:size:)` with the inner stack), and it is laid out for the size it gets.
public final class StackLayout: LayoutContainer {
    /// Along which axis the items follow one another.
    public enum Axis: String, Hashable, Sendable {
        /// Left to right.
        case horizontal
        /// Top to bottom.
        case vertical
    }

    /// Where items sit across the axis.
    public enum Alignment: String, Hashable, Sendable {
        /// Top (in a row) or left (in a column).
        case start
        /// Centred.
        case center
        /// Bottom or right.
        case end
        /// Stretched across the whole stack.
        case fill
    }

    /// Where the group goes along the axis when no item is flexible.
    public enum Distribution: String, Hashable, Sendable {
        /// From the start.
        case start
        /// Centred.
        case center
        /// Toward the end.
        case end
        /// The first at the start, the last at the end, the gaps equal (at least `spacing`).
        case spaceBetween
    }

    /// The container: place it, set its size (`size`), and it holds the items.
    public let layer: Layer
    /// The direction of the stack.
    public var axis: Axis { didSet { layOut() } }
    /// Pixels between neighbouring items.
    public var spacing: Double { didSet { layOut() } }
    /// Where items sit across the axis.
    public var alignment: Alignment { didSet { layOut() } }
    /// Where the group goes when nothing is flexible.
    public var distribution: Distribution { didSet { layOut() } }
    /// Room inside the stack's edges.
    public var padding: EdgeInsets { didSet { layOut() } }
    /// The items, in order, with their lengths along the axis.
    public private(set) var items: [(layer: Layer, size: ItemSize)] = []
    private var nested: [ObjectIdentifier: any LayoutContainer] = [:]

    /// A stack `size` large.
    public convenience init(axis: Axis, size: Size = .zero, spacing: Double = 0, alignment: Alignment = .center,
                            distribution: Distribution = .start, padding: EdgeInsets = .zero) {
        self.init(container: Layer(), axis: axis, spacing: spacing, alignment: alignment, distribution: distribution,
                  padding: padding)
        LayoutGeometry.place(layer, size: size)
    }

    /// A stack laying out `container`, a layer that exists already (its size kept): add its
    /// sublayers as items, in order, to have them placed.
    public init(container: Layer, axis: Axis, spacing: Double = 0, alignment: Alignment = .center,
                distribution: Distribution = .start, padding: EdgeInsets = .zero) {
        layer = container
        self.axis = axis
        self.spacing = spacing
        self.alignment = alignment
        self.distribution = distribution
        self.padding = padding
    }

    /// Adds `item` at the end, `size` long along the axis.
    public func add(_ item: Layer, size: ItemSize = .fit) {
        items.append((item, size))
        withoutActions { layer.addSublayer(item) }
        layOut()
    }

    /// Adds another container (a stack, a grid) as an item: it is laid out again whenever
    /// this stack gives it a new size.
    public func add(_ container: any LayoutContainer, size: ItemSize = .fit) {
        nested[ObjectIdentifier(container.layer)] = container
        add(container.layer, size: size)
    }

    /// Takes `item` out of the stack (and out of its layer).
    public func remove(_ item: Layer) {
        items.removeAll { $0.layer === item }
        nested[ObjectIdentifier(item)] = nil
        withoutActions { item.removeFromSuperlayer() }
        layOut()
    }

    /// Places every item for the stack's current size.
    public func layOut() {
        let inner = LayoutGeometry.inner(layer.bounds, padding)
        let horizontal = axis == .horizontal
        let available = horizontal ? inner.width : inner.height
        let cross = horizontal ? inner.height : inner.width
        let shown = items.filter { !$0.layer.isHidden }
        let gaps = spacing * Double(max(shown.count - 1, 0))
        var lengths: [Double] = shown.map { item in
            switch item.size {
            case .fit: return horizontal ? item.layer.bounds.width : item.layer.bounds.height
            case .fixed(let length): return max(length, 0)
            case .flexible: return 0
            }
        }
        let weights = shown.map { if case .flexible(let w) = $0.size { return max(w, 0) } else { return 0 } }
        let totalWeight = weights.reduce(0, +)
        let left = max(available - gaps - lengths.reduce(0, +), 0)
        if totalWeight > 0 {
            for i in lengths.indices where weights[i] > 0 { lengths[i] = left * weights[i] / totalWeight }
        }
        let used = lengths.reduce(0, +) + gaps
        var start = horizontal ? inner.minX : inner.minY
        var gap = spacing
        if totalWeight == 0 {
            switch distribution {
            case .start: break
            case .center: start += (available - used) / 2
            case .end: start += available - used
            case .spaceBetween where shown.count > 1: gap = spacing + max(available - used, 0) / Double(shown.count - 1)
            case .spaceBetween: break
            }
        }
        withoutActions {
            for (i, item) in shown.enumerated() {
                // An item keeps its own size across unless filling: shrunk to a stack not yet
                // sized (a nested stack is laid out before its outer one sizes it), it would
                // keep the shrunk size for good. A larger item overflows, aligned the same way.
                let own = horizontal ? item.layer.bounds.height : item.layer.bounds.width
                let across = alignment == .fill ? cross : own
                let crossStart = horizontal ? inner.minY : inner.minX
                let offset: Double
                switch alignment {
                case .start, .fill: offset = 0
                case .center: offset = (cross - across) / 2
                case .end: offset = cross - across
                }
                let frame = horizontal
                    ? Rect(x: start, y: crossStart + offset, width: lengths[i], height: across)
                    : Rect(x: crossStart + offset, y: start, width: across, height: lengths[i])
                LayoutGeometry.place(item.layer, in: frame)
                start += lengths[i] + gap
            }
        }
        for item in shown { nested[ObjectIdentifier(item.layer)]?.layOut() }
    }
}

/// Items in rows of `columns` equal columns (a grid of choices, a keypad), left to right
/// then top to bottom, inside `padding`, with `spacing` between columns and rows. Each row is
/// `rowHeight` tall, or as tall as its tallest item when nil; items are stretched to their
/// cell (`fillsCells`) or centred in it.
public final class GridLayout: LayoutContainer {
    /// The container: place it, set its size.
    public let layer: Layer
    /// How many columns.
    public var columns: Int { didSet { layOut() } }
    /// Pixels between columns (`width`) and rows (`height`).
    public var spacing: Size { didSet { layOut() } }
    /// Each row's height; nil: its tallest item's.
    public var rowHeight: Double? { didSet { layOut() } }
    /// Whether items are stretched to their cells (true) or centred in them at their size.
    public var fillsCells: Bool { didSet { layOut() } }
    /// Room inside the grid's edges.
    public var padding: EdgeInsets { didSet { layOut() } }
    /// The items, in order.
    public private(set) var items: [Layer] = []

    /// A grid of `columns` columns, `size` large.
    public convenience init(columns: Int, size: Size = .zero, spacing: Size = .zero, rowHeight: Double? = nil,
                            fillsCells: Bool = true, padding: EdgeInsets = .zero) {
        self.init(container: Layer(), columns: columns, spacing: spacing, rowHeight: rowHeight, fillsCells: fillsCells,
                  padding: padding)
        LayoutGeometry.place(layer, size: size)
    }

    /// A grid laying out `container`, a layer that exists already (its size kept): add its
    /// sublayers as items, in order, to have them placed.
    public init(container: Layer, columns: Int, spacing: Size = .zero, rowHeight: Double? = nil,
                fillsCells: Bool = true, padding: EdgeInsets = .zero) {
        layer = container
        self.columns = max(columns, 1)
        self.spacing = spacing
        self.rowHeight = rowHeight
        self.fillsCells = fillsCells
        self.padding = padding
    }

    /// Adds `item` in the next cell.
    public func add(_ item: Layer) {
        items.append(item)
        withoutActions { layer.addSublayer(item) }
        layOut()
    }

    /// Places every item for the grid's current size.
    public func layOut() {
        let inner = LayoutGeometry.inner(layer.bounds, padding)
        let n = max(columns, 1)
        let width = max((inner.width - spacing.width * Double(n - 1)) / Double(n), 0)
        var y = inner.minY
        withoutActions {
            for rowStart in stride(from: 0, to: items.count, by: n) {
                let row = items[rowStart..<min(rowStart + n, items.count)]
                let height = rowHeight ?? row.map(\.bounds.height).max() ?? 0
                for (column, item) in row.enumerated() {
                    let cell = Rect(x: inner.minX + Double(column) * (width + spacing.width), y: y, width: width, height: height)
                    if fillsCells {
                        LayoutGeometry.place(item, in: cell)
                    } else {
                        let size = item.bounds.size
                        LayoutGeometry.place(item, in: Rect(x: cell.midX - size.width / 2, y: cell.midY - size.height / 2,
                                                            width: size.width, height: size.height))
                    }
                }
                y += height + spacing.height
            }
        }
    }
}

/// Frames the layouts compute and set.
enum LayoutGeometry {
    /// `bounds` less `padding`, never narrower than nothing.
    static func inner(_ bounds: Rect, _ padding: EdgeInsets) -> Rect {
        let r = bounds.inset(by: padding)
        return Rect(x: r.minX, y: r.minY, width: max(r.width, 0), height: max(r.height, 0))
    }


    /// `layer` sized `size`, its anchor kept where it is.
    static func place(_ layer: Layer, size: Size) {
        withoutActions { layer.bounds.size = Size(width: max(size.width, 0), height: max(size.height, 0)) }
    }

    /// `layer` filling `frame` in its superlayer (its anchor wherever it is within the bounds;
    /// the transform is not considered, as `frame` does not with one).
    static func place(_ layer: Layer, in frame: Rect) {
        let a = layer.anchorPoint
        layer.bounds.size = frame.size
        layer.position = Point(x: frame.minX + a.x * frame.width, y: frame.minY + a.y * frame.height)
    }
}
