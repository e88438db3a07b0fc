import LaminaSceneSyntax
import LaminaWidgets

/// A layer's `layout:` and an item's `layoutSize:`, read from the scene file.
extension SceneFileCompiler {
    /// `layout:` — `{stack: vertical|horizontal, spacing, alignment, distribution, padding}` or
    /// `{grid: columns, spacing, rowHeight, fill, padding}`.
    func layout(_ node: SceneNode, _ path: String) throws(ConfigError) -> LayoutSpec {
        var fields = try SceneFields(node, path: path, file: file)
        func number(_ key: String) throws(ConfigError) -> Double? {
            try fields.take(key).map { n throws(ConfigError) in try values.number(n, fields.path(key), in: 0...SceneValueReader.numberLimit) }
        }
        let padding: EdgeInsets
        if let n = fields.take("padding") {
            if n.items == nil {
                padding = EdgeInsets(all: try values.number(n, fields.path("padding"), in: 0...SceneValueReader.numberLimit))
            } else {
                let p = try values.numbers(n, fields.path("padding"), count: 2...4, what: "[vertical, horizontal] or [top, right, bottom, left]")
                guard p.allSatisfy({ $0 >= 0 }), p.count != 3 else {
                    throw fields.error(n, "padding", "padding is not negative, written [vertical, horizontal] or [top, right, bottom, left]")
                }
                padding = p.count == 2 ? EdgeInsets(top: p[0], left: p[1], bottom: p[0], right: p[1])
                                       : EdgeInsets(top: p[0], left: p[3], bottom: p[2], right: p[1])
            }
        } else {
            padding = EdgeInsets.zero
        }
        if let stack = fields.take("stack") {
            let axis = try values.choice(stack, fields.path("stack"), [StackLayout.Axis.vertical, .horizontal])
            let spacing = try number("spacing") ?? 0
            let alignment = try fields.take("alignment").map { n throws(ConfigError) in
                try values.choice(n, fields.path("alignment"), [StackLayout.Alignment.start, .center, .end, .fill]) } ?? .center
            let distribution = try fields.take("distribution").map { n throws(ConfigError) in
                try values.choice(n, fields.path("distribution"), [StackLayout.Distribution.start, .center, .end, .spaceBetween]) } ?? .start
            try fields.rejectUnknown(known: ["stack", "spacing", "alignment", "distribution", "padding"])
            return .stack(axis: axis, spacing: spacing, alignment: alignment, distribution: distribution, padding: padding)
        }
        if let grid = fields.take("grid") {
            let columns = try values.integer(grid, fields.path("grid"), in: 1...64)
            var spacing = Size.zero
            if let n = fields.take("spacing") {
                if n.items == nil {
                    let s = try values.number(n, fields.path("spacing"), in: 0...SceneValueReader.numberLimit)
                    spacing = Size(width: s, height: s)
                } else {
                    let s = try values.numbers(n, fields.path("spacing"), count: 2...2, what: "[between columns, between rows]")
                    guard s.allSatisfy({ $0 >= 0 }) else { throw fields.error(n, "spacing", "spacing is not negative") }
                    spacing = Size(width: s[0], height: s[1])
                }
            }
            let rowHeight = try number("rowHeight")
            let fill = try fields.take("fill").map { n throws(ConfigError) in try values.bool(n, fields.path("fill")) } ?? true
            try fields.rejectUnknown(known: ["grid", "spacing", "rowHeight", "fill", "padding"])
            return .grid(columns: columns, spacing: spacing, rowHeight: rowHeight, fillsCells: fill, padding: padding)
        }
        throw fields.error(node, nil, "a layout is a `stack: vertical` (or horizontal) or a `grid: COLUMNS`")
    }

    /// `layoutSize:` — `fit`, a length, or `{flexible: weight}`.
    func layoutSize(_ node: SceneNode, _ path: String) throws(ConfigError) -> ItemSize {
        if node.scalar == "fit" { return .fit }
        if node.entries != nil {
            var fields = try SceneFields(node, path: path, file: file)
            guard let n = fields.take("flexible") else { throw fields.error(node, nil, "expected fit, a length or {flexible: weight}") }
            let weight = try values.number(n, fields.path("flexible"), in: 0.001...1000)
            try fields.rejectUnknown(known: ["flexible"])
            return .flexible(weight)
        }
        return .fixed(try values.number(node, path, in: 0...SceneValueReader.numberLimit))
    }
}
