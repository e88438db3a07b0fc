import LaminaGeometry
import LaminaInput
import LaminaLayers
import LaminaRuntime

/// Where a list's rows come from (`UITableViewDataSource`): how many there are, how to
/// make a row's layers, and how to show one row's data in them.
public protocol ListDataSource: AnyObject {
    /// How many rows the list has.
    func numberOfRows(in list: ListView) -> Int
    /// A new row's layer tree, `size` large (its anchor at the top left): called only while
    /// the rows on screen need more layers than the list has made.
    func makeRow(for list: ListView, size: Size) -> Layer
    /// Shows row `index`'s data in `row`, a layer `makeRow` made (perhaps showing another row
    /// before: set everything that differs between rows).
    func list(_ list: ListView, configure row: Layer, at index: Int)
}

/// A scrolling list of rows of one height that makes layers only for the rows on screen
/// and reuses them as rows scroll in and out (`UITableView`): ten rows or a million cost the
/// same to keep and to scroll. The rows come from a ``ListDataSource``.
///
/// A tap on a row calls `onSelect` with its index (not a tap that stopped a moving list, as
/// on iOS). The list is a ``ScrollView`` (`scrollView`), with its physics and indicators.
public final class ListView {
    /// The scroll view the rows are in: add its `layer` to the scene.
    public let scrollView: ScrollView
    /// The list's layer (the scroll view's viewport).
    public var layer: Layer { scrollView.layer }
    /// Each row's height in pixels.
    public let rowHeight: Double
    /// Where the rows come from. Set it, then `reloadData()`.
    public weak var dataSource: (any ListDataSource)?
    /// Called with a row's index when it is tapped.
    public var onSelect: ((ListView, Int) -> Void)?

    /// How many rows the list shows (as of the last `reloadData()`).
    public private(set) var rowCount = 0
    /// The row layers made so far: at most the rows a viewport and a row beyond each edge hold.
    public private(set) var rowLayers: [Layer] = []
    /// Which row each shown layer shows, by the layer's index in `rowLayers`.
    private var shownRows: [Int: Int] = [:]
    private var tap: TapGestureRecognizer?

    /// A list `size` large whose rows are `rowHeight` tall (at least 1 px).
    public init(context: SceneContext, size: Size, rowHeight: Double, style: ScrollView.Style = ScrollView.Style()) {
        scrollView = ScrollView(context: context, size: size, style: style)
        self.rowHeight = max(rowHeight.isFinite ? rowHeight : 1, 1)
        scrollView.alwaysBounceVertical = true
        let relay = Relay()
        scrollView.offsetObserver = { relay.list?.layOutRows() }
        let tap = TapGestureRecognizer { relay.list?.tapped($0) }
        context.addGestureRecognizer(tap, to: scrollView.layer)
        self.tap = tap
        relay.list = self
    }

    private final class Relay {
        weak var list: ListView?
    }

    /// The rows whose layers are on screen now, first to last.
    public var visibleRows: Range<Int> {
        let top = scrollView.contentOffset.y, height = scrollView.layer.bounds.height
        let first = Int((max(top, 0) / rowHeight).rounded(.down))
        let last = Int(((top + height) / rowHeight).rounded(.up))
        return min(first, rowCount)..<min(max(last, first), rowCount)
    }

    /// Asks the data source again for the row count and every shown row's data.
    public func reloadData() {
        let count = dataSource?.numberOfRows(in: self) ?? 0
        rowCount = max(0, min(count, Self.maximumRows))
        scrollView.contentSize = Size(width: scrollView.layer.bounds.width, height: Double(rowCount) * rowHeight)
        shownRows.removeAll()
        layOutRows()
    }

    /// The most rows a list holds (their total height stays within the geometry limits).
    public static let maximumRows = 10_000_000

    /// Puts a layer on every row on screen, reusing those of rows that left it.
    private func layOutRows() {
        guard let dataSource else { return }
        let wanted = visibleRows
        var free: [Int] = []
        for (layerIndex, row) in shownRows where !wanted.contains(row) {
            shownRows[layerIndex] = nil
            free.append(layerIndex)
        }
        free.append(contentsOf: rowLayers.indices.filter { shownRows[$0] == nil && !free.contains($0) })
        let present = Set(shownRows.values)
        withoutActions {
            for row in wanted where !present.contains(row) {
                let layerIndex: Int
                if let reused = free.popLast() {
                    layerIndex = reused
                } else {
                    let size = Size(width: scrollView.layer.bounds.width, height: rowHeight)
                    let made = dataSource.makeRow(for: self, size: size)
                    made.anchorPoint = .zero
                    made.bounds = Rect(origin: .zero, size: size)
                    scrollView.contentLayer.addSublayer(made)
                    rowLayers.append(made)
                    layerIndex = rowLayers.count - 1
                }
                let layer = rowLayers[layerIndex]
                layer.position = Point(x: 0, y: Double(row) * rowHeight)
                layer.isHidden = false
                dataSource.list(self, configure: layer, at: row)
                shownRows[layerIndex] = row
            }
            for layerIndex in free { rowLayers[layerIndex].isHidden = true }
        }
    }

    private func tapped(_ tap: TapGestureRecognizer) {
        guard tap.state == .ended, !scrollView.touchStoppedMotion else { return }
        let y = tap.location(in: scrollView.contentLayer).y
        guard y >= 0 else { return }
        let row = Int((y / rowHeight).rounded(.down))
        guard row < rowCount else { return }
        onSelect?(self, row)
    }
}
