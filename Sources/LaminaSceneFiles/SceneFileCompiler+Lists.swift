import LaminaSceneSyntax
import LaminaWidgets

/// List bindings and list layers: a `list` layer shows a list binding's items as rows built
/// from a template, only the rows on screen (`ListView`).
extension SceneFileCompiler {
    /// A list binding's items as the file writes them — a list of mappings of fields — read
    /// as text for now, within `BindingValue.ListLimits`; a list layer gives each field its
    /// kind from its row's parameters (`rowItems`).
    mutating func listItems(_ node: SceneNode, _ path: String, name: String) throws(ConfigError) -> [[String: BindingValue]] {
        typealias Limits = BindingValue.ListLimits
        guard let items = node.items else { throw values.error(node, path, "expected a list of items ({field: value}), found \(node.kindName)") }
        guard items.count <= Limits.items else { throw values.error(node, path, "more than \(Limits.items) items") }
        var result: [[String: BindingValue]] = []
        for (i, item) in items.enumerated() {
            let fields = try SceneFields(item, path: "\(path)[\(i)]", file: file)
            guard fields.count <= Limits.fields else { throw fields.error(item, nil, "more than \(Limits.fields) fields") }
            var record: [String: BindingValue] = [:]
            for key in fields.keys {
                record[key] = .string(try values.string(fields[key]!, fields.path(key), maxLength: Limits.textBytes))
            }
            result.append(record)
        }
        listNodes[name] = node
        return result
    }

    /// A list layer's row: its `row` template compiled once with each parameter a binding of
    /// its default's kind, checked to hold plain layers (no controls, scroll views, lists or
    /// animations: a row is built again for each row on screen), and the list binding's
    /// items as the file writes them made the row's kinds.
    mutating func listRow(of spec: LayerSpec, _ node: SceneNode, _ path: String, depth: Int) throws(ConfigError) -> ListRowSpec {
        var templateName: String?, itemsName: String?
        for entry in spec.setup {
            if case .listRowTemplate(let t) = entry { templateName = t }
            if case .listItems(let b) = entry { itemsName = b }
        }
        guard let templateName, let itemsName else {
            throw SceneFields.error(file, node, path, "a list layer names its `items` (a list binding) and its `row` (a template)")
        }
        guard let template = templates[templateName] else {
            throw SceneFields.error(file, node["row"] ?? node, path + ".row",
                                    "no template is named '\(Escaped(templateName))' (defined: \(templates.keys.sorted().joined(separator: ", ")))")
        }
        guard template.behaviour.isEmpty else {
            throw SceneFields.error(file, node["row"] ?? node, path + ".row", "a list's row template has no states or gestures of its own (a tap on a row publishes a `select` event)")
        }
        var fields: [String: BindingValue] = [:]
        for (parameter, value) in template.parameters {
            let at = "templates.\(templateName).parameters.\(parameter)"
            guard let text = value.scalar, !value.isNull else {
                throw SceneFields.error(file, value, at, "a list row's parameters have defaults: each gives its field's kind (a number, a \"#RRGGBB\" colour, or text) and its value when an item leaves it out")
            }
            if SceneValueReader.isDecimal(Substring(text)) {
                fields[parameter] = .number(try values.number(value, at))
            } else if text.hasPrefix("#"), let colour = try? Color(hex: text) {
                fields[parameter] = .color(colour)
            } else {
                fields[parameter] = .string(text)
            }
        }
        // Compiled once: the fields shadow bindings of the same name, and names address nothing.
        let saved = bindings
        for (name, value) in fields { bindings[name] = value }
        registersNames = false
        let compiled: LayerSpec
        do {
            compiled = try layer(template.layer, path: "\(path).row(\(templateName))", namePrefix: "", depth: depth + 1, templateDepth: 1)
        } catch {
            bindings = saved
            registersNames = true
            throw error
        }
        bindings = saved
        registersNames = true
        try Self.checkRowLayers(compiled, file: file, node: node, path: path)
        let row = ListRowSpec(template: templateName, fields: fields, layer: compiled)
        if case .list(let written)? = bindings[itemsName] {
            // The file writes every field as text: a number field's is read as a number.
            let typed = written.map { item in
                Dictionary(uniqueKeysWithValues: item.map { key, field -> (String, BindingValue) in
                    if case .string(let s) = field, case .number? = fields[key], SceneValueReader.isDecimal(Substring(s)),
                       let n = Double(s), abs(n) <= SceneValueReader.numberLimit { return (key, .number(n)) }
                    return (key, field)
                })
            }
            do {
                bindings[itemsName] = .list(try row.convert(typed))
            } catch {
                throw SceneFields.error(file, listNodes[itemsName] ?? node, "bindings.\(itemsName)", error.reason)
            }
        }
        return row
    }

    /// A row holds plain layers: built for each row on screen and reused, it has no controls,
    /// scroll views, lists or animations of its own.
    private static func checkRowLayers(_ spec: LayerSpec, file: String, node: SceneNode, path: String) throws(ConfigError) {
        guard !(spec.kind.isControl || spec.kind == .scroll || spec.kind == .list || spec.kind == .video) else {
            throw SceneFields.error(file, node, path + ".row", "a list's row holds plain layers, not a \(spec.kind.rawValue) (\(spec.elementPath))")
        }
        guard spec.animations.isEmpty else {
            throw SceneFields.error(file, node, path + ".row", "a list's row has no animations of its own (\(spec.elementPath))")
        }
        for sublayer in spec.sublayers { try checkRowLayers(sublayer, file: file, node: node, path: path) }
    }
}
