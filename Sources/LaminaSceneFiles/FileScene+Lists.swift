import LaminaWidgets

/// What in one list row follows a binding or an item's field: shown again each time the row
/// shows another item.
final class RowBindings {
    var properties: [(layer: Layer, keyPath: String, value: ValueSpec)] = []
    var texts: [(layer: TextLayer, text: TextTemplate)] = []
    /// Reads the fields' defaults, then the scene's bindings: how a new row is first built.
    var lookup: (String) -> BindingValue? = { _ in nil }
}

/// A list layer's data source: rows built from the row template, each showing one item of
/// the list binding (fields first, then the parameters' defaults, then the scene's bindings).
final class ListRows: ListDataSource {
    let row: ListRowSpec
    /// The list binding the items come from.
    let binding: String
    /// The scene's bindings the row reads besides its fields: a change to one shows the rows
    /// again.
    let reads: Set<String>
    private weak var scene: FileScene?
    private weak var list: ListView?
    /// What follows the items in each row layer made, by the layer.
    private var rows: [ObjectIdentifier: RowBindings] = [:]

    init(scene: FileScene, list: ListView, row: ListRowSpec, binding: String) {
        self.scene = scene
        self.list = list
        self.row = row
        self.binding = binding
        reads = Self.bindingNames(row.layer).subtracting(row.fields.keys)
    }

    private static func bindingNames(_ spec: LayerSpec) -> Set<String> {
        var names = Set(spec.properties.flatMap(\.value.bindingNames) + (spec.text?.bindingNames ?? []))
        for sublayer in spec.sublayers { names.formUnion(bindingNames(sublayer)) }
        return names
    }

    /// The binding's items now.
    var items: [[String: BindingValue]] {
        if case .list(let items)? = scene?.bindingValues[binding] { return items }
        return []
    }

    /// Shows the items again: the row count and every row on screen.
    func reload() { list?.reloadData() }

    func numberOfRows(in list: ListView) -> Int { items.count }

    func makeRow(for list: ListView, size: Size) -> Layer {
        guard let scene else { return Layer() }
        let bindings = RowBindings()
        let defaults = row.fields
        bindings.lookup = { [weak scene] name in defaults[name] ?? scene?.bindingValues[name] }
        let layer = scene.build(row.layer, row: bindings)
        // The list places and sizes each row: the template's own frame is not shown again.
        let placement: Set<String> = ["position", "position.x", "position.y", "bounds", "bounds.size", "anchorPoint"]
        bindings.properties.removeAll { $0.layer === layer && placement.contains($0.keyPath) }
        rows[ObjectIdentifier(layer)] = bindings
        return layer
    }

    func list(_ list: ListView, configure layer: Layer, at index: Int) {
        guard let scene, let bindings = rows[ObjectIdentifier(layer)] else { return }
        let all = items
        guard all.indices.contains(index) else { return }
        let item = all[index], defaults = row.fields
        let lookup: (String) -> BindingValue? = { item[$0] ?? defaults[$0] ?? scene.bindingValues[$0] }
        for (target, keyPath, value) in bindings.properties { target.setValue(scene.resolve(value, lookup), forKeyPath: keyPath) }
        for (target, text) in bindings.texts { target.string = text.text(in: scene.language, lookup) }
    }
}

extension FileScene {
    /// The list a `list` layer is: as large as its `bounds`, its rows built from its row
    /// template for the items of its binding; a tap on a row publishes a `select` control
    /// event with the row's index.
    func makeList(_ spec: LayerSpec) -> ListView? {
        guard let row = spec.listRow else { return nil }
        var size = Size(width: 300, height: 300), rowHeight = 60.0, binding = ""
        if let bounds = spec.writtenBounds { size = bounds.size }
        for entry in spec.setup {
            if case .rowHeight(let h) = entry { rowHeight = h }
            if case .listItems(let b) = entry { binding = b }
        }
        let list = ListView(context: context, size: size, rowHeight: rowHeight)
        let rows = ListRows(scene: self, list: list, row: row, binding: binding)
        list.dataSource = rows
        let name = spec.name ?? ""
        list.onSelect = { [weak self] _, index in
            self?.context.publish("control", ["layer": .string(name), "action": .string("select"), "value": .number(Double(index))])
        }
        listRows.append(rows)
        if let n = spec.name { lists[n] = list }
        rows.reload()
        return list
    }
}
