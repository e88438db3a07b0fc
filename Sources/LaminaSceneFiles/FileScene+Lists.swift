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
