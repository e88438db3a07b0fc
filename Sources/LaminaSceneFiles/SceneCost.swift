import LaminaSceneSyntax
import LaminaWidgets

/// What a scene costs to keep and draw (the cost model, `docs/scene-files.md` Limits):
/// figures the compiler checks against `SceneFileCompiler.Limits` and `set-binding` checks
/// again, with replicator instances counted (a layer inside a replicator of n is drawn n
/// times; nested replicators multiply).
struct SceneCost {
    /// Layers drawn, replicator instances counted (saturating).
    var drawnLayers = 0
    /// Bytes of text shown that do not depend on a binding.
    var literalTextBytes = 0
    /// For each binding shown in text, how many times it is shown.
    var textUses: [String: Int] = [:]
    /// Expressions shown in text (`{= …}`) and how many times each is shown: their text is
    /// worked out from the bindings' values when the budget is checked.
    var textExpressions: [(expression: SceneExpression, uses: Int)] = []
    /// Points shapes' paths are flattened into at their own scale, replicator instances
    /// counted: what stroking and filling them costs each frame.
    var pathPoints = 0
    /// Layers drawn that may cast a shadow (`shadowOpacity` set, by a state or an animation),
    /// replicator instances counted: each costs a blur of its area every frame it is drawn.
    var shadowedLayers = 0
    /// The named layers a state or a named animation gives a shadow.
    private var shadowedNames: Set<String> = []

    init(_ layers: [LayerSpec], states: [String: StateSpec] = [:], animations: [String: NamedAnimation] = [:],
         useStates: [String: StateMachine] = [:]) {
        for state in Array(states.values) + useStates.values.flatMap(\.states.values) {
            for value in state.values where value.keyPath == "shadowOpacity" { shadowedNames.insert(value.layer) }
        }
        for named in animations.values where Self.animates(named.animation, "shadowOpacity") { shadowedNames.insert(named.layer) }
        for layer in layers { add(layer, copies: 1) }
    }

    private static func animates(_ animation: AnimationSpec, _ keyPath: String) -> Bool {
        switch animation {
        case .single(let a): return a.keyPath == keyPath
        case .group(let g): return g.animations.contains { $0.keyPath == keyPath }
        }
    }

    private static func castsShadow(_ layer: LayerSpec, named names: Set<String>) -> Bool {
        if let name = layer.name, names.contains(name) { return true }
        if layer.animations.contains(where: { animates($0.animation, "shadowOpacity") }) { return true }
        return layer.properties.contains { property in
            guard property.keyPath == "shadowOpacity" else { return false }
            if case .literal(.scalar(let opacity)) = property.value { return opacity > 0 }
            return true                                       // a binding: it may be set above 0
        }
    }

    /// Rows a list layer has on screen at most: its viewport's height over the row height,
    /// and one row cut at each edge.
    static func rowsOnScreen(_ layer: LayerSpec) -> Int {
        var height = 300.0, rowHeight = 60.0
        if let bounds = layer.writtenBounds { height = bounds.height }
        for case .rowHeight(let h) in layer.setup { rowHeight = h }
        return Int((height / rowHeight).rounded(.up)) + 2
    }

    private mutating func add(_ layer: LayerSpec, copies: Int, fields: Set<String> = []) {
        // A scroll layer or a list also draws its content layer and two indicators; a control, its parts.
        let parts = layer.kind == .scroll || layer.kind == .list || layer.kind.isControl ? 4 : 1
        drawnLayers = Self.sum(drawnLayers, Self.product(copies, parts))
        if let row = layer.listRow {
            // Each row on screen is the row template built once more; an item's text field
            // shows at most `ListLimits.textBytes`.
            add(row.layer, copies: Self.product(copies, Self.rowsOnScreen(layer)), fields: Set(row.fields.keys))
        }
        if Self.castsShadow(layer, named: shadowedNames) { shadowedLayers = Self.sum(shadowedLayers, copies) }
        // A toggle's knob and a slider's thumb cast a shadow of their own.
        if layer.kind == .toggle || layer.kind == .slider { shadowedLayers = Self.sum(shadowedLayers, copies) }
        for case .path(let path) in layer.setup {
            pathPoints = Self.sum(pathPoints, Self.product(copies, min(path.flattenedPointCount(), Path.maximumFlattenedPoints)))
        }
        for part in layer.text?.parts ?? [] {
            switch part {
            case .literal(let text): literalTextBytes = Self.sum(literalTextBytes, Self.product(copies, text.utf8.count))
            case .binding(let name) where fields.contains(name):
                literalTextBytes = Self.sum(literalTextBytes, Self.product(copies, BindingValue.ListLimits.textBytes))
            case .binding(let name): textUses[name] = Self.sum(textUses[name] ?? 0, copies)
            case .expression(let e): textExpressions.append((e, copies))
            }
        }
        let inner = Self.product(copies, layer.kind == .replicator ? layer.instanceCount : 1)
        for sublayer in layer.sublayers { add(sublayer, copies: inner, fields: fields) }
    }

    /// Bytes of text shown when the bindings have `value`s.
    func textBytes(_ value: (String) -> BindingValue?) -> Int {
        let bound = textUses.reduce(literalTextBytes) { total, use in
            Self.sum(total, Self.product(use.value, value(use.key)?.description.utf8.count ?? 0))
        }
        return textExpressions.reduce(bound) { total, use in
            Self.sum(total, Self.product(use.uses, use.expression.evaluate(value).text.utf8.count))
        }
    }

    private static func sum(_ a: Int, _ b: Int) -> Int {
        let (r, overflow) = a.addingReportingOverflow(b)
        return overflow ? Int.max : r
    }

    private static func product(_ a: Int, _ b: Int) -> Int {
        let (r, overflow) = a.multipliedReportingOverflow(by: b)
        return overflow ? Int.max : r
    }
}
